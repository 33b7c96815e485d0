"""One list item over budget, cut inside it like paragraphs: at its nested items and blank lines,
then at sentences, words, hard cuts (a nested code fence only between its lines, a nested table
between its body rows)."""

from __future__ import annotations

import re

from chunker.fences import fence_after, has_fence_marker
from chunker.models import Block
from chunker.pack.budget import SectionSpace
from chunker.pack.containers import around
from chunker.pack.split_text import emit_cuts
from chunker.pack.strength import CODE_LINE, JOINT, NESTED_ITEM, SENTENCE, Strength, Unit

_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)
"""A list item marker at the start of a line's text."""


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
    src, lines = space.source, space.lines
    cuts: list[tuple[int, Strength]] = [(start, strength)]
    fenced = "code" in block.inner and has_fence_marker(src[start:end])
    opened = space.nested_fence(block, start) if fenced else None
    fences = lines.fence_ranges(block) if fenced else None
    items: _ItemLines | None = None
    tagged = "code" in block.inner and (src.find("{%", start, end) != -1 or src.find("{{", start, end) != -1)
    tag_lines = lines.tag_code_lines(block) if tagged else frozenset()  # template code: cut between its lines
    # a list inside an admonition or tab is indented by its body's columns: its items' depth counts from there
    indent = _indent(src, start) if block.kind == "container" else 0
    rows = lines.row_lines(block) if "table" in block.inner else frozenset()
    pos = src.find("\n", start, end)
    while pos != -1:
        line_start = pos + 1
        text_start = line_start
        while text_start < end and src[text_start] in " \t":
            text_start += 1
        after_blank = src[pos - 1 : pos] == "\n" or not src[src.rfind("\n", 0, pos) + 1 : pos].strip()
        if tag_lines and lines.line_at(line_start, block) - block.start_line in tag_lines:
            if text_start < end and src[text_start] != "\n":
                cuts.append((line_start, JOINT if after_blank else CODE_LINE))
            pos = src.find("\n", line_start, end)
            continue
        if fenced:
            before = opened
            line_end = src.find("\n", line_start, end)
            if before is not None and fences is not None:
                line = lines.line_at(line_start, block) - block.start_line
                if not _in_fence(fences, line):
                    before = None  # the parse ended that fence with its list item: the scan reads on past it
            opened = fence_after(src[line_start : end if line_end == -1 else line_end], before)
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
            elif after_blank or (src[text_start] in _TITLE_STARTS and lines.container_at(block, line_start)):
                cuts.append((text_start, SENTENCE))  # a paragraph, or an admonition right after code
            elif rows and lines.line_at(line_start, block) - block.start_line in rows:
                cuts.append((text_start, CODE_LINE))  # a body row of a nested table: its pieces re-open the header
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


def _in_fence(fences: list[tuple[int, int]], line: int) -> bool:
    """Whether ``line`` lies past the opening line of one of the ``fences`` (line ranges, end
    exclusive, in order)."""
    a, b = around(fences, line)
    return a < line < b


class _ItemLines:
    """Whether a line of a list that looks like an item's first line is one in the source: a line
    ``1) ...`` or ``- ...`` continuing a paragraph (an ordered item not numbered 1 cannot
    interrupt a paragraph; nor can any marker indented four columns past the item's content) is
    text, and a piece starting there would render as a new list item."""

    def __init__(self, space: SectionSpace, block: Block, start: int) -> None:
        self.lines = space.lines.item_lines(block)
        self.src = space.source
        self.offset, self.line = start, space.lines.line_at(start, block) - block.start_line

    def starts_item(self, line_start: int) -> bool:
        """Whether the line starting at ``line_start`` (after the previous call's) opens an item;
        without the block's structure, whether it looks like one."""
        if self.lines is None:
            return True
        self.line += self.src.count("\n", self.offset, line_start)
        self.offset = line_start
        return self.line in self.lines
