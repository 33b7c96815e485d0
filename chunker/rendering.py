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
block (see :func:`_by_construction`); nor a piece whose lines all render as nothing in the source
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
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence

from chunker.config import ChunkerConfig
from chunker.models import Block, Chunk, Diagnostic
from chunker.outline import LineToken
from chunker.policy import gated

__all__ = ["MAX_CHECKED_CHARS", "check_rendering", "is_piece", "unclosed_comment"]

MAX_CHECKED_CHARS = 1 << 20
"""A source block (or a chunk) longer than this is not parsed again for the check."""

Shape = tuple[tuple[str, ...], int]
"""(types of the block tokens a line lies in, outermost first; line where the innermost starts)."""


def is_piece(chunk: Chunk, blocks: dict[str, Block]) -> bool:
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
) -> Iterator[Diagnostic]:
    """A ``rendering-changed`` finding per piece whose parse differs from its source's. The source
    side is the document's own tokens: the ones the packer read (``parsed``, by block start
    offset), a block's outline (:mod:`chunker.outline`), or a paragraph's, code block's or split
    table's own shape; only a block with none of these (no outline: the pulldown-cmark path, raw
    lines, a table without body rows) is parsed again, by :func:`chunker.parse.pulldown_outline.block_parse`."""
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
        if _cut_like_text(source, chunk, own) or _by_construction(source, chunk, own):
            continue
        if parse is None:
            from chunker.parse.pulldown_outline import block_parse

            parse = block_parse(cfg)
        expected: dict[int, Shape] = {}
        deepest = 0
        for block in own:
            if block.id not in memo:
                tokens = (parsed or {}).get(block.start_offset)
                if tokens is None and block.outline is not None:
                    tokens = block.outline.tokens()
                block_shapes = _source_shapes(source, block, tokens, parse)
                memo[block.id] = block_shapes, max((len(path) for path, _ in block_shapes.values()), default=0)
            block_shapes, depth = memo[block.id]
            expected.update(block_shapes)
            deepest = max(deepest, depth)
        if deepest >= cfg.max_nesting - 1:
            continue  # past the nesting limit the parser stops nesting: its text is kept as it is
        if not any(expected.get(line, _NOTHING)[0] for line in range(chunk.start_line, chunk.end_line + 1)):
            continue  # every line renders as nothing in the source (link definitions): none is compared
        before = "".join(a.text for a in chunk.added_lines if a.position == "before")
        actual = shapes(parse(chunk.content_original), chunk.start_line - before.count("\n"))
        difference = _first_difference(source, chunk, expected, actual)
        if difference is not None:
            yield gated("rendering-changed", difference, chunk.start_line, chunk.chunk_id)


def _source_shapes(
    source: str, block: Block, tokens: Sequence[LineToken] | None, parse: Callable[[str], Sequence[LineToken]]
) -> dict[int, Shape]:
    """Shapes of the block's lines: a paragraph or a code block is one leaf (no parse needed)."""
    leaf = _LEAVES.get(block.kind if block.kind != "code" or block.fence is None else "fence")
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
_LEAVES = {"paragraph": "paragraph", "fence": "fence", "code": "code_block"}


