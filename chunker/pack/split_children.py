"""A piece of a container between two of its joints that is still over budget, cut by what its
inner block is: a list (at its items), an HTML or JSX block (one overflow piece), fenced code (between
its lines), a nested container or a table (before the blocks or rows nested in it), else text (at
sentences). Each later piece re-opens the containers it starts in (:mod:`chunker.pack.reopen`)."""

from __future__ import annotations

import re

from chunker.models import Block
from chunker.pack.budget import SectionSpace
from chunker.pack.split_items import split_item
from chunker.pack.split_text import emit_cuts, split_text
from chunker.pack.strength import CODE_LINE, JOINT, Strength, Unit
from chunker.policy import gated

_LIST_CHILD = re.compile(r"[ ]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
"""A container's inner block that is a list: cut between its items before inside them."""


def cut_piece(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
    reserve: int,
    glue: bool,
) -> None:
    """The piece [start, end) of ``block`` between two of its joints: one unit, or cut further."""
    if space.span(start, end) + reserve <= space.budget:
        out.append(Unit(start=start, end=end, block=block, strength=strength, glue=glue, first=first, last=last))
    elif block.kind == "list" or _LIST_CHILD.match(space.source, start, end) or _list_child(space, block, start):
        split_item(space, out, block, start, end, strength, first, last)
    elif block.kind == "container" and _html_child(space, block, start):
        _overflow_child(space, out, block, start, end, strength, first, last)
    elif block.kind == "container" and _fenced_child(space, block, start):
        _split_code_child(space, out, block, start, end, strength, first, last)
    elif block.kind == "container" and (
        block.frame is None or space.lines.container_at(block, start) or _table_child(space, block, start)
    ):
        split_nested(space, out, block, start, end, strength, first, last)
    else:
        split_text(space, out, block, start, end, strength, first, last)


def _html_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is an HTML or JSX block."""
    return space.lines.on_lines(space.lines.html_lines(block), start, block)


def _table_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is a table: cut between its rows
    (each piece re-opens the container and the table's header), not like text."""
    return space.lines.on_lines(space.lines.table_lines(block), start, block)


def _list_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is a list, by the block's
    structure: inside an admonition or content tab its items are indented by the body's 4 columns,
    past what :data:`_LIST_CHILD` takes (cut like text, its items were cut at sentences, its code at
    words)."""
    if block.kind != "container":
        return False
    return space.lines.on_lines(space.lines.item_lines(block), start, block)


def split_nested(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
) -> None:
    """A container nested in a container (an admonition in a content tab, a ``::: code-group`` in a
    ``:::: details``; or a quote holding code), over budget: before the blocks nested in it, then
    between the lines of its code; each piece re-opens the containers it starts in
    (:mod:`chunker.pack.reopen`). Cut like text, a piece started inside its title line or a line of
    its code."""
    cuts: list[tuple[int, Strength]] = [(start, strength)]
    src, definitions = space.source, block.kind == "container" and block.frame is None
    for offset, code, blank_before in space.lines.inner_starts(block, start, end):
        if definitions and not code:  # a definition's piece starts at its line's text, which its re-opened
            while src[offset] in " \t":  # marker's spaces indent (4 more columns made it indented code)
                offset += 1
        cuts.append((offset, (JOINT if blank_before else CODE_LINE) if code else JOINT))
    emit_cuts(space, out, block, cuts, end, first, last)


def _fenced_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is fenced code."""
    return space.lines.on_lines(space.lines.fence_lines(block), start, block)


def _split_code_child(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
) -> None:
    """Fenced code inside a container (a VitePress ``::: code-group``), over budget: between its
    lines, as outside a container; each later piece re-opens the container's title and the fence
    (declared added text, :mod:`chunker.pack.reopen`). Cut like text, a piece ended inside a line
    and its re-opened fence no longer matched the source."""
    src = space.source
    cuts: list[tuple[int, Strength]] = [(start, strength)]
    line_start = src.find("\n", start, end) + 1
    body_start = line_start
    while 0 < line_start < end:
        next_break = src.find("\n", line_start, end)
        line_end = end if next_break == -1 else next_break
        text = src[line_start:line_end]
        if line_start > body_start and text.strip() and (next_break != -1 or not _closes_fence(text)):
            blank_before = not src[src.rfind("\n", 0, line_start - 1) + 1 : line_start - 1].strip()
            cuts.append((line_start, JOINT if blank_before else CODE_LINE))
        line_start = next_break + 1 if next_break != -1 else end
    emit_cuts(space, out, block, cuts, end, first, last)


def _closes_fence(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 3 and stripped[0] in "`~" and stripped == stripped[0] * len(stripped)


def _overflow_child(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
) -> None:
    """An HTML or JSX block inside a container, over budget: one overflow piece, as such a block is
    outside one. Cut like text (at a blank line inside a JSX element's template literal, say), no
    piece of it would render as the element."""
    out.append(Unit(start=start, end=end, block=block, strength=strength, first=first, last=last))
    line = space.lines.line_at(start, block)
    size = space.span(start, end)
    space.notes.append(
        gated(
            "overflow",
            f"html block at line {line} inside the container at line {block.start_line} "
            f"{space.too_large(size if space.chars_mode else end - start, size)} and is kept "
            "whole as an overflow chunk",
            line=line,
        )
    )
