"""YAML values as JSON values: dates, binary, sets, huge integers and non-finite floats converted."""

from __future__ import annotations

import base64
import datetime as dt
import math
from typing import Any

_INT64 = 2**63


def non_json_kind(value: Any) -> str | None:
    if isinstance(value, dt.date):
        return "date"
    if isinstance(value, bytes):
        return "binary"
    if isinstance(value, (set, frozenset)):
        return "set"
    if isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
        return "integer beyond 64 bits"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan or infinity"
    return None


def json_key(key: Any) -> str:
    """A mapping key as a JSON object key."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    converted = to_json(key)
    return converted if isinstance(converted, str) else str(converted)


def to_json(value: Any) -> Any:
    """``value`` with only JSON types; the depth was bounded by ``check_graph``."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        if -_INT64 <= value < _INT64:
            return value
        try:
            return str(value)
        except ValueError:  # over Python's 4300-digit limit (e.g. a long sexagesimal `1:2:3:...`)
            return hex(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {json_key(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((to_json(item) for item in value), key=str)
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return str(value)