def _by_construction(source: str, chunk: Chunk, own: Sequence[Block]) -> bool:
    """Whether the piece adds nothing (or only a table's header, see :func:`_table_rows`) and cuts
    its blocks only where the cut cannot change them:

    - at an item of a top-level list (one of the list's joints): an item ends where the next one's
      marker begins and its lines keep their columns from its own marker, so the items before or
      after the cut parse alone as the same items;
    - inside a top-level paragraph, starting with a letter: a paragraph's lines are paragraph text
      in the source, so none of them opens a block that may interrupt a paragraph (that would have
      ended it), nor is a setext underline (it would be a heading); a piece of them parses as
      paragraph text again, except its first line, which starts a block of its own: starting with
      a letter, it can open no block but a paragraph; nor starting with digits not followed by
      ``.`` or ``)`` and a space (no list marker), a single backtick or tilde (no fence), or one
      of :data:`_SAFE_STARTS` (:func:`_opens_no_block`);
    - inside a top-level indented code block, at the start of a line indented by four columns or
      more: at the top level such a line can only open an indented code block, which runs on as
      the source's did (its lines are indented or blank, and it ends at the same line, where the
      source's ended: a code block is a leaf, so what follows it parses as it did in the source).
      A piece that ends inside one keeps its lines indented, so they stay code.

    - at the end, at a body row of a top-level table (``_JOINTED``), as at an item of a list;
    - a piece of one top-level fenced code block alone (:func:`_fenced_code`).

    Over the shared corpus this leaves 2,235 of the 8,110 pieces to parse (2,885 without the last
    two rules and the skip of pieces whose lines all render as nothing in the source: the check's
    CPU over the corpus 0.75-0.82 -> 0.47-0.63 s, alternating processes at load 4); the rest cannot
    differ from their source.
    """
    first, last = own[0], own[-1]
    start, end = chunk.start_offset, chunk.end_offset
    if first is last and first.kind == "code" and first.fence is not None and _MARKDOWN_FENCE.match(first.fence[0]):
        return _fenced_code(source, chunk, first)
    if chunk.added_lines:
        return _table_rows(source, chunk, first, last)
    if first.kind == "table" and start > first.start_offset and _is_joint(first, start):
        # rows of a table whose header is too long to repeat (no added text): they parse as other
        # blocks without it, and so may what follows them; its table-header warning says so
        return True
    if start > first.start_offset:
        if first.kind == "paragraph":
            safe = _opens_no_block(chunk.content_original)
        elif first.kind == "code" and first.fence is None:
            safe = _indented_code_line(source, start) and _indented_code_line(source, first.start_offset)
        else:
            safe = first.kind == "list" and _is_joint(first, start)
        if not safe:
            return False
    if end < last.end_offset and last.kind != "paragraph" and (last.kind != "code" or last.fence is not None):
        after = end
        while after < last.end_offset and source[after].isspace():
            after += 1
        return last.kind in _JOINTED and _is_joint(last, after)
    return True


_JOINTED = ("list", "table")
"""Kinds whose pieces end by construction at a joint: an item of a top-level list, a body row of a
top-level table (the rows before it parse as the same rows: a table ends at any line, and the
header and the delimiter row before them are there)."""


_MARKDOWN_FENCE = re.compile(r"[ ]{0,3}(?:```|~~~)")
"""An opening line of a backtick or tilde fence (not code written as template tags, whose pieces are
parsed: :mod:`chunker.parse.templates`)."""


def _fenced_code(source: str, chunk: Chunk, block: Block) -> bool:
    """Whether a piece of one top-level fenced code block (and nothing else) is equivalent by
    construction: it starts at the block's opening line, or at a line of its code after that line
    repeated (its only text added before) and with no fence run at its start; then every source
    line of the piece is code in both parses. The lines of a fence's code cannot close it in the
    piece when they did not in the source (the same opening line judges them), nor can the text
    after them (a closing line the packer adds) change them; a last line cut short that closes
    the fence is part of it too. Over the shared corpus 376 of the 2,885 pieces parsed before
    were such pieces (a tenth of the check's parse time: 0.04 s)."""
    before = [a.text for a in chunk.added_lines if a.position == "before"]
    if chunk.start_offset <= block.start_offset:
        return not before
    assert block.fence is not None
    if before != [block.fence[0] + "\n"]:
        return False
    return not source.startswith(("```", "~~~"), _past_blanks(source, chunk.start_offset))


def _past_blanks(source: str, offset: int) -> int:
    while offset < len(source) and source[offset] in " \t":
        offset += 1
    return offset


def _table_rows(source: str, chunk: Chunk, first: Block, last: Block) -> bool:
    """Whether the piece is body rows of one table after its repeated header, cut between rows: a
    row of a table parses as the same row whatever rows come before it (cells are counted against
    the header)."""
    added = chunk.added_lines
    if first is not last or first.kind != "table" or not first.joints or len(added) != 1:
        return False
    from chunker.pack.tables import header_of  # chunker.pack imports this module

    header = header_of(first, source)
    if added[0].position != "before" or added[0].text != header or not _is_joint(first, chunk.start_offset):
        return False
    after = chunk.end_offset
    while after < last.end_offset and source[after].isspace():
        after += 1
    return after >= last.end_offset or _is_joint(last, after)


def _is_joint(block: Block, offset: int) -> bool:
    k = bisect_left(block.joints, offset)
    return k < len(block.joints) and block.joints[k] == offset


_SAFE_STARTS = frozenset("(\"'„“«¿¡§")


