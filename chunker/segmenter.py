"""Stage 2: block tokens -> Block values with their heading path.

Only real ATX/Setext headings at the top level are headings: a numbered list
item is a list, ``# comment`` in a fence is code. Every non-blank source line
after the frontmatter ends up in exactly one block: lines the parser produced no
top-level token for become ``raw`` blocks, so the parser cannot lose text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from types import MappingProxyType

from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.inline import heading_text
from chunker.models import Block, BlockKind, Heading
from chunker.parser import ParsedDocument

Segmenter = Callable[[ParsedDocument, ChunkerConfig], tuple[Block, ...]]

_KIND_OF_TOKEN: MappingProxyType[str, BlockKind] = MappingProxyType(
    {
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
    }
)
_INNER_KIND: MappingProxyType[str, str] = MappingProxyType(
    {
        "fence": "code",
        "code_block": "code",
        "table_open": "table",
        "math_block": "math",
        "math_block_eqno": "math",
        "html_block": "html",
    }
)


_NOTHING_INSIDE: tuple[frozenset[str], tuple[int, ...]] = (frozenset(), ())


def segment(doc: ParsedDocument, cfg: ChunkerConfig) -> tuple[Block, ...]:
    """Blocks of the document body, in source order, covering every non-blank line."""
    text = doc.text
    starts = doc.line_starts
    nlines = len(starts)
    atomic_kinds = frozenset(cfg.atomic_types)
    blocks: list[Block] = []
    path: list[Heading] = []
    shared_path: list[tuple[Heading, ...]] = [()]
    """The current heading path as one tuple, shared by every block under the same heading."""
    last_end = doc.line_end(nlines - 1) if nlines else 0

    def line_end(index: int) -> int:
        """``doc.line_end(index)`` without the method call."""
        return starts[index + 1] - 1 if index + 1 < nlines else last_end

    def line_blank(index: int) -> bool:
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < nlines else last_end
        return start >= end or text[start:end].isspace()

    def add(
        kind: BlockKind,
        first: int,
        last: int,
        *,
        level: int = 0,
        title: str = "",
        inner: frozenset[str] = frozenset(),
        joints: tuple[int, ...] = (),
        fence: tuple[str, str] | None = None,
    ) -> None:
        """Add lines first..last-1 (0-based), trailing blank lines trimmed."""
        while last - 1 > first and line_blank(last - 1):
            last -= 1
        start, end = starts[first], line_end(last - 1)
        if kind == "heading":
            while path and path[-1].level >= level:
                path.pop()
            path.append(Heading(level, title, first + 1))
            shared_path[0] = tuple(path)
        blocks.append(
            Block(
                id=f"blk_{len(blocks) + 1:04d}",
                kind=kind,
                start_offset=start,
                end_offset=end,
                start_line=first + 1,
                end_line=last,
                header_path=shared_path[0],
                atomic=kind in atomic_kinds,
                source=text,
                heading_level=level,
                inner=inner,
                joints=tuple(j for j in joints if start < j < end) if joints else (),
                fence=fence,
            )
        )

    def add_raw(first: int, last: int) -> None:
        """Non-blank runs of lines first..last-1 that no token covered."""
        run_start: int | None = None
        for index in range(first, last):
            if line_blank(index):
                if run_start is not None:
                    add("raw", run_start, index)
                    run_start = None
            elif run_start is None:
                run_start = index
        if run_start is not None:
            add("raw", run_start, last)

    covered = doc.body_start_line
    for tokens in chain((doc.tokens,), doc.more_tokens):
        i = 0
        n = len(tokens)
        while i < n:
            token = tokens[i]
            if token.level != 0 or token.nesting == -1 or token.map is None:
                i += 1
                continue
            first, last = token.map
            if token.nesting != 1:
                close = i
            elif i + 2 < n and tokens[i + 2].nesting == -1 and tokens[i + 1].nesting == 0:
                close = i + 2  # paragraph, heading: open, inline, close
            else:
                close = _matching_close(tokens, i)
            kind = _KIND_OF_TOKEN.get(token.type, "raw")
            first = max(first, covered)
            last = min(max(last, first), nlines)
            if first >= last:
                i = close + 1
                continue
            if first > covered:
                add_raw(covered, first)
            if close <= i + 1 or (close == i + 2 and tokens[i + 1].type == "inline"):
                inner, joints = _NOTHING_INSIDE
            else:
                inner, joints = _inner(tokens, i, close, kind, starts)
            if kind == "heading":
                raw = tokens[i + 1].content if i + 1 < n and tokens[i + 1].type == "inline" else ""
                add(kind, first, last, level=int(token.tag[1:]), title=heading_text(raw), inner=inner)
            elif kind == "code" and token.type == "fence":
                add(
                    kind,
                    first,
                    last,
                    inner=inner,
                    joints=joints,
                    fence=_fence_info(token, text, starts, first, last, doc),
                )
            else:
                add(kind, first, last, inner=inner, joints=joints)
            covered = last
            i = close + 1
    if covered < nlines:
        add_raw(covered, nlines)
    return tuple(blocks)


def _matching_close(tokens: Sequence[Token], index: int) -> int:
    if tokens[index].nesting != 1:
        return index
    depth = 0
    for j in range(index, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _inner(
    tokens: Sequence[Token], open_index: int, close_index: int, kind: BlockKind, starts: Sequence[int]
) -> tuple[frozenset[str], tuple[int, ...]]:
    """Kinds nested in a block, and its joints: offsets where it may be split when oversize."""
    inner: set[str] = set()
    joints: list[int] = []
    in_body = False
    for j in range(open_index + 1, close_index):
        token = tokens[j]
        nested = _INNER_KIND.get(token.type)
        if nested is not None:
            inner.add(nested)
        if token.type == "tbody_open":
            in_body = True
        if token.map is None:
            continue
        if (kind == "list" and token.type == "list_item_open" and token.level == 1) or (
            kind == "table" and in_body and token.type == "tr_open"
        ):
            joints.append(starts[token.map[0]])
    return frozenset(inner), tuple(joints)


def _fence_info(
    token: Token, text: str, starts: Sequence[int], first: int, last: int, doc: ParsedDocument
) -> tuple[str, str]:
    """(opening line, closing line) of a fenced code block; closing is "" when never closed."""
    opening = text[starts[first] : doc.line_end(first)]
    if last - first < 2:
        return opening, ""
    closing = text[starts[last - 1] : doc.line_end(last - 1)].strip()
    marker = token.markup
    if closing.startswith(marker) and set(closing) == {marker[0]}:
        return opening, closing
    return opening, ""
