"""Table headers repeated before pieces, and padding in table rows.

A piece of a split table after its first repeats the table's header (its header and delimiter rows,
padding collapsed), declared as added text, so that it renders as the table. A header longer than
half of max_chars (:data:`HEADER_SHARE`) is not repeated: with every row or every few rows it
would cost more than the rows themselves (a 60-column table whose 1 KB rows each came with a 1 KB
header made chunks.json 5.7 times the source), so its pieces after the first are its rows alone,
and a ``table-header`` warning names the table. A repeated header takes at most half of
max_chars, so at least half is left for the rows beside it.

Padding in table rows: whitespace (and delimiter dashes) that only align the columns.

Generated docs pad cells to line the columns up (``| Description<560 spaces> | Action |``). Padding
does not count toward a piece's size and is collapsed in ``content_for_embedding``
(``content_original`` stays the exact source slice): a run of spaces or tabs inside a row becomes
one space, a run of dashes in the delimiter row becomes ``---``. So in a table nested in a list item, a
quote or a container (a parameter's table of values under ``- : ...``), whose pieces re-open the list and
repeat the header: the repeated header is measured and embedded with its padding collapsed as well.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from chunker.models import Block
from chunker.outline import LineToken

_SPACES = re.compile(r"(?<=\S)[ \t]{2,}")
"""Two or more spaces or tabs after a character of the row (not the line's indentation)."""
_DELIMITER_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_DELIMITER_ROWS = re.compile(_DELIMITER_ROW.pattern, re.MULTILINE)
_DASHES = re.compile(r"-{4,}")


HEADER_SHARE = 2
"""A table's header is repeated before its pieces when at most max_chars / HEADER_SHARE long."""


def header_of(block: Block, source: str) -> str:
    """A table's header and delimiter rows, padding collapsed: the text its later pieces repeat."""
    return collapse(source[block.start_offset : block.joints[0]]) if block.joints else ""


def nested_spans(source: str, block: Block, tokens: Sequence[LineToken]) -> list[tuple[int, int]]:
    """The source ranges of the tables nested in ``block`` (a list, quote or container), from the tokens
    of its structure (lines counted from the block's first, 0)."""
    spans = [t.map for t in tokens if t.type == "table_open" and t.map is not None]
    if not spans:
        return []
    starts = [source.rfind("\n", 0, block.start_offset) + 1]  # offset of each line of the block
    last = max(end for _, end in spans)
    while len(starts) <= last:
        newline = source.find("\n", starts[-1], block.end_offset)
        starts.append(newline + 1 if newline >= 0 else block.end_offset)
    return [(starts[a], max(starts[a], starts[b] - 1)) for a, b in spans]


def _runs(text: str, base: int) -> list[tuple[int, int]]:
    """(end offset, characters saved) of each collapsible run in ``text`` (at offset ``base``). The
    patterns run over the whole text, not line by line: no run crosses a line break, and a run of
    spaces after one has no character of its row before it."""
    runs = [(base + m.end(), m.end() - m.start() - 1) for m in _SPACES.finditer(text)]
    if "-" in text:
        for row in _DELIMITER_ROWS.finditer(text):
            dashes = _DASHES.finditer(text, row.start(), row.end())
            runs.extend((base + m.end(), m.end() - m.start() - 3) for m in dashes)
    runs.sort()
    return runs


def collapse(text: str) -> str:
    """``text`` (rows of a table) with its padding collapsed: the dashes of its delimiter rows, then
    its runs of spaces (over the whole text: as in :func:`_runs`, no run crosses a line break)."""
    if "-" in text:
        text = _DELIMITER_ROWS.sub(_collapse_dashes, text)
    return _SPACES.sub(" ", text)


def _collapse_dashes(row: re.Match[str]) -> str:
    return _DASHES.sub("---", row.group())


class Padding:
    """The padding of a section's tables, to discount it from the size of any source range: top-level
    tables, and tables nested in a list, quote or container (``nested``: their source ranges in such a
    block, in order), whose pieces repeat the header too."""

    def __init__(
        self, source: str, blocks: Sequence[Block], nested: Callable[[Block], Sequence[tuple[int, int]]] | None = None
    ) -> None:
        ends: list[int] = []
        sums: list[int] = [0]
        self.ranges: list[tuple[int, int]] = []
        """(start, end) offsets of the tables with padding."""
        for block in blocks:
            if block.kind == "table":
                spans: Sequence[tuple[int, int]] = ((block.start_offset, block.end_offset),)
            elif nested is not None and "table" in block.inner:
                spans = nested(block)
            else:
                continue
            for start, end in spans:
                runs = _runs(source[start:end], start)
                if runs:
                    self.ranges.append((start, end))
                for run_end, saved in runs:
                    ends.append(run_end)
                    sums.append(sums[-1] + saved)
        self._ends = ends
        self._sums = sums

    def __bool__(self) -> bool:
        return bool(self._ends)

    def saved(self, start: int, end: int) -> int:
        """Characters of padding in source[start:end] (runs that end inside it)."""
        if not self._ends:
            return 0
        return self._sums[bisect_right(self._ends, end)] - self._sums[bisect_right(self._ends, start)]

    def embed(self, source: str, start: int, end: int) -> str | None:
        """source[start:end] with the padding of its tables collapsed; None when it holds none."""
        if not self.saved(start, end):
            return None
        parts: list[str] = []
        pos = start
        for table_start, table_end in self.ranges:
            a, b = max(table_start, start), min(table_end, end)
            if a >= b:
                continue
            parts.append(source[pos:a])
            parts.append(collapse(source[a:b]))
            pos = b
        parts.append(source[pos:end])
        return "".join(parts)
