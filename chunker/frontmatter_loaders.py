"""The two YAML loaders of a frontmatter, with the same constructor hooks (duplicate keys, values
JSON cannot hold): the hardened pure-Python :class:`Loader` (nesting bounded in the composer and
the scanner), and libyaml for a plain mapping (:func:`plain_mapping`), three times faster."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.nodes import MappingNode, Node
from yaml.resolver import Resolver

from chunker.config import ChunkerConfig
from chunker.frontmatter_graph import RefusedError, check_graph
from chunker.frontmatter_values import json_key, non_json_kind, to_json

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Findings:
    """Constructor hooks shared by both loaders: duplicate keys and values JSON cannot hold are
    recorded with their marks."""

    duplicates: list[tuple[str, Mark, Mark]]
    """(key, mark of the repeat, mark of the first occurrence)."""
    converted: dict[str, Mark]
    """Kind of non-JSON value -> where it first occurs."""
    constructing: Mark | None
    """Start of the node constructed last: where a constructor that fails went wrong."""

    def _start_findings(self) -> None:
        self.duplicates = []
        self.converted = {}
        self.constructing = None

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        self.constructing = node.start_mark
        value = super().construct_object(node, deep)  # type: ignore[misc]
        kind = non_json_kind(value)
        if kind is not None:
            self.converted.setdefault(kind, node.start_mark)
        return value

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        seen: dict[str, Mark] = {}
        equal: dict[Hashable, str] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:  # `<<: *base` overrides on purpose
                continue
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                continue  # super() raises "found unhashable key" with its line
            if not isinstance(key, str):
                self.converted.setdefault("non-string key", key_node.start_mark)
            name = json_key(key)
            alias = equal.setdefault(key, name)  # 1, 1.0 and true are one key of a Python dict
            for known in dict.fromkeys((name, alias)):
                if known in seen:
                    self.duplicates.append((known, key_node.start_mark, seen[known]))
                    break
            seen[name] = key_node.start_mark
        result: dict[Hashable, Any] = super().construct_mapping(node, deep)  # type: ignore[misc]
        return result


class Loader(_Findings, yaml.SafeLoader):
    """Pure-Python SafeLoader that bounds nesting and records duplicate keys and conversions.

    (``CSafeLoader`` would ignore the composer and scanner overrides.)
    """

    def __init__(self, text: str, max_depth: int) -> None:
        super().__init__(text)
        self._start_findings()
        self.max_depth = max_depth
        self.depth = 0
        self.deepest_depth = 0
        self.deepest: Mark | None = None
        """Where the deepest node composed so far starts."""

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]  # untyped in types-PyYAML
        self.depth += 1
        try:
            if self.depth > self.deepest_depth:
                self.deepest_depth, self.deepest = self.depth, mark
            if self.depth > self.max_depth:
                raise RefusedError("frontmatter-too-deep", f"nests deeper than {self.max_depth} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        # Checked in the scanner, not only the composer: PyYAML's scanner is quadratic
        # in flow depth (1000 brackets take a second, 250 KB of them minutes).
        if self.flow_level >= self.max_depth:
            raise RefusedError("frontmatter-too-deep", f"nests deeper than {self.max_depth} levels", self.get_mark())
        super().fetch_flow_collection_start(token_class)


_FAST_REFUSED = "\t{?%!|>&*@`\r\x85\u2028\u2029\ufeff"
"""Characters around which libyaml and PyYAML can disagree (tabs, flow mappings, complex keys,
directives, tags, block scalars, anchors and aliases, reserved indicators, line breaks other than
LF, a BOM): frontmatter with one goes to the hardened PyYAML loader only."""
_FAST_MAX_INDICATORS = 1000
"""libyaml's composer recurses in C: only text with at most this many of the characters that open
a collection (``[ { - ? :``, so at most this deep) goes to it."""

try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without libyaml
    CLoader: type | None = None
else:

    class _CLoaderImpl(CParser, _Findings, SafeConstructor, Resolver):
        """libyaml's scanner, parser and composer with the safe constructor and the same hooks."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_findings()

    CLoader = _CLoaderImpl


def plain_mapping(yaml_text: str, cfg: ChunkerConfig) -> dict[str, Any] | None:
    """The metadata of a frontmatter that is a plain mapping (nearly every one), loaded through
    libyaml: nothing refused, no duplicate key, no value to convert. ``None`` for anything else,
    and then the hardened pure-Python loader decides, with its own messages and lines."""
    if CLoader is None or sum(map(yaml_text.count, "[{-?:")) > _FAST_MAX_INDICATORS:
        return None
    if any(char in yaml_text for char in _FAST_REFUSED):
        return None
    try:
        loader = CLoader(yaml_text)
    except Exception:  # e.g. a lone surrogate, which libyaml cannot take as UTF-8
        return None
    try:
        root = loader.get_single_node()
        if not isinstance(root, MappingNode):
            return None
        check_graph(root, cfg.max_frontmatter_nodes, cfg.max_frontmatter_depth, cfg.max_frontmatter_bytes)
        data = loader.construct_document(root)
    except Exception:  # any failure: the hardened loader says what it is
        return None
    finally:
        loader.dispose()
    if loader.duplicates or loader.converted or not isinstance(data, dict):
        return None
    metadata: dict[str, Any] = to_json(data)
    return metadata
