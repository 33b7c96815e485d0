"""An oversize table, split between its body rows.

The header sticks to the first piece and is repeated before every other piece (unless it is too
long to repeat: :mod:`chunker.pack.tables`); a row that does not fit with it is an overflow piece.
"""

from __future__ import annotations

from chunker.models import Block, Diagnostic
from chunker.pack.budget import SectionSpace
from chunker.pack.strength import JOINT, Strength, Unit
from chunker.policy import gated


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
    line = space.lines.line_at(start, block)
    header = " with the table's header" if space.table_header(block) else ""
    space.notes.append(
        gated(
            "overflow",
            f"table row at line {line} ({space.span(start, end)} characters without padding) does not fit in "
            f"max_chars ({space.cfg.max_chars}){header} and is kept whole as an overflow chunk",
            line=line,
        )
    )