def _opens_no_block(text: str) -> bool:
    """Whether a line starting with ``text`` (not indented) can open no block but a paragraph:
    its first characters open none, and the next line does not make the first one the start of
    another block: a definition list's term (``: text`` or ``~ text`` under it, or after one blank
    line), a heading (a setext underline under it or a later line of its paragraph) or a table's
    header (a delimiter row). Inside a paragraph of the source none of these can follow (each
    would have ended the paragraph or made it a heading), but a piece may start at the
    paragraph's last line with a definition after the blank line below it."""
    return _first_opens_no_block(text) and not _second_line_opens(text)


def _second_line_opens(text: str) -> bool:
    """Whether the lines after the first of ``text`` may turn it into another block's start."""
    end = text.find("\n")
    if end == -1:
        return False
    stop = text.find("\n", end + 1)
    line = text[end + 1 :] if stop == -1 else text[end + 1 : stop]
    body = line.strip(" \t")
    if not body and stop != -1:  # a definition may follow its term after one blank line
        after = text.find("\n", stop + 1)
        definition = text[stop + 1 :] if after == -1 else text[stop + 1 : after]
    else:
        definition = line
    if _is_definition(definition):
        return True  # mdit-py-plugins' deflist: the first line is a term
    if len(line) - len(line.lstrip(" \t")) >= 4 or not body:
        return False
    if "|" in text[:end] and "-" in body and not body.strip("|:- \t"):
        return True  # a table's delimiter row
    blank = _BLANK_LINE.search(text)
    return _UNDERLINE.search(text, 0, blank.start() if blank else len(text)) is not None


def _is_definition(line: str) -> bool:
    body = line.lstrip(" \t")
    return body[:1] in (":", "~") and body[1:2] in (" ", "\t") and bool(body[2:].strip(" \t"))


_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|$)")
_UNDERLINE = re.compile(r"\n {0,3}(?:=+|-+)[ \t]*(?:\n|$)")
"""A setext underline: under the lines before it (in one paragraph) it makes them a heading."""


def _first_opens_no_block(text: str) -> bool:
    head = text[:1]
    if head.isalpha() or head in _SAFE_STARTS:
        return True
    if head in "`~":
        return text[1:2] != head
    if not head.isdigit() or not head.isascii():
        return False
    k = 1
    while k < len(text) and text[k].isdigit() and text[k].isascii():
        k += 1
    return text[k : k + 1] not in (".", ")") or text[k + 1 : k + 2] not in ("", " ", "\t", "\n")


def _indented_code_line(source: str, offset: int) -> bool:
    """Whether ``offset`` starts a line that is indented by four columns or more and not blank."""
    if offset > 0 and source[offset - 1] != "\n":
        return False
    end = source.find("\n", offset)
    line = source[offset : len(source) if end == -1 else end]
    column = 0
    for char in line:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
        if column >= 4:
            break
    return column >= 4 and not line.isspace()


def _cut_like_text(source: str, chunk: Chunk, own: Sequence[Block]) -> bool:
    """Whether the chunk cuts a heading or an HTML comment that the source never closes: one over
    max_chars is cut like text (the packer warns), and no piece of it can render as the whole
    block. Other HTML blocks are cut only at line starts, their pieces re-opening the block's
    opening tags (:mod:`chunker.pack.split_html`): checked like any piece."""
    first, last = own[0], own[-1]
    return (chunk.start_offset > first.start_offset and _text_cut(source, first)) or (
        chunk.end_offset < last.end_offset and _text_cut(source, last)
    )


def _text_cut(source: str, block: Block) -> bool:
    return block.kind == "heading" or (block.kind == "html" and unclosed_comment(source, block))


def unclosed_comment(source: str, block: Block) -> bool:
    """Whether an HTML block is a comment that the source never closes: CommonMark lets it run
    to the end of the document, which would make the rest of it one chunk."""
    start = block.start_offset
    while start < block.end_offset and source[start] in " \t":
        start += 1
    return source.startswith("<!--", start) and source.find("-->", start + 4, block.end_offset) < 0


def shapes(tokens: Sequence[LineToken], first_line: int) -> dict[int, Shape]:
    """The shape of every line the tokens cover, by 1-based line (the tokens' line 0 is ``first_line``)."""
    out: dict[int, Shape] = {}
    stack: list[str] = []
    term = -1  # line of the last definition term: deflist maps a term [a, a] and its definition from a
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
        if kind == "dt" and start == end:
            term, end = start, start + 1
        elif kind == "dd" and start == term:
            start += 1
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
