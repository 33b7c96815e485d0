"""Hardened loading of the YAML frontmatter at the start of a Markdown file.

``chunker.parse.frontmatter`` finds the block and hands over the YAML between
its fences. Everything that could hurt is refused before it
can: the size before parsing, the nesting depth while composing, alias bombs and
cycles on the node graph before any Python object is built, and every tag the
safe loader does not know. Accepted metadata holds only JSON values.

A plain mapping (no tabs, flow mappings, tags, anchors, block scalars...: nearly every
frontmatter) is first tried through libyaml, three times faster, with the same constructor
hooks and graph checks; whatever it refuses, flags or cannot take goes to the hardened
pure-Python loader, which alone decides every message.
"""

from __future__ import annotations

import base64
import datetime as dt
import math
import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic
from chunker.policy import gated
from chunker.text import SURROGATE

__all__ = ("FrontmatterResult", "load_frontmatter")

_NEWLINE = re.compile(r"\r\n?|\n")
"""Line breaks as markdown-it counts them (PyYAML also counts U+2028, U+0085...)."""
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NULL_TAG = "tag:yaml.org,2002:null"
_INT64 = 2**63
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
"""A high then a low surrogate: what JSON, not YAML, reads as one character beyond U+FFFF."""


@dataclass(frozen=True, slots=True)
class FrontmatterResult:
    """What the frontmatter block turned out to be."""

    metadata: dict[str, Any] | None
    """JSON-safe metadata when accepted, else ``None``."""
    keep_as_body: bool
    """The block is not metadata (a YAML list or string): its lines are ordinary body text."""
    diagnostics: tuple[Diagnostic, ...]


