"""export --format md's chunk headers: PyYAML's own emitter's bytes, written by libyaml's only where the two agree."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.export_render import yaml_head


def _reference(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=yaml.SafeDumper, allow_unicode=True, sort_keys=False, width=1_000_000)


CASES: list[dict[str, Any]] = [
    {"kind": "chunk", "section": "Установка", "header_path": [{"level": 2, "text": "Kapazität"}], "size": 812},
    {"title": "Emoji 😀 in a title"},  # libyaml escapes it: "\U0001F600"
    {"note": "next line\x85"},  # libyaml writes \N
    {"": "an empty key"},  # PyYAML writes it as a complex key: ? ''
    {"k" * 125: 1},  # PyYAML: a complex key from 123 characters
    {"中" * 43: 1},  # libyaml counts bytes: 129
    {"document": {"date": datetime.date(2024, 1, 2), "tags": ["a", "b"], 3: None, True: 1.5}},
    {"text": "a\nb\n\nc  ", "quoted": "- x: y # z", "blank": "", "none": None},
]


@pytest.mark.skipif(not getattr(yaml, "__with_libyaml__", False), reason="PyYAML built without libyaml")
@pytest.mark.parametrize("data", CASES)
def test_each_header_is_pyyamls_bytes(data: dict[str, Any]) -> None:
    assert yaml_head(data) == _reference(data)


@pytest.mark.parametrize("data", CASES)
def test_without_libyaml_the_same_bytes(data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(yaml, "CSafeDumper", raising=False)
    assert yaml_head(data) == _reference(data)


_KEYS = st.one_of(
    st.text(max_size=140), st.text(alphabet="é中k ", max_size=140), st.integers(), st.booleans(), st.none()
)
_SCALARS = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=" \t\n\r:#-'\"{}[]|>&*!%@`,?abc\u00a0\u2028\ufeff\x85é😀\\", max_size=30),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.dates(),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=8))
def test_random_headers_are_pyyamls_bytes(data: dict[str, Any]) -> None:
    assert yaml_head(data) == _reference(data)
