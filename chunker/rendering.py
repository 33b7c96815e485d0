"""Rendering equivalence: a piece renders as what it was in the source.

A chunk's ``content_original`` (what a consumer displays; ``content_for_embedding`` is it after the
context line, with table padding collapsed) is parsed with the chunker's block parser, and so is
each source block it overlaps. Every non-blank source line of the chunk must have the same *shape*
in both parses: the block tokens it lies in, outermost first (list items, quotes, admonitions,
containers, and the leaf: paragraph, heading, fenced or indented code, table row, HTML, math), and
the line where that leaf starts, clipped to the chunk's first line, so that a fence opens and
closes on the same lines in both. It is mdformat's equivalence check (same HTML before and after)
narrowed to block structure, per line, which is what a cut can break.

Only pieces are checked: a chunk whose first or last block is cut, or that carries added text,
unless it only cuts between the items of a list or the rows of a table, inside a paragraph at a
start that opens no block, inside indented code at a line start, or is a piece of one fenced code
block (see :func:`chunker.rendering_rules.by_construction`); nor a piece whose lines all render as nothing in the source
(link reference definitions: no line of it is compared). A chunk
of whole top-level blocks is equivalent by construction: top-level blocks end where the
parser ended them, and a run of them parses alone as it does in the document. With the default
options that skips 72 % of the chunks of the shared corpus (21,156 of 29,266 are whole blocks) and
81 % of the doc set's, and of the pieces, those equivalent by construction are skipped too (5,875 of
the corpus's 8,110 are, 2,235 parsed; checking all of them flags the same chunks, at the default and at
max_chars 1500, 600 and 300, corpus and doc set, but for the table rows whose header is too long to
repeat: their table-header warning declares them). On the markdown-it-py path the source side is
not parsed again (the blocks' outlines);
on the pulldown-cmark path a block without an outline, and every piece, is parsed by pulldown-cmark
(:mod:`chunker.parse.pulldown_outline`: markdown-it-py's tokens, made from pulldown-cmark's events).
The check then takes 6.7 % of the library's CPU time over the whole shared corpus and 4.3 % on the 73 laws of de-gesetze
(7.3 % and 5.0 % on the pulldown-cmark path), measured inside the same process; before the outlines
and the code and numbered-line rules 8.2 % and 8.0 % (bench/E2E.md "Rendering check and re-opening
without a second parse"), so under 10 % of a run. Not checked either: pieces of headings and of
never closed HTML comments (cut like text when over max_chars, so no piece can render as the
block), structure past the
nesting limit, link reference definitions (they render as nothing), and blocks or pieces over
:data:`MAX_CHECKED_CHARS` (their token lists would cost memory in proportion).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise

from chunker.config import ChunkerConfig
from chunker.models import Block, Chunk, Diagnostic
from chunker.outline import LineToken
from chunker.policy import gated
from chunker.rendering_rules import by_construction, cut_like_text

__all__ = ["MAX_CHECKED_CHARS", "check_rendering", "is_piece", "shapes"]

MAX_CHECKED_CHARS = 1 << 20
"""A source block (or a chunk) longer than this is not parsed again for the check."""

Shape = tuple[tuple[str, ...], int]
"""(types of the block tokens a line lies in, outermost first; line where the innermost starts)."""


def is_piece(chunk: Chunk, blocks: Mapping[str, Block]) -> bool:
    """Whether ``chunk`` carries added text or cuts its first or last block."""
    if chunk.added_lines:
        return True
    if not chunk.block_ids:
        return False
    first, last = blocks.get(chunk.block_ids[0]), blocks.get(chunk.block_ids[-1])
    if first is None or last is None:
        return False
    return chunk.start_offset > first.start_offset or chunk.end_offset < last.end_offset


def check_rendering(
    source: str,
    blocks: Sequence[Block],
    chunks: Sequence[Chunk],
    cfg: ChunkerConfig,
    parsed: Mapping[int, Sequence[LineToken]] | None = None,
    by_id: Mapping[str, Block] | None = None,
) -> Iterator[Diagnostic]:
    """A ``rendering-changed`` finding per piece whose parse differs from its source's. The source
    side is the document's own tokens: the ones the packer read (``parsed``, by block start
    offset), a block's outline (:mod:`chunker.outline`), or a paragraph's, code block's or split
    table's own shape; only a block with none of these (no outline: the pulldown-cmark path, raw
    lines, a table without body rows) is parsed again, by :func:`chunker.parse.pulldown_outline.block_parse`.
    ``by_id``: the blocks by id, when the caller has them so."""
    if by_id is None:
        by_id = {b.id: b for b in blocks}
    memo: dict[str, tuple[dict[int, Shape], int]] = {}
    """Shapes of each source block and the deepest nesting among them, by block id."""
    parse: Callable[[str], Sequence[LineToken]] | None = None
    """The parse of a piece, and of a source block without tokens: markdown-it-py's, or on the
    pulldown-cmark path pulldown-cmark's in markdown-it-py's shape (where it can)."""
    for chunk in chunks:
        if not is_piece(chunk, by_id) or len(chunk.content_original) > MAX_CHECKED_CHARS:
            continue
        own = [by_id[i] for i in chunk.block_ids if i in by_id]
        if not own or any(b.end_offset - b.start_offset > MAX_CHECKED_CHARS for b in own):
            continue
        if cut_like_text(source, chunk, own) or by_construction(source, chunk, own):
            continue
        if parse is None:
            from chunker.parse.pulldown_outline import block_parse

            parse = block_parse(cfg, source)
        expected: dict[int, Shape] = {}
        deepest = 0
        lines = range(chunk.start_line, chunk.end_line + 1)
        for block in own:
            if block.id not in memo:
                tokens = (parsed or {}).get(block.start_offset)
                if tokens is None and block.outline is not None:
                    tokens = block.outline.tokens()
                block_shapes = _source_shapes(source, block, tokens, parse)
                memo[block.id] = block_shapes, max((len(path) for path, _ in block_shapes.values()), default=0)
            block_shapes, depth = memo[block.id]
            if len(block_shapes) <= len(lines):
                expected.update(block_shapes)
            else:  # only the chunk's lines are read: a copy of a long block's shapes per piece was quadratic
                expected.update((line, block_shapes[line]) for line in lines if line in block_shapes)
            deepest = max(deepest, depth)
        _joined(source, own, expected)
        if deepest >= cfg.max_nesting - 1:
            continue  # past the nesting limit the parser stops nesting: its text is kept as it is
        if not any(expected.get(line, _NOTHING)[0] for line in range(chunk.start_line, chunk.end_line + 1)):
            continue  # every line renders as nothing in the source (link definitions): none is compared
        before = "".join(a.text for a in chunk.added_lines if a.position == "before")
        actual = shapes(parse(chunk.content_original), chunk.start_line - before.count("\n"))
        difference = _first_difference(source, chunk, expected, actual)
        if difference is not None:
            yield gated("rendering-changed", difference, chunk.start_line, chunk.chunk_id)


_HTML: tuple[str, ...] = ("html_block",)
_CLOSING_LINE = re.compile(r"[ \t]*(?:</(?!(?:script|pre|style|textarea)\b)[A-Za-z][\w.:-]*[ \t]*>[ \t]*)+", re.I)
"""A line of end tags only, none ending a raw HTML block (CommonMark's type 1, which ends at its end tag)."""
_OPENING_LINE = re.compile(r"[ \t]*<[A-Za-z]")


def _joined(source: str, own: Sequence[Block], expected: dict[int, Shape]) -> None:
    """An HTML block ending with a line of end tags and one starting with a start tag on the next line are one
    HTML block when a chunk holds both, as in the parse of the document: the segmenter cuts such a block between
    its closing and its opening lines (:meth:`chunker.block_builder.BlockBuilder.tag_cuts`), each part a block of
    its own. The later part's lines are expected to render as part of the earlier one."""
    for before, block in pairwise(own):
        if before.kind != "html" or block.kind != "html" or block.start_line != before.end_line + 1:
            continue
        last = source.rfind("\n", before.start_offset, before.end_offset) + 1 or before.start_offset
        if not _CLOSING_LINE.fullmatch(source, last, before.end_offset):
            continue
        if not _OPENING_LINE.match(source, block.start_offset):
            continue
        joined = expected.get(before.end_line)
        if joined is None or joined[0] != _HTML:
            continue
        for line in range(block.start_line, block.end_line + 1):
            if expected.get(line) == (_HTML, block.start_line):
                expected[line] = joined


def _source_shapes(
    source: str, block: Block, tokens: Sequence[LineToken] | None, parse: Callable[[str], Sequence[LineToken]]
) -> dict[int, Shape]:
    """Shapes of the block's lines: a paragraph or a code block is one leaf (no parse needed)."""
    leaf = _LEAVES.get(block.kind if block.kind != "code" or block.fence is None else "fence")
    if leaf is not None and _LABEL_LINE.match(source, block.start_offset):
        leaf = None  # a MyST target or attribute line starts the block: a token of its own
    if tokens is None and leaf is not None:
        return dict.fromkeys(range(block.start_line, block.end_line + 1), ((leaf,), block.start_line))
    if tokens is None and block.kind == "table" and block.joints:
        return _table_shapes(block)
    if tokens is None:
        start = source.rfind("\n", 0, block.start_offset) + 1
        tokens = parse(source[start : block.end_offset])
    return shapes(tokens, block.start_line)


def _table_shapes(block: Block) -> dict[int, Shape]:
    """A table's shapes without a parse: the header row, the delimiter row, one row per line."""
    first = block.start_line
    out: dict[int, Shape] = {first: (("table", "thead", "tr"), first), first + 1: (("table",), first)}
    out.update((line, (_BODY_ROW, line)) for line in range(first + 2, block.end_line + 1))
    return out


_BODY_ROW = ("table", "tbody", "tr")
_LABEL_LINE = re.compile(r"[ \t]*(?:\([^\n]*\)=|\{[^\n]*\})[ \t]*(?:\n|$)")
"""A MyST target (``(name)=``) or an attribute line (``{.class}``): the block below it starts with it."""
_LEAVES = {"paragraph": "paragraph", "fence": "fence", "code": "code_block"}


def shapes(tokens: Sequence[LineToken], first_line: int) -> dict[int, Shape]:
    """The shape of every line the tokens cover, by 1-based line (the tokens' line 0 is ``first_line``)."""
    out: dict[int, Shape] = {}
    stack: list[str] = []
    term = -1  # line of the last definition term: deflist maps a term [a, a] and its first definition from the
    # line below it or from the term itself (a later term's, with a blank line between them or not): both are read
    # as starting on the line after the term
    for token in tokens:
        if token.nesting == -1:
            stack.pop()
            continue
        kind = token.type.removesuffix("_open")
        if token.nesting == 1:
            stack.append(kind)
        if token.map is None or kind == "inline":
            continue
        path = tuple(stack) if token.nesting == 1 else (*stack, kind)
        start, end = token.map[0] + first_line, token.map[1] + first_line
        if kind == "dt":
            term, end = start, max(end, start + 1)
        elif kind == "dd" and term >= 0:
            start, term = term + 1, -1
        for line in range(start, end):
            out[line] = (path, start)  # a nested token comes later and overrides its parent
    return out


_NOTHING: Shape = ((), 0)


def _first_difference(source: str, chunk: Chunk, expected: dict[int, Shape], actual: dict[int, Shape]) -> str | None:
    """A message naming the first source line of the chunk whose shape differs, or None."""
    line_start = source.rfind("\n", 0, chunk.start_offset) + 1
    nothing = _NOTHING
    for line in range(chunk.start_line, chunk.end_line + 1):
        line_end = source.find("\n", line_start)
        line_end = len(source) if line_end == -1 else line_end
        text = source[line_start:line_end]
        line_start = line_end + 1
        want, got = expected.get(line, nothing), actual.get(line, nothing)
        if not text.strip(" \t>") or not want[0]:
            continue  # blank (in its quotes), or a link reference definition: it renders as nothing
        if want[0] != got[0] or max(want[1], chunk.start_line) != max(got[1], chunk.start_line):
            return (
                f"line {line} renders as {_describe(got, chunk.start_line)} in the chunk but as "
                f"{_describe(want, chunk.start_line)} in the source: {text.strip()[:60]!r}"
            )
    return None


def _describe(shape: Shape, first: int) -> str:
    path, start = shape
    if not path:
        return "no block"
    return " > ".join(path) + (f" (from line {start})" if start > first else "")
