"""Stage: sections of blocks -> chunks.

Each section is packed on its own, so no chunk crosses a section boundary. A sub-heading starts a chunk where
its subsection and the chunk before it are both ``subsection_chars`` long (``subsections``); apart from those
cuts, a section that fits in max_chars is one chunk. A longer one is cut into *units* (blocks; the items, rows
or lines of an oversize atomic block; the sentences, words or hard cuts of an oversize paragraph) and packed
greedily toward target_chars, never over max_chars, at the strongest boundary in reach: sub-heading > block >
item/row/line > sentence > word > hard cut. A heading (and a table's header) sticks to what follows it. Every
chunk is a contiguous slice of the source; the only text a chunk adds is declared in ``added_lines`` (a
repeated table header, the fence lines that re-open or close a code piece, the containers a piece cut from
inside a list, quote or container re-opens: ``reopen``, from where ``containers`` says they are).

Modules, in the order a section goes through them: ``budget`` (the section and what fits in a chunk; table
padding, which does not count, in ``tables``), ``units`` (blocks and the pieces of oversize ones:
``split_text``, ``split_code``, ``split_table``, ``split_joints`` with ``split_children`` and ``split_items``,
``split_html``; strengths in ``strength``), ``fill`` (units grouped into chunks; ``subsections``: where a
section is cut before a subsection), ``drafts`` (the text of each chunk, with the lines a piece repeats
from ``repeats``),
``chunks`` (ids, neighbours, flags) with ``context`` (context line, overlap) and ``keys`` (Ziffer, chunk
keys).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from chunker.config import ChunkerConfig
from chunker.models import Chunk, Diagnostic
from chunker.outline import LineToken
from chunker.pack.budget import SectionSpace
from chunker.pack.chunks import finish
from chunker.pack.drafts import Draft, make_draft, number_parts, whole_draft
from chunker.pack.fill import ranges
from chunker.pack.subsections import block_cuts, subsection_floor
from chunker.pack.units import build_units
from chunker.pack.within import labels_within
from chunker.sizes import make_counter
from chunker.strategies import Section

__all__ = ["PackResult", "pack", "pack_section"]


@dataclass(frozen=True, slots=True)
class PackResult:
    chunks: tuple[Chunk, ...]
    diagnostics: tuple[Diagnostic, ...]
    parsed: Mapping[int, Sequence[LineToken]] = field(default_factory=dict)
    """Tokens of the blocks whose structure the packer read to re-open their containers, by block
    start offset (from their outlines, or parsed where a block has none)."""


def pack(sections: Sequence[Section], source: str, cfg: ChunkerConfig, stem: str, title: str) -> PackResult:
    """Chunks of every section, in order, with ids, neighbours, context and keys."""
    drafts: list[Draft] = []
    diagnostics: list[Diagnostic] = []
    measure = make_counter(cfg)
    parsed: dict[int, Sequence[LineToken]] = {}
    for index, section in enumerate(sections):
        pack_section(SectionSpace(source, section, index, cfg, title, measure), drafts, diagnostics, parsed)
    number_parts(drafts)
    return PackResult(finish(drafts, cfg, stem, measure), tuple(diagnostics), parsed)


def pack_section(
    space: SectionSpace, drafts: list[Draft], diagnostics: list[Diagnostic], parsed: dict[int, Sequence[LineToken]]
) -> None:
    """The drafts of one section, added to ``drafts``. Its units are freed on return: one per row
    of a long table (~120 bytes each, 4 times the row's text), they outlived the loop before. A
    section that fits whole (about half of them) is one draft of its blocks, made without units."""
    if space.fits_whole and not cut_whole(space):
        drafts.append(whole_draft(space, diagnostics))
        return
    units, overflows = build_units(space)
    diagnostics.extend(overflows)
    made = [make_draft(space, units[i:e], diagnostics) for i, e in ranges(space, units)]
    if len(made) > 1 and space.cfg.context_prefix != "none":
        within = labels_within(space.section.blocks, space.source, [d.start for d in made[1:]])
        for draft, labels in zip(made[1:], within, strict=True):
            draft.within = labels
    drafts.extend(made)
    parsed.update((k, s.tokens) for k, s in space.lines.structures.items() if s is not None)


def cut_whole(space: SectionSpace) -> bool:
    """Whether a section that fits whole is still cut before a subsection (``subsection_chars``)."""
    floor = subsection_floor(space.cfg.subsection_chars, space.cfg.min_chars)
    return floor is not None and block_cuts(space.section.blocks, floor, space.section.level)
