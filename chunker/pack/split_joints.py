"""Oversize tables, containers and lists, split at their joints (body rows, inner blocks, list items).

A table's header (a container's title line) sticks to its first piece and is repeated before every
other piece; a list item still over budget is cut inside it like paragraphs.
"""

from __future__ import annotations

import re

from chunker.fences import fence_after, has_fence_marker
from chunker.models import Block, Diagnostic
from chunker.pack.budget import SectionSpace, repeated_after
from chunker.pack.split_text import emit_cuts, split_text
from chunker.pack.strength import CODE_LINE, JOINT, NESTED_ITEM, SENTENCE, Strength, Unit
from chunker.policy import gated

_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)
"""A list item marker at the start of a line's text."""


def split_table(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """Between rows only, never inside a cell or a word; every piece repeats the header (without
    it a piece is no table), unless the header is too long to repeat (a ``table-header`` warning,
    :mod:`chunker.pack.tables`). A row that does not fit with the header is one overflow piece."""
    if not block.joints:
        _overflow_row(space, out, block, block.start_offset, block.end_offset, strength, True, True)
        return
    cuts = [block.start_offset, *block.joints]
    bounds = [*cuts, block.end_offset + 1]
    header = space.added_before(block)
    if not space.table_header(block):
        space.notes.append(
            Diagnostic(
                "warning",
                "table-header",
                f"the header of the table at line {block.start_line} is over half of max_chars "
                f"({space.cfg.max_chars}) and is not repeated: its pieces after the first hold its rows alone",
                line=block.start_line,
            )
        )
    for k in range(len(cuts)):
        start, end = bounds[k], bounds[k + 1] - 1
        first, last = k == 0, k == len(cuts) - 1
        piece_strength = strength if first else JOINT
        if space.span(start, end) + (0 if first else header) > space.budget:
            _overflow_row(space, out, block, start, end, piece_strength, first, last)
        else:
            out.append(
                Unit(start=start, end=end, block=block, strength=piece_strength, glue=first, first=first, last=last)
            )


def _overflow_row(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
) -> None:
    out.append(Unit(start=start, end=end, block=block, strength=strength, glue=first, first=first, last=last))
    line = space.line_at(start, block)
    header = " with the table's header" if space.table_header(block) else ""
    space.notes.append(
        gated(
            "overflow",
            f"table row at line {line} ({space.span(start, end)} characters without padding) does not fit in "
            f"max_chars ({space.cfg.max_chars}){header} and is kept whole as an overflow chunk",
            line=line,
        )
    )


def split_container(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """An admonition, ``:::`` container or ``<details>`` over budget: between its inner blocks, the
    title line sticking to the first; every other piece repeats the title line (and the closing
    line), declared as added text, so that it renders as the container."""
    if block.joints:
        glue = _titled(space, block)
        split_at(space, out, block, [block.start_offset, *block.joints], strength, JOINT, glue_first=glue)
    elif block.frame is None:
        _split_nested(space, out, block, block.start_offset, block.end_offset, strength, True, True)
    else:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True)


def _titled(space: SectionSpace, block: Block) -> bool:
    """Whether the first piece of a container cut at its joints is its title line (an admonition's,
    a ``:::`` line), which sticks to what follows: not a definition list's first term and
    definition, nor a footnote's label line holding its first paragraph (content of their own:
    glued, the headings above took the second piece along, an overflow chunk where a cut before
    the second term fitted)."""
    if block.frame is None:
        return False
    label = block.frame[0]
    return not (label.startswith("[^") and space.source[block.start_offset : block.joints[0]].strip() != label)


_DEFINITION = re.compile(r"^[ ]{0,3}\[(?:[^\]\\\n]|\\.)++\]:", re.MULTILINE)
"""The start of a link reference definition (``[label]:``; its URL may be on the next line)."""


def split_raw(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """Lines the parser made no block of (link reference definitions, mostly): between
    definitions, never between a label and its URL; other text like a paragraph."""
    text = block.content
    cuts = [block.start_offset + m.start() for m in _DEFINITION.finditer(text) if m.start()]
    if not _DEFINITION.match(text) or not cuts:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True, force=True)
        return
    split_at(space, out, block, [block.start_offset, *cuts], strength, JOINT)


def split_list(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    if block.joints:
        split_at(space, out, block, [block.start_offset, *block.joints], strength, JOINT)
    else:
        split_item(space, out, block, block.start_offset, block.end_offset, strength, True, True)


_LIST_CHILD = re.compile(r"[ ]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
"""A container's inner block that is a list: cut between its items before inside them."""


def split_at(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    cuts: list[int],
    strength: Strength,
    joint: Strength,
    glue_first: bool = False,
) -> None:
    """Pieces between the ``cuts`` (offsets in ``block``); one over budget is cut further."""
    bounds = [*cuts, block.end_offset + 1]
    for k in range(len(cuts)):
        start, end = bounds[k], bounds[k + 1] - 1
        piece_strength = strength if k == 0 else joint
        first, last = k == 0, k == len(cuts) - 1
        reserve = space.added_at(block, start) + (len(repeated_after(block)) + 4 if not last else 0)
        n0 = len(out)
        _piece(space, out, block, start, end, piece_strength, first, last, reserve, glue_first and first)
        if glue_first and k == 1 and out[n0 - 1].glue:
            _after_lead(space, out, n0, block, start, reserve)


def _piece(
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
    elif block.kind == "container" and (block.frame is None or space.container_at(block, start)):
        _split_nested(space, out, block, start, end, strength, first, last)
    else:
        split_text(space, out, block, start, end, strength, first, last)


def _after_lead(space: SectionSpace, out: list[Unit], n0: int, block: Block, start: int, reserve: int) -> None:
    """The first unit of the inner block after a container's title (``out[n0 - 1]``, glued to what
    follows it) cut again where it does not fit after the title itself: the pieces are sized for the
    title their later pieces repeat, which is shortened when long (:mod:`chunker.pack.titles`). Where
    not even a sentence fits after the title, the title is a piece of its own."""
    frame = block.frame
    if frame is None or n0 >= len(out) or space.added_before(block) >= space.measure(frame[0]):
        return  # the title is repeated whole: the pieces are sized for it
    lead, title = out[n0 - 1], space.added_at(block, start)
    extra = space.span(lead.start, start) - title
    unit = out[n0]
    if space.span(lead.start, unit.end) + reserve - title <= space.budget:
        return
    pieces: list[Unit] = []
    split_text(space, pieces, block, unit.start, unit.end, unit.strength, unit.first, unit.last, reserve=extra)
    if len(pieces) > 1 and pieces[1].strength < SENTENCE:
        lead.glue = False  # not even a sentence fits after the title: it is a piece of its own
        return
    rest: list[Unit] = []
    if len(pieces) > 1:
        split_text(space, rest, block, pieces[1].start, unit.end, pieces[1].strength, False, unit.last)
    out[n0 : n0 + 1] = [pieces[0], *rest]


def _html_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is an HTML or JSX block."""
    lines = space.html_lines(block)
    return lines is not None and space.line_at(start, block) - block.start_line in lines


def _list_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is a list, by the block's
    structure: inside an admonition or content tab its items are indented by the body's 4 columns,
    past what :data:`_LIST_CHILD` takes (cut like text, its items were cut at sentences, its code at
    words)."""
    if block.kind != "container":
        return False
    lines = space.item_lines(block)
    return lines is not None and space.line_at(start, block) - block.start_line in lines


def split_quote(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """A block quote over budget: one holding code is cut before the blocks nested in it, then between
    the lines of its code (cut like text, a piece ended inside a line of its code); any other like a
    paragraph, at sentences."""
    if "code" in block.inner:
        _split_nested(space, out, block, block.start_offset, block.end_offset, strength, True, True)
    else:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True, force=True)


def _split_nested(
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
    for offset, code, blank_before in space.inner_starts(block, start, end):
        if definitions and not code:  # a definition's piece starts at its line's text, which its re-opened
            while src[offset] in " \t":  # marker's spaces indent (4 more columns made it indented code)
                offset += 1
        cuts.append((offset, (JOINT if blank_before else CODE_LINE) if code else JOINT))
    emit_cuts(space, out, block, cuts, end, first, last)


def _fenced_child(space: SectionSpace, block: Block, start: int) -> bool:
    """Whether the inner block of a container starting at ``start`` is fenced code."""
    lines = space.fence_lines(block)
    return lines is not None and space.line_at(start, block) - block.start_line in lines


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
    line = space.line_at(start, block)
    space.notes.append(
        gated(
            "overflow",
            f"html block at line {line} inside the container at line {block.start_line} "
            f"({space.span(start, end)} chars) is larger than max_chars ({space.cfg.max_chars}) and is kept "
            "whole as an overflow chunk",
            line=line,
        )
    )


def split_item(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
) -> None:
    """One list item over budget, cut like paragraphs inside it: at its nested items and blank
    lines (a piece starts at the line's text, so it renders as a list or a paragraph, never as
    indented code), then at sentences, words, hard cuts."""
    src = space.source
    cuts: list[tuple[int, Strength]] = [(start, strength)]
    fenced = "code" in block.inner and has_fence_marker(src[start:end])
    opened = space.nested_fence(block, start) if fenced else None
    items: _ItemLines | None = None
    tagged = "code" in block.inner and (src.find("{%", start, end) != -1 or src.find("{{", start, end) != -1)
    tag_lines = space.tag_code_lines(block) if tagged else frozenset()  # template code: cut between its lines
    # a list inside an admonition or tab is indented by its body's columns: its items' depth counts from there
    indent = _indent(src, start) if block.kind == "container" else 0
    pos = src.find("\n", start, end)
    while pos != -1:
        line_start = pos + 1
        text_start = line_start
        while text_start < end and src[text_start] in " \t":
            text_start += 1
        after_blank = src[pos - 1 : pos] == "\n" or not src[src.rfind("\n", 0, pos) + 1 : pos].strip()
        if tag_lines and space.line_at(line_start, block) - block.start_line in tag_lines:
            if text_start < end and src[text_start] != "\n":
                cuts.append((line_start, JOINT if after_blank else CODE_LINE))
            pos = src.find("\n", line_start, end)
            continue
        if fenced:
            before = opened
            line_end = src.find("\n", line_start, end)
            opened = fence_after(src[line_start : end if line_end == -1 else line_end], opened)
            if before is not None:  # inside a nested code fence: only weak cuts between its lines
                if opened is not None and text_start < end and src[text_start] != "\n":
                    cuts.append((line_start, CODE_LINE))
                pos = src.find("\n", line_start, end)
                continue
        if text_start < end and src[text_start] != "\n":
            if _LIST_MARKER.match(src, text_start):
                items = items or _ItemLines(space, block, start)
                if after_blank or items.starts_item(line_start):
                    cuts.append((text_start, NESTED_ITEM if text_start - line_start - indent < 4 else CODE_LINE))
            elif after_blank or (src[text_start] in _TITLE_STARTS and space.container_at(block, line_start)):
                cuts.append((text_start, SENTENCE))  # a paragraph, or an admonition right after code
        pos = src.find("\n", line_start, end)
    emit_cuts(space, out, block, cuts, end, first, last)


_TITLE_STARTS = frozenset("!?=:/")
"""First characters of a nested container's title line (``!!!``, ``???``, ``===``, ``:::``, ``///``)."""


def _indent(src: str, offset: int) -> int:
    """Columns of whitespace at the start of the line of ``offset`` (a tab as one)."""
    line_start = src.rfind("\n", 0, offset) + 1
    text_start = line_start
    while text_start < len(src) and src[text_start] in " \t":
        text_start += 1
    return text_start - line_start


class _ItemLines:
    """Whether a line of a list that looks like an item's first line is one in the source: a line
    ``1) ...`` or ``- ...`` continuing a paragraph (an ordered item not numbered 1 cannot
    interrupt a paragraph; nor can any marker indented four columns past the item's content) is
    text, and a piece starting there would render as a new list item."""

    def __init__(self, space: SectionSpace, block: Block, start: int) -> None:
        self.lines = space.item_lines(block)
        self.src = space.source
        self.offset, self.line = start, space.line_at(start, block) - block.start_line

    def starts_item(self, line_start: int) -> bool:
        """Whether the line starting at ``line_start`` (after the previous call's) opens an item;
        without the block's structure, whether it looks like one."""
        if self.lines is None:
            return True
        self.line += self.src.count("\n", self.offset, line_start)
        self.offset = line_start
        return self.line in self.lines
