"""What a top-level block token covers: the block kind of a token, the token that closes a
container block, the kinds nested in it and its joints (where an oversize block may be cut)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from chunker.frames import fence_closed
from chunker.models import UNCLOSED_FENCE, BlockKind
from chunker.parse.token import BlockToken

__all__ = ["INNER_KIND", "KIND_OF_TOKEN", "children", "container_extent", "inner_of"]

# plain dicts typed read-only: asked once per token, and a MappingProxyType's ``get`` is a call
# through to the dict's (twice the time)
KIND_OF_TOKEN: Mapping[str, BlockKind] = {
    "paragraph_open": "paragraph",
    "heading_open": "heading",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
    "html_block": "html",
    "hr": "thematic_break",
    "math_block": "math",
    "math_block_eqno": "math",
    "container_block_open": "container",
    "container_blocks_open": "container",
    "myst_fence_open": "container",
    "admonition_open": "container",
    "math_block_label": "math",
    "footnote_reference_open": "container",
    "dl_open": "container",
    "myst_line_comment": "html",  # rendered as an HTML comment
    "myst_block_break": "thematic_break",
}
INNER_KIND: Mapping[str, str] = {
    "fence": "code",
    "code_block": "code",
    "table_open": "table",
    "math_block": "math",
    "math_block_eqno": "math",
    "math_block_label": "math",
    "html_block": "html",
}

NO_JOINT = frozenset({"admonition_title_open", "dd_open"})
"""Container children no piece may start with: an admonition's title, a definition without its term."""


def container_extent(
    tokens: Sequence[BlockToken], open_index: int, kind: BlockKind, starts: Sequence[int], text: str
) -> tuple[int, frozenset[str], tuple[int, ...]]:
    """Index of the token closing a container block (the last token if none does), the kinds
    nested in the block (and :data:`UNCLOSED_FENCE`), and its joints: offsets where it may be split
    when oversize. One pass."""
    inner: set[str] = set()
    joints: list[int] = []
    in_body = False
    body: list[int] | None = None  # a table's tbody map, whose lines are its body rows
    depth = 1
    close = len(tokens) - 1
    for j in range(open_index + 1, close):
        token = tokens[j]
        depth += token.nesting
        if depth == 0:
            close = j
            break
        token_type = token.type
        nested = INNER_KIND.get(token_type)
        if nested is not None:
            inner.add(nested)
            if token_type == "fence" and token.map is not None and not fence_closed(token, text, starts):
                inner.add(UNCLOSED_FENCE)
        if token_type == "tbody_open":
            in_body = True
            body = token.map
        if token.map is None:
            continue
        if (
            (kind == "list" and token_type == "list_item_open" and token.level == 1)
            or (kind == "table" and in_body and token_type == "tr_open")
            or (kind == "container" and token.level == 1 and token.nesting != -1 and token_type not in NO_JOINT)
        ):
            joints.append(starts[token.map[0]])
    if kind == "table" and body is not None and not joints:
        # markdown-it-py's document parse keeps no body row tokens of a top-level table
        # (parse/markdown.py): a row per line of the tbody
        return close, frozenset(inner), tuple(starts[line] for line in range(body[0], min(body[1], len(starts))))
    return close, frozenset(inner), tuple(joints)


def inner_of(tokens: Sequence[BlockToken], start: int, stop: int) -> frozenset[str]:
    kinds = {INNER_KIND.get(t.type) or KIND_OF_TOKEN.get(t.type) for t in tokens[start:stop] if t.level == 0}
    return frozenset(k for k in kinds if k in ("code", "table", "math", "html", "list"))


def children(tokens: Sequence[BlockToken], open_index: int, close: int, starts: Sequence[int]) -> tuple[int, ...]:
    """Offsets of the top-level blocks between a ``<details>`` opening and its closing HTML block."""
    return tuple(
        starts[t.map[0]]
        for t in tokens[open_index + 1 : close + 1]
        if t.level == 0 and t.nesting != -1 and t.map is not None
    )
