"""The ``pages`` strategy: one section per page, pages separated by form feeds or page-marker
comments (``page_marker_pattern``)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from chunker.config import ChunkerConfig
from chunker.models import Block
from chunker.parse import ParsedDocument
from chunker.strategies.cut import cut_blocks
from chunker.strategies.sections import Grouping, Section


def page_breaks(source: str, blocks: Sequence[Block], cfg: ChunkerConfig) -> list[tuple[int, int | None]]:
    """(offset where a page starts, its number from the marker or None for a form feed), in order.
    A marker line belongs to the page it opens; markers inside code blocks are code, not markers."""
    code = [b for b in blocks if b.kind == "code"]  # in source order, disjoint
    code_starts = [b.start_offset for b in code]
    body_start = blocks[0].start_offset if blocks else len(source)

    def in_code(offset: int) -> bool:
        k = bisect_right(code_starts, offset) - 1
        return k >= 0 and offset < code[k].end_offset

    breaks: list[tuple[int, int | None]] = []
    for match in re.finditer(cfg.page_marker_pattern, source):
        if match.start() < body_start or in_code(match.start()):
            continue
        line_start = source.rfind("\n", 0, match.start()) + 1
        at = line_start if not source[line_start : match.start()].strip() else match.start()
        number: int | None = None
        if match.groups():
            try:
                number = int(match.group(1))
            except (TypeError, ValueError):
                number = None
        breaks.append((at, number))
    position = source.find("\f", body_start)
    while position != -1:
        breaks.append((position + 1, None))
        position = source.find("\f", position + 1)
    breaks.sort(key=lambda b: b[0])
    return breaks


def _merge_breaks(source: str, breaks: Sequence[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """One break where only whitespace separates several (a form feed right before a marker):
    the earliest offset, the marker's number."""
    merged: list[tuple[int, int | None]] = []
    for offset, number in breaks:
        if merged and not source[merged[-1][0] : offset].strip():
            previous_offset, previous_number = merged[-1]
            merged[-1] = (previous_offset, number if number is not None else previous_number)
        else:
            merged.append((offset, number))
    return merged


def page_numbers(breaks: Sequence[tuple[int, int | None]]) -> tuple[int | None, list[int]]:
    """The page of the text before the first break, and of every break. A form feed opens the page
    after the previous one; a marker names its page. Text before a first marker ``page: n`` is page
    n-1 (none when n is 1); text before a first form feed is page 1."""
    first = breaks[0][1] if breaks else None
    if not breaks or first is None:
        preamble: int | None = 1
    else:
        preamble = first - 1 if first > 1 else None
    numbers: list[int] = []
    previous = preamble or 0
    for _, number in breaks:
        current = number if number is not None else previous + 1
        numbers.append(current)
        previous = current
    return preamble, numbers


def pages(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """One section per page; pages are separated by form feeds or page-marker comments
    (``page_marker_pattern``). A page boundary inside a paragraph or list cuts the block; inside a
    code block, table, math or html block it takes effect after the block."""
    breaks = _merge_breaks(doc.text, page_breaks(doc.text, blocks, cfg))
    preamble, numbers = page_numbers(breaks)
    cut, index = cut_blocks(doc.text, blocks, [offset for offset, _ in breaks])
    sections: list[Section] = []
    group: list[Block] = []
    group_page = -1

    def close() -> None:
        if group:
            page = preamble if group_page == 0 else numbers[group_page - 1]
            path = next((b.header_path for b in group if b.header_path), ())
            heading = path[-1].text if path else title
            sections.append(Section(heading, tuple(group), 0, page))

    for block, k in zip(cut, index, strict=True):
        if k != group_page:
            close()
            group, group_page = [], k
        group.append(block)
    close()
    decisions = {
        "pages": {
            "pages": len(sections),
            "markers": sum(1 for _, n in breaks if n is not None),
            "form_feeds": sum(1 for _, n in breaks if n is None),
        }
    }
    return Grouping(tuple(sections), (), (), decisions)
