"""Subsections as retrieval units: where a section is cut before its sub-headings whatever the budget.

A section (its H2, by default) may hold several subsections (an H3 and what follows it, H4s nested in it
included). Packed greedily toward target_chars, neighbouring subsections share a chunk, and one embedding
of the chunk averages their topics (a settings page with one ``### setting`` each: five settings per
chunk). With ``subsection_chars`` set, a sub-heading starts a new chunk when the chunk so far is at least
that long and so is the subsection it opens; smaller subsections still go with their neighbours (the
packer fills each group toward target_chars as before). Chunks never cross the section either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunker.models import Block
from chunker.pack.strength import Unit


def subsection_floor(subsection_chars: int | None, min_chars: int) -> int | None:
    """The size from which a subsection is a chunk of its own (never below ``min_chars``), or None (off)."""
    return None if subsection_chars is None else max(subsection_chars, min_chars)


def group_ends(units: Sequence[Unit], size_of: Callable[[int, int], int], floor: int, level: int) -> list[int]:
    """End unit (exclusive) of each group of ``units``, a section opened by a heading of ``level``: cut
    before a sub-heading (deeper than ``level``) whose subsection (up to the next heading of its level or
    higher) is at least ``floor`` and when so is what comes before it since the last cut; the text after an
    element that sub-headings sat in (:func:`scope_level`) is such a subsection too. The last end is
    ``len(units)``. A section no heading opened (``level`` 0: before the first heading, the strategies
    ``recursive`` and ``pages``) is one group."""
    n = len(units)
    heads: list[int] = []
    levels: list[int] = []
    for k in range(1, n):
        unit = units[k]
        block, before = unit.block, units[k - 1].block
        if unit.first and (
            found := block.heading_level or (block.header_path is not before.header_path and scope_level(before, block))
        ):
            heads.append(k)
            levels.append(found)
    ends: list[int] = []
    if heads and level:
        subtree = _subtree_ends(heads, levels, n)
        start = 0
        for head, stop, at in zip(heads, subtree, levels, strict=True):
            if at <= level or units[head - 1].glue:
                continue  # a heading carried into the section; one (or an opening tag) sticks to what follows
            if size_of(start, head) >= floor and size_of(head, stop) >= floor:
                ends.append(head)
                start = head
    ends.append(n)
    return ends


def block_cuts(blocks: Sequence[Block], floor: int, level: int) -> bool:
    """Whether :func:`group_ends` would cut a section of whole blocks (one unit per block, sizes in
    characters as source spans): a section that fits whole is packed by units only then."""
    if not level or blocks[-1].end_offset - blocks[0].start_offset < 2 * floor:
        return False
    heads: list[int] = []
    levels: list[int] = []
    for k in range(1, len(blocks)):
        block, before = blocks[k], blocks[k - 1]
        if found := block.heading_level or (block.header_path is not before.header_path and scope_level(before, block)):
            heads.append(k)
            levels.append(found)
    if not heads:
        return False
    subtree = _subtree_ends(heads, levels, len(blocks))
    start = blocks[0].start_offset
    for head, stop, at in zip(heads, subtree, levels, strict=True):
        if at <= level or blocks[head - 1].kind == "heading":
            continue
        begin = blocks[head].start_offset
        if begin - start >= floor and blocks[stop - 1].end_offset - begin >= floor:
            return True
    return False


def scope_level(previous: Block, block: Block) -> int:
    """The level of the outermost heading ``previous`` sits under and ``block`` (no heading) does not: the
    element those headings sat in closed between them (:mod:`chunker.scopes`), a boundary as strong as the cut
    before that heading; 0 when there is none."""
    path, before = block.header_path, previous.header_path
    if path is before or block.kind == "heading" or len(path) >= len(before):
        return 0
    return before[len(path)].level


def _subtree_ends(heads: Sequence[int], levels: Sequence[int], n: int) -> list[int]:
    """For each heading (by position), where its subtree ends: the next heading of its level or higher."""
    ends = [n] * len(heads)
    open_: list[int] = []  # positions in ``heads`` whose subtree is still open, levels increasing
    for j, level in enumerate(levels):
        while open_ and levels[open_[-1]] >= level:
            ends[open_.pop()] = heads[j]
        open_.append(j)
    return ends
