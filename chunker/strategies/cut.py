"""Blocks cut at source offsets (a page break or a question inside a paragraph), as exact slices."""

from __future__ import annotations

from collections.abc import Sequence

from chunker.models import Block

_UNCUTTABLE = frozenset({"code", "table", "math", "html", "heading"})
"""Kinds a boundary never cuts: it moves to the end of the block (a fence stays whole)."""


def _piece(source: str, block: Block, start: int, end: int, part: int) -> Block | None:
    """The exact slice source[start:end] of ``block``, trimmed of surrounding whitespace."""
    while start < end and source[start].isspace():
        start += 1
    while end > start and source[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    start_line = block.start_line + source.count("\n", block.start_offset, start)
    end_line = start_line + source.count("\n", start, end)
    return Block(
        id=f"{block.id}.{part}",
        kind=block.kind,
        start_offset=start,
        end_offset=end,
        start_line=start_line,
        end_line=end_line,
        header_path=block.header_path,
        atomic=block.atomic,
        source=source,
        heading_level=block.heading_level,
        inner=block.inner,
        joints=tuple(j for j in block.joints if start < j < end),
        fence=None,
    )


def cut_blocks(
    source: str, blocks: Sequence[Block], boundaries: Sequence[int]
) -> tuple[tuple[Block, ...], tuple[int, ...]]:
    """Blocks cut at the given source offsets, and for every resulting block the number of
    boundaries at or before its start. A boundary inside a code, table, math, html or heading
    block takes effect after that block; pieces keep exact source slices (ids ``blk_0007.2``)."""
    bounds = sorted(set(boundaries))
    out: list[Block] = []
    index: list[int] = []
    k = 0  # boundaries consumed
    for block in blocks:
        while k < len(bounds) and bounds[k] <= block.start_offset:
            k += 1
        inside = []
        while k < len(bounds) and bounds[k] < block.end_offset:
            inside.append(bounds[k])
            k += 1
        if not inside or block.kind in _UNCUTTABLE:
            out.append(block)
            index.append(k - len(inside))
            continue
        edges = [block.start_offset, *inside, block.end_offset]
        for part in range(len(edges) - 1):
            piece = _piece(source, block, edges[part], edges[part + 1], part + 1)
            if piece is not None:
                out.append(piece)
                index.append(k - len(inside) + part)
    return tuple(out), tuple(index)
