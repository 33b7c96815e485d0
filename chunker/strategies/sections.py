"""What a strategy returns: sections (the units chunks never cross), left-out ranges, findings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chunker.config import ChunkerConfig
from chunker.filler import is_filler, macro_only
from chunker.models import Block, Diagnostic, SkippedRange
from chunker.parse import ParsedDocument


@dataclass(frozen=True, slots=True)
class Section:
    """Consecutive blocks that chunks never cross."""

    title: str
    blocks: tuple[Block, ...]
    level: int = 0
    """Level of the heading that opened the section; 0 when none did."""
    page: int | None = None
    context_from: int | None = None
    """For a section that goes on after an editor note left out with the headings right above it: the line
    of the first of those headings, which still name the context of its chunks (else the section's first
    line: a deeper heading from before the section is no context of it)."""


@dataclass(frozen=True, slots=True)
class Grouping:
    sections: tuple[Section, ...]
    skipped: tuple[SkippedRange, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    decisions: dict[str, Any] = field(default_factory=dict)


Strategy = Callable[[Sequence[Block], ParsedDocument, ChunkerConfig, str], Grouping]


def skip_range(blocks: Sequence[Block], reason: str) -> SkippedRange:
    return SkippedRange(
        start_line=blocks[0].start_line,
        end_line=blocks[-1].end_line,
        start_offset=blocks[0].start_offset,
        end_offset=blocks[-1].end_offset,
        reason=reason,
    )


def carry_headings(current: list[Block], opening_level: int) -> bool:
    """Whether ``current`` is only headings shallower than the one that opens the next section
    (a parent heading with no body of its own goes with its first child)."""
    return (
        bool(current)
        and all(b.kind == "heading" for b in current)
        and (max(b.heading_level for b in current) < opening_level)
    )


def carry_filler(current: list[Block], opening_level: int, level: int = 0) -> bool:
    """Whether ``current`` holds no text of its own: filler blocks (a lone ``<audio>``, a ``<script
    setup>`` of imports, ``&nbsp;``: :mod:`chunker.filler`) or paragraphs of macro calls only (a sidebar
    macro over the first heading, ``{{JSRef("Global_Objects", "Math")}}``: :func:`chunker.filler.macro_only`),
    after headings shallower than the one that opens the next section, or before the first heading. Such
    a section goes with the next one rather than make a chunk with nothing to retrieve. ``level``: the level
    of the section ``current`` is in when it holds no heading (its heading left out with an editor note, or
    ``current`` the text after an element that closed it): 0 before the first heading. A section of the
    next one's level or deeper keeps its filler, as one that holds its heading does: carried, it was text of
    two sections in one chunk (react.dev's ``## Full translations`` / ``{/* note */}`` / ``<LanguageList />``
    under ``skip_comments``: the component was the first line of ``## In-progress translations``' chunk)."""
    if not current or not any(b.kind != "heading" for b in current):
        return False
    levels = [b.heading_level for b in current if b.kind == "heading"] or ([level] if level else [])
    if levels and max(levels) >= opening_level:
        return False
    return all(b.kind == "heading" or is_filler(b) or macro_only(b) for b in current)
