"""The node graph of a YAML frontmatter, checked before any Python object is built: aliases
that expand past the limits or loop (alias bombs, cycles), and scalars holding UTF-16 surrogates."""

from __future__ import annotations

import re

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from chunker.text import SURROGATE

_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
"""A high then a low surrogate: what JSON, not YAML, reads as one character beyond U+FFFF."""


class RefusedError(Exception):
    """The YAML is refused for a reason of our own (too deep, too many nodes, a cycle)."""

    def __init__(self, code: str, message: str, mark: Mark | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def check_graph(root: Node, max_nodes: int, max_depth: int, max_chars: int) -> None:
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
                raise RefusedError(
                    "frontmatter-too-large",
                    f"has more than max_frontmatter_nodes={max_nodes} nodes (keys, values and items)",
                    node.start_mark,
                )
            if count > max_nodes:
                raise RefusedError(
                    "frontmatter-aliases",
                    f"expands through aliases to more than max_frontmatter_nodes={max_nodes} nodes",
                    node.start_mark,
                )
            if depth > max_depth:
                raise RefusedError(
                    "frontmatter-too-deep", f"nests deeper than {max_depth} levels through aliases", node.start_mark
                )
            if chars > max_chars:
                raise RefusedError(
                    "frontmatter-aliases",
                    f"expands through aliases to more than max_frontmatter_bytes={max_chars} characters of text",
                    node.start_mark,
                )
            done[key] = (count, depth, chars)
            continue
        if key in done:
            continue
        if key in open_:
            raise RefusedError("frontmatter-aliases", "has an alias that refers to itself (a cycle)", node.start_mark)
        if isinstance(node, ScalarNode) and isinstance(node.value, str) and SURROGATE.search(node.value):
            raise RefusedError("frontmatter-invalid", _surrogate_message(node.value), node.start_mark)
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
