"""The lines a container rule's search reads: the block's lines after its opening line, outside code fences.

The MDC rule (:mod:`chunker.parse.mdc`) and the Pandoc div rule (:mod:`chunker.parse.pandoc`) each match a
block's opening lines with their closing lines in one pass over the lines below the first opening line; both
skip blank lines and what a code fence holds, and both stop at a line of text indented less than the block
they are in (a list item's or a quote's end)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chunker.fences import fence_step

__all__ = ["unfenced_lines"]


def unfenced_lines(state: Any, first: int, end_line: int) -> Iterator[tuple[int, str]]:
    """``(line, text past its indentation)`` for every line after ``first`` up to ``end_line`` that is neither
    blank nor a fence line nor inside a code fence; then, if a line of text is indented less than the block
    (``state.blkIndent``), ``(line, "")`` for it, where the lines end. A fence opened on one of these lines is
    closed as :func:`chunker.fences.fence_step` reads fence lines."""
    src = state.src
    b_marks, e_marks, t_shift, s_count = state.bMarks, state.eMarks, state.tShift, state.sCount
    indent = state.blkIndent
    fence = ""  # the marker run of a code fence open at this line
    for line in range(first + 1, end_line):
        start = b_marks[line] + t_shift[line]
        last = e_marks[line]
        if start >= last:
            continue
        if s_count[line] < indent:
            yield line, ""
            return
        text = src[start:last]
        stepped = fence_step(text, fence)
        if stepped is not None:
            fence = stepped
        elif not fence:
            yield line, text
