"""Pieces the rendering check (:mod:`chunker.rendering`) need not parse: those that render as their
source slice by construction (cut where a cut cannot change what a line is), and pieces cut like text.
Each rule says why it holds and what it saves."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from chunker.models import Block, Chunk

__all__ = ["by_construction", "cut_like_text", "opens_no_block", "unclosed_comment"]


def by_construction(source: str, chunk: Chunk, own: Sequence[Block]) -> bool:
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
    headerless = not any(a.position == "before" for a in chunk.added_lines)
    if headerless and first.kind == "table" and start > first.start_offset and _is_joint(first, start):
        # rows of a table whose header is too long to repeat (nothing added before them, at most a
        # fence closed after): they parse as other blocks without it, and so may what follows
        # them; its table-header warning says so
        return True
    if chunk.added_lines:
        return _table_rows(source, chunk, first, last)
    if start > first.start_offset:
        if first.kind == "paragraph":
            safe = opens_no_block(chunk.content_original)
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


def opens_no_block(text: str) -> bool:
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


def cut_like_text(source: str, chunk: Chunk, own: Sequence[Block]) -> bool:
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
