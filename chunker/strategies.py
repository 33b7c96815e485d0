"""Grouping of blocks into sections: the units chunks never cross.

A strategy takes the blocks of a document and returns its sections (and the
ranges it leaves out). The packer then packs each section on its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from chunker.config import ChunkerConfig
from chunker.models import Block, Diagnostic, SkippedRange
from chunker.parser import ParsedDocument


@dataclass(frozen=True, slots=True)
class Section:
    """Consecutive blocks that chunks never cross."""

    title: str
    blocks: tuple[Block, ...]
    level: int = 0
    """Level of the heading that opened the section; 0 when none did."""
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Grouping:
    sections: tuple[Section, ...]
    skipped: tuple[SkippedRange, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    decisions: dict[str, Any] = field(default_factory=dict)


Strategy = Callable[[Sequence[Block], ParsedDocument, ChunkerConfig, str], Grouping]

_NUMBERING = re.compile(r"^[\s\d.§IVXLCivxlc)(\-–—:]*(?=\w)")
_PUNCT = re.compile(r"[\W_]+$")


def normalise_heading(text: str) -> str:
    """For matching skip lists: numbering, punctuation and case removed (``2. Indice:`` -> ``indice``)."""
    text = unicodedata.normalize("NFC", text).strip()
    text = _NUMBERING.sub("", text)
    return _PUNCT.sub("", text).strip().casefold()


def _skip_range(blocks: Sequence[Block], reason: str) -> SkippedRange:
    return SkippedRange(
        start_line=blocks[0].start_line,
        end_line=blocks[-1].end_line,
        start_offset=blocks[0].start_offset,
        end_offset=blocks[-1].end_offset,
        reason=reason,
    )


def by_headings(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """A section opens at every heading of level <= section_level; deeper headings stay inside."""
    decisions: dict[str, Any] = {}
    if cfg.section_level == "auto":
        level = choose_section_level(blocks)
        decisions["section_level"] = {"chosen": level, "by": "auto"}
    else:
        level = int(cfg.section_level)
    skip = {normalise_heading(h) for h in (*cfg.skip_headings, *cfg.excluded_section_headings)}

    sections: list[Section] = []
    skipped: list[SkippedRange] = []
    current: list[Block] = []
    current_title = title
    current_level = 0

    def close() -> None:
        if not current:
            return
        if current_level == 0 and cfg.skip_pre_heading:
            skipped.append(_skip_range(current, "text before the first heading (skip_pre_heading)"))
        elif current_level and normalise_heading(current_title) in skip:
            skipped.append(_skip_range(current, f"section '{current_title}' is in skip_headings"))
        else:
            sections.append(Section(current_title, tuple(current), current_level))

    for block in blocks:
        if block.kind == "heading" and block.heading_level <= level:
            carried: list[Block] = []
            if current and current_level and all(b.kind == "heading" for b in current):
                if max(b.heading_level for b in current) < block.heading_level:
                    carried = current  # a parent heading with no body of its own opens this section
            if carried:
                current = [*carried, block]
            else:
                close()
                current = [block]
            current_title = block.header_path[-1].text if block.header_path else ""
            current_level = block.heading_level
        else:
            current.append(block)
    close()
    return Grouping(tuple(sections), tuple(skipped), (), decisions)


def choose_section_level(blocks: Sequence[Block]) -> int:
    """The finest heading level that structures the document: used at least 3 times and by
    a sensible share of headings; falls back to 2."""
    counts = [0] * 7
    for block in blocks:
        if block.kind == "heading":
            counts[block.heading_level] += 1
    best = 2
    for level in range(1, 7):
        if counts[level] >= 3:
            best = level
            break
    return best


def recursive(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """No sections: the whole document is one run of blocks, cut at the weakest boundaries that fit."""
    return Grouping((Section(title, tuple(blocks), 0),) if blocks else ())


def off(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    skipped = (_skip_range(blocks, "strategy off"),) if blocks else ()
    return Grouping((), skipped, (Diagnostic("info", "strategy-off", "strategy 'off': document not chunked"),))


STRATEGIES: MappingProxyType[str, Strategy] = MappingProxyType(
    {"headings": by_headings, "recursive": recursive, "off": off}
)