class _RefusedError(Exception):
    """The YAML is refused for a reason of our own (too deep, too many nodes, a cycle)."""

    def __init__(self, code: str, message: str, mark: Mark | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark


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
        kind = _non_json_kind(value)
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
            name = _key(key)
            alias = equal.setdefault(key, name)  # 1, 1.0 and true are one key of a Python dict
            for known in dict.fromkeys((name, alias)):
                if known in seen:
                    self.duplicates.append((known, key_node.start_mark, seen[known]))
                    break
            seen[name] = key_node.start_mark
        result: dict[Hashable, Any] = super().construct_mapping(node, deep)  # type: ignore[misc]
        return result


class _Loader(_Findings, yaml.SafeLoader):
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
                raise _RefusedError("frontmatter-too-deep", f"nests deeper than {self.max_depth} levels", mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        # Checked in the scanner, not only the composer: PyYAML's scanner is quadratic
        # in flow depth (1000 brackets take a second, 250 KB of them minutes).
        if self.flow_level >= self.max_depth:
            raise _RefusedError("frontmatter-too-deep", f"nests deeper than {self.max_depth} levels", self.get_mark())
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
    _CLoader: type | None = None
else:

    class _CLoaderImpl(CParser, _Findings, SafeConstructor, Resolver):
        """libyaml's scanner, parser and composer with the safe constructor and the same hooks."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_findings()

    _CLoader = _CLoaderImpl


def _plain_mapping(yaml_text: str, cfg: ChunkerConfig) -> dict[str, Any] | None:
    """The metadata of a frontmatter that is a plain mapping (nearly every one), loaded through
    libyaml: nothing refused, no duplicate key, no value to convert. ``None`` for anything else,
    and then the hardened pure-Python loader decides, with its own messages and lines."""
    if _CLoader is None or sum(map(yaml_text.count, "[{-?:")) > _FAST_MAX_INDICATORS:
        return None
    if any(char in yaml_text for char in _FAST_REFUSED):
        return None
    try:
        loader = _CLoader(yaml_text)
    except Exception:  # e.g. a lone surrogate, which libyaml cannot take as UTF-8
        return None
    try:
        root = loader.get_single_node()
        if not isinstance(root, MappingNode):
            return None
        _check_graph(root, cfg.max_frontmatter_nodes, cfg.max_frontmatter_depth, cfg.max_frontmatter_bytes)
        data = loader.construct_document(root)
    except Exception:  # any failure: the hardened loader says what it is
        return None
    finally:
        loader.dispose()
    if loader.duplicates or loader.converted or not isinstance(data, dict):
        return None
    metadata: dict[str, Any] = _to_json(data)
    return metadata


# One except clause per way the YAML loader can fail, each mapped to its own finding.
def load_frontmatter(yaml_text: str, first_line: int, cfg: ChunkerConfig) -> FrontmatterResult:  # noqa: C901
    """Load the YAML of a frontmatter block whose first line is file line ``first_line``."""

    def line(mark: Mark | None) -> int:
        if mark is None:
            return first_line
        return first_line + len(_NEWLINE.findall(yaml_text, 0, min(mark.index, len(yaml_text))))

    def refuse(code: str, message: str, mark: Mark | None) -> FrontmatterResult:
        diag = gated(code, f"frontmatter {message}; the block was removed", line=line(mark))
        return FrontmatterResult(None, False, (diag,))

    def not_mapping(kind: str, mark: Mark | None) -> FrontmatterResult:
        message = f"frontmatter is a YAML {kind}, not a mapping of key: value; the block is kept as body text"
        return FrontmatterResult(None, True, (Diagnostic("warning", "frontmatter-not-mapping", message, line(mark)),))

    size = len(yaml_text) if len(yaml_text) * 4 <= cfg.max_frontmatter_bytes else _utf8_size(yaml_text)
    if size > cfg.max_frontmatter_bytes:
        return refuse(
            "frontmatter-too-large",
            f"is {size} bytes, over max_frontmatter_bytes={cfg.max_frontmatter_bytes}, and was not parsed",
            None,
        )
    plain = _plain_mapping(yaml_text, cfg)
    if plain is not None:
        return FrontmatterResult(plain, False, ())
    try:
        loader = _Loader(yaml_text, cfg.max_frontmatter_depth)  # checks every character first
    except yaml.reader.ReaderError as exc:
        at = Mark("<frontmatter>", exc.position, 0, 0, None, 0)
        return refuse("frontmatter-invalid", f"holds the character #x{exc.character:04x}, which YAML forbids", at)
    try:
        root = loader.get_single_node()
        if root is None or (isinstance(root, ScalarNode) and root.tag == _NULL_TAG):
            return FrontmatterResult({}, False, ())
        if not isinstance(root, MappingNode):
            return not_mapping("list" if isinstance(root, SequenceNode) else "scalar (text)", root.start_mark)
        _check_graph(root, cfg.max_frontmatter_nodes, cfg.max_frontmatter_depth, cfg.max_frontmatter_bytes)
        data = loader.construct_document(root)
        if not isinstance(data, dict):  # a `!!set` root
            return not_mapping("set", root.start_mark)
        metadata = _to_json(data)
    except _RefusedError as exc:
        return refuse(exc.code, exc.message, exc.mark)
    except RecursionError:
        return refuse("frontmatter-too-deep", "nests too deeply for the YAML parser", loader.deepest)
    except yaml.MarkedYAMLError as exc:
        context = exc.context or ""
        if context and exc.context_mark is not None and exc.problem_mark is not None:
            context += f" at line {line(exc.context_mark)},"
        problem = " ".join(p for p in (context, exc.problem) if p) or "invalid"
        return refuse("frontmatter-invalid", f"is not valid YAML: {problem}", exc.problem_mark or exc.context_mark)
    except yaml.YAMLError as exc:
        return refuse("frontmatter-invalid", f"is not valid YAML: {exc}", None)
    except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:
        # PyYAML's safe constructors raise these on values that match a tag's pattern but not its
        # range (`2020-13-45`, `!!float abc`, `!!timestamp x`, an integer of more than 4300 digits).
        return refuse("frontmatter-invalid", f"has a value YAML cannot construct ({exc})", loader.constructing)
    finally:
        loader.dispose()

    diags: list[Diagnostic] = []
    for name, mark, first in loader.duplicates:
        diags.append(
            Diagnostic(
                "warning",
                "frontmatter-duplicate-key",
                f"frontmatter has a duplicate key {name!r} (first at line {line(first)}); the last value is kept",
                line=line(mark),
            )
        )
    if loader.converted:
        kinds = sorted(loader.converted.items(), key=lambda item: item[1].index)
        listed = ", ".join(f"{kind} (line {line(mark)})" for kind, mark in kinds)
        diags.append(
            Diagnostic(
                "info",
                "frontmatter-converted",
                f"frontmatter values JSON cannot hold were converted to strings or lists: {listed}",
                line=line(kinds[0][1]),
            )
        )
    return FrontmatterResult(metadata, False, tuple(diags))


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_graph(root: Node, max_nodes: int, max_depth: int, max_chars: int) -> None:
    """Refuse a node graph whose aliases expand past the limits or loop, without expanding it.

    Iterative post-order walk, memoised on node identity: each distinct node is
    visited once however often it is aliased. Counts saturate just past the limit.
    The expanded scalar text is capped too: a few aliases of one long string would
    otherwise turn a 60 KB block into 60 MB of metadata.
    """
    done: dict[int, tuple[int, int, int]] = {}
    """id(node) -> (expanded node count, expanded depth, expanded scalar characters)."""
    open_: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_.discard(key)
            below = [done[id(child)] for child in _children(node)]
            count = min(1 + sum(c for c, _, _ in below), max_nodes + 1)
            depth = min(1 + max((d for _, d, _ in below), default=0), max_depth + 1)
            own = len(node.value) if isinstance(node, ScalarNode) else 0
            chars = min(own + sum(t for _, _, t in below), max_chars + 1)
            if count > max_nodes and len(done) + 1 > max_nodes:  # that many nodes are written out
                raise _RefusedError(
                    "frontmatter-too-large",
                    f"has more than max_frontmatter_nodes={max_nodes} nodes (keys, values and items)",
                    node.start_mark,
                )
            if count > max_nodes:
                raise _RefusedError(
                    "frontmatter-aliases",
                    f"expands through aliases to more than max_frontmatter_nodes={max_nodes} nodes",
                    node.start_mark,
                )
            if depth > max_depth:
                raise _RefusedError(
                    "frontmatter-too-deep", f"nests deeper than {max_depth} levels through aliases", node.start_mark
                )
            if chars > max_chars:
                raise _RefusedError(
                    "frontmatter-aliases",
                    f"expands through aliases to more than max_frontmatter_bytes={max_chars} characters of text",
                    node.start_mark,
                )
            done[key] = (count, depth, chars)
            continue
        if key in done:
            continue
        if key in open_:
            raise _RefusedError("frontmatter-aliases", "has an alias that refers to itself (a cycle)", node.start_mark)
        if isinstance(node, ScalarNode) and isinstance(node.value, str) and SURROGATE.search(node.value):
            raise _RefusedError("frontmatter-invalid", _surrogate_message(node.value), node.start_mark)
        open_.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))


def _surrogate_message(text: str) -> str:
    """Why a scalar holding a UTF-16 surrogate (from a ``\\uXXXX`` escape) is refused, and what to write."""
    found = SURROGATE.search(text)
    if found is None:  # pragma: no cover - only called for a text with one
        return "has a UTF-16 surrogate, which is not a character"
    at = found.start()
    pair = _SURROGATE_PAIR.match(text, at)
    if pair is None:
        return f"has the escape \\u{ord(text[at]):04x}, a lone UTF-16 surrogate, which is not a character"
    char = pair.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    escapes = "".join(f"\\u{ord(c):04x}" for c in pair.group())
    return (
        f"has the escapes {escapes}, a UTF-16 surrogate pair, which YAML does not combine into one character: "
        f"write \\U{ord(char):08x} or the character itself"
    )


def _non_json_kind(value: Any) -> str | None:
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


def _key(key: Any) -> str:
    """A mapping key as a JSON object key."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    converted = _to_json(key)
    return converted if isinstance(converted, str) else str(converted)


def _to_json(value: Any) -> Any:
    """``value`` with only JSON types; the depth was bounded by ``_check_graph``."""
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
        return {_key(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_to_json(item) for item in value), key=str)
    if isinstance(value, (list, tuple)):
        return [_to_json(item) for item in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return str(value)
