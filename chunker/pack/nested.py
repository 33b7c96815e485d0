"""HTML blocks and tables nested in a list, quote or container: the lines where a piece of them
may start and still render as they do (see :mod:`chunker.pack.reopen`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from markdown_it.rules_block.html_block import HTML_SEQUENCES

from chunker.outline import LineToken

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
    table nested in it (see ``Structure.whole_lines``), and the first line of the table each body
    row lies in. A piece of an HTML block starting on a later line reads as text, but where that
    line opens an HTML block of the kinds that end at a blank line, as the source's does; a piece
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
        else:
            starts = [first, *(k for k in range(first + 1, last) if _html_kind(lines[k]) >= _BLOCK_HTML), last]
            ranges += list(itertools.pairwise(starts))
    return ranges, heads
