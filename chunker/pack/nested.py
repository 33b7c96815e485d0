"""Blocks nested in a list, quote or container: the lines where a piece of an HTML block or table
nested there may start and still render as they do (see :mod:`chunker.pack.reopen`); the lines
where a container nested in a container opens, and where a piece of it may start."""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markdown_it.rules_block.html_block import HTML_SEQUENCES

from chunker.outline import LineToken

if TYPE_CHECKING:
    from chunker.pack.containers import Containers

_BLOCK_HTML = 5
"""Index in markdown-it's ``HTML_SEQUENCES`` of the first HTML block kind that ends at a blank line
(a block-level tag, or a lone tag); the kinds before it end at their closing sequence (``-->``)."""
_LINE_MARKERS = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*")


def _html_kind(line: str) -> int:
    """Which of markdown-it's HTML block kinds ``line`` (a block's line) opens; -1 for none."""
    text = line[_LINE_MARKERS.match(line).end() :]  # type: ignore[union-attr]
    return next((k for k, (opening, _, _) in enumerate(HTML_SEQUENCES) if opening.search(text)), -1)


def leaf_lines(tokens: Sequence[LineToken], lines: Sequence[str]) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """Line ranges where no piece of a list, quote or container may start inside an HTML block or
    table nested in it (see ``PieceStarts.whole_lines``), and the first line of the table each body
    row lies in. A piece of an HTML block starting on a later line reads as text, but where that
    line opens an HTML block of the kinds that end at a blank line, as the source's does (when no
    blank line comes between: an MDX JSX block holding a fence or braces runs on over blank lines
    inside them, where a piece's block would end, so only its lines after the last may); a piece
    of a table starting on a body row is that table's rows once its header rows are re-opened
    before it (the delimiter row and the inside of a row are no place to start)."""
    ranges: list[tuple[int, int]] = []
    heads: dict[int, int] = {}
    for token in tokens:
        if token.map is None or token.type not in ("html_block", "table_open"):
            continue
        first, last = min(token.map[0], len(lines) - 1), min(token.map[1], len(lines))
        if token.type == "table_open":
            ranges.append((first, first + 2))
            ranges += [(row, row + 1) for row in range(first + 2, last)]
            heads.update(dict.fromkeys(range(first + 2, last), first))
        elif _html_kind(lines[first]) < _BLOCK_HTML:
            ranges.append((first, last))
        else:  # an MDX JSX block runs on over blank lines inside a fence or braces: from its last on
            after = next((k for k in range(last - 1, first, -1) if not lines[k].strip(" \t>")), first) + 1
            starts = [first, *(k for k in range(after, last) if _html_kind(lines[k]) >= _BLOCK_HTML), last]
            ranges += list(itertools.pairwise(starts))
    return ranges, heads


_TITLED = frozenset({"admonition_open", "container_block_open", "container_blocks_open", "myst_fence_open"})
"""Containers opened by a title line of their own (``!!! note``, ``=== "Tab"``, ``:::tip``, ``/// note``)."""
_NO_START = frozenset({"admonition_title_open", "dd_open", "inline"})
"""Tokens no piece starts at: an admonition's title (its container's line), a definition (its term's)."""


class InnerStarts:
    """Where the blocks nested in a container block open, read once from its structure: the lines
    (past the block's first) where an admonition, content tab or ``:::``/``///`` container opens
    (``titled``), and every line where a piece of one may start (:meth:`between`)."""

    def __init__(self, structure: Containers) -> None:
        self.titled = frozenset(
            first for first, t in zip(structure.firsts, structure.opens, strict=True) if first and t.type in _TITLED
        )
        opened = {t.map[0] for t in structure.tokens if t.map is not None and t.type not in _NO_START}
        code: set[int] = set()
        for a, b in structure.fences:
            code.update(range(a + 1, b - 1))
        for a, b in structure.code:
            code.update(range(a + 1, b))
        lines, starts = structure.lines, structure.starts
        self.starts: list[tuple[int, bool, bool]] = [
            (starts[line], line in code and line not in opened, not lines[line - 1].strip(" \t>"))
            for line in sorted(opened | code)
            if 0 < line < len(starts) and lines[line].strip()
        ]
        """(offset in the block's text, a code line?, after a blank line?) of every line where a block
        opens (a leaf or a container, not an admonition's title) or a line of code starts (inside
        fenced or indented code, not on its fence lines); blank lines left out."""
        self.offsets = [offset for offset, _, _ in self.starts]

    def between(self, start: int, stop: int) -> list[tuple[int, bool, bool]]:
        """The starts on the lines after the one of offset ``start``, before offset ``stop``."""
        return self.starts[bisect_right(self.offsets, start) : bisect_left(self.offsets, stop)]
