"""TOML (``+++``) and JSON (``{`` on line 1) frontmatter, loaded with the same limits as YAML.

TOML is read by the standard library's :mod:`tomllib`, JSON by :mod:`json`. Before parsing, the
block's size is checked against ``max_frontmatter_bytes``; after, the value's nesting depth and
node count against ``max_frontmatter_depth`` and ``max_frontmatter_nodes`` (a parser that
recurses too deeply is caught and refused alike). Dates and times become ISO strings, NaN and
infinities strings (reported as ``frontmatter-converted``), a lone surrogate escape in JSON is
refused, and a key given twice in JSON is a ``frontmatter-duplicate-key`` warning.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import Any, Literal

from chunker.config import ChunkerConfig
from chunker.frontmatter import FrontmatterResult
from chunker.models import Diagnostic
from chunker.policy import gated
from chunker.text import SURROGATE

__all__ = ["load_json_frontmatter", "load_toml_frontmatter"]

_TOML_AT = re.compile(r"\(at line (\d+), column \d+\)|\(at end of document\)")


class _RefusedError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _refuse(code: str, message: str, line: int) -> FrontmatterResult:
    return FrontmatterResult(None, False, (gated(code, f"frontmatter {message}; the block was removed", line=line),))


def _too_large(text: str, cfg: ChunkerConfig, line: int) -> FrontmatterResult | None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= cfg.max_frontmatter_bytes:
        return None
    message = f"is {size} bytes, over max_frontmatter_bytes={cfg.max_frontmatter_bytes}, and was not parsed"
    return _refuse("frontmatter-too-large", message, line)


def _to_json(value: Any, cfg: ChunkerConfig, converted: set[str]) -> Any:
    """``value`` with JSON types only, iteratively; refuses more nodes or depth than the limits."""
    nodes = 0
    root: list[Any] = [None]
    stack: list[tuple[Any, list[Any] | dict[str, Any], Any, int]] = [(value, root, 0, 1)]
    while stack:
        item, parent, slot, depth = stack.pop()
        nodes += 1
        if nodes > cfg.max_frontmatter_nodes:
            raise _RefusedError(
                "frontmatter-too-large", f"has more than max_frontmatter_nodes={cfg.max_frontmatter_nodes} values"
            )
        if depth > cfg.max_frontmatter_depth:
            raise _RefusedError("frontmatter-too-deep", f"nests deeper than {cfg.max_frontmatter_depth} levels")
        if isinstance(item, dict):
            out: dict[str, Any] = {}
            parent[slot] = out
            stack.extend((v, out, str(k), depth + 1) for k, v in reversed(list(item.items())))
            for key in item:
                if isinstance(key, str) and SURROGATE.search(key):
                    raise _RefusedError("frontmatter-invalid", "has a key with a lone UTF-16 surrogate escape")
        elif isinstance(item, list):
            seq: list[Any] = [None] * len(item)
            parent[slot] = seq
            stack.extend((v, seq, k, depth + 1) for k, v in reversed(list(enumerate(item))))
        elif isinstance(item, str):
            if SURROGATE.search(item):
                raise _RefusedError("frontmatter-invalid", "has a lone UTF-16 surrogate escape (not a character)")
            parent[slot] = item
        elif isinstance(item, float) and not math.isfinite(item):
            converted.add("nan or infinity")
            parent[slot] = "nan" if math.isnan(item) else ("inf" if item > 0 else "-inf")
        elif isinstance(item, (dt.date, dt.time)):
            converted.add("date or time")
            parent[slot] = item.isoformat()
        elif isinstance(item, int) and not isinstance(item, bool) and not -(2**63) <= item < 2**63:
            converted.add("integer beyond 64 bits")
            parent[slot] = str(item)
        else:
            parent[slot] = item
    return root[0]


def _finish(
    data: Any, cfg: ChunkerConfig, first_line: int, notes: list[Diagnostic], kind: Literal["TOML", "JSON"]
) -> FrontmatterResult:
    converted: set[str] = set()
    try:
        metadata = _to_json(data, cfg, converted)
    except _RefusedError as exc:
        return _refuse(exc.code, exc.message, first_line)
    if converted:
        listed = ", ".join(sorted(converted))
        message = f"{kind} frontmatter values JSON cannot hold were converted to strings: {listed}"
        notes.append(Diagnostic("info", "frontmatter-converted", message, line=first_line))
    return FrontmatterResult(metadata, False, tuple(notes))


def load_toml_frontmatter(text: str, first_line: int, cfg: ChunkerConfig) -> FrontmatterResult:
    """The TOML between ``+++`` lines; ``first_line`` is the file line of its first line."""
    import tomllib

    refused = _too_large(text, cfg, first_line)
    if refused is not None:
        return refused
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_AT.search(message)
        line = first_line + int(found.group(1)) - 1 if found and found.group(1) else first_line + text.count("\n")
        problem = _TOML_AT.sub("", message).strip()
        return _refuse("frontmatter-invalid", f"is not valid TOML: {problem}", line)
    except RecursionError:
        return _refuse("frontmatter-too-deep", "nests too deeply for the TOML parser", first_line)
    except ValueError as exc:  # an integer over Python's digit limit
        return _refuse("frontmatter-invalid", f"has a value TOML cannot construct ({exc})", first_line)
    return _finish(data, cfg, first_line, [], "TOML")


def load_json_frontmatter(text: str, first_line: int, cfg: ChunkerConfig) -> FrontmatterResult:
    """The JSON object at the top of a file (Hugo style); ``first_line`` is its first line."""
    refused = _too_large(text, cfg, first_line)
    if refused is not None:
        return refused
    notes: list[Diagnostic] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in items:
            if key in seen:
                message = f"JSON frontmatter has a duplicate key {key!r}; the last value is kept"
                notes.append(Diagnostic("warning", "frontmatter-duplicate-key", message, line=first_line))
            seen[key] = value
        return seen

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        return _refuse("frontmatter-invalid", f"is not valid JSON: {exc.msg}", first_line + exc.lineno - 1)
    except RecursionError:
        return _refuse("frontmatter-too-deep", "nests too deeply for the JSON parser", first_line)
    except ValueError as exc:  # an integer over Python's digit limit
        return _refuse("frontmatter-invalid", f"has a value JSON cannot construct ({exc})", first_line)
    if not isinstance(data, dict):
        return _refuse("frontmatter-invalid", "is JSON but not an object of key: value", first_line)
    return _finish(data, cfg, first_line, notes, "JSON")
