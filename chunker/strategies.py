"""Grouping of blocks into sections: the units chunks never cross.

A strategy takes the blocks of a document and returns its sections (and the
ranges it leaves out). The packer then packs each section on its own.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from chunker.config import ChunkerConfig, StrategyName
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
        level, evidence = choose_section_level(blocks)
        decisions["section_level"] = {"chosen": level, "by": "auto", **evidence}
    else:
        level = int(cfg.section_level)
    skip = _skip_options(cfg)

    sections: list[Section] = []
    skipped: list[SkippedRange] = []
    current: list[Block] = []
    current_title = title
    current_level = 0
    subtree: list[Block] = []
    """The blocks of a skipped heading's subtree, while inside it."""
    subtree_reason = ""

    def close() -> None:
        if not current:
            return
        if current_level == 0 and cfg.skip_pre_heading:
            skipped.append(_skip_range(current, "text before the first heading (skip_pre_heading)"))
        else:
            sections.append(Section(current_title, tuple(current), current_level))
        current.clear()

    for block in blocks:
        if subtree:
            if block.kind != "heading" or block.heading_level > subtree[0].heading_level:
                subtree.append(block)
                continue
            skipped.append(_skip_range(subtree, subtree_reason))
            subtree = []
        if block.kind == "heading" and (option := skip.get(normalise_heading(_heading_text(block)))):
            # the heading and every deeper heading up to the next one of its level or higher
            close()
            subtree = [block]
            subtree_reason = f"section '{_heading_text(block)}' is in {option}"
            if block.heading_level <= level:
                current_title, current_level = _heading_text(block), block.heading_level
        elif block.kind == "heading" and block.heading_level <= level:
            # a parent heading with no body of its own opens this section
            carried = list(current) if current_level and _carry_headings(current, block.heading_level) else []
            if not carried:
                close()
            current[:] = [*carried, block]
            current_title = _heading_text(block)
            current_level = block.heading_level
        else:
            current.append(block)
    if subtree:
        skipped.append(_skip_range(subtree, subtree_reason))
    close()
    return Grouping(tuple(sections), tuple(skipped), (), decisions)


def _heading_text(block: Block) -> str:
    return block.header_path[-1].text if block.header_path else ""


def _skip_options(cfg: ChunkerConfig) -> dict[str, str]:
    """Normalised heading text -> the option that lists it (``excluded_section_headings`` wins)."""
    options = {normalise_heading(h): "skip_headings" for h in cfg.skip_headings}
    options.update({normalise_heading(h): "excluded_section_headings" for h in cfg.excluded_section_headings})
    return options


AUTO_MIN_HEADINGS = 3
"""A level with fewer headings is not chosen when a shallower level with more will do."""
AUTO_TEXT_SHARE = 0.9
"""``auto`` picks the shallowest level L such that this share of the body text sits directly under
headings of level <= L (deeper headings then hold only occasional text)."""


def level_profile(blocks: Sequence[Block]) -> dict[int, tuple[int, float]]:
    """Per heading level L (0: before any heading): the number of headings of level L and the share
    of the body text whose innermost heading has level L."""
    counts = [0] * 7
    chars = [0] * 7
    level = 0
    for block in blocks:
        if block.kind == "heading":
            level = block.heading_level
            counts[level] += 1
        else:
            chars[level] += block.chars
    total = sum(chars)
    return {lvl: (counts[lvl], chars[lvl] / total if total else 0.0) for lvl in range(7) if counts[lvl] or chars[lvl]}


def choose_section_level(blocks: Sequence[Block]) -> tuple[int, dict[str, Any]]:
    """The finest heading level that structures the document consistently, and the evidence.

    Sections open at every heading of level <= L, so L must be deep enough that the text sits
    directly under headings it opens sections at (``§`` headings at levels 4, 5 and 6 of a law all
    need L = 6), and need not go deeper than where AUTO_TEXT_SHARE of the text is. A level with
    fewer than AUTO_MIN_HEADINGS headings (a level that appears twice) yields to the deepest
    shallower level with enough headings that holds at least half of the text."""
    profile = level_profile(blocks)
    evidence: dict[str, Any] = {
        "levels": {
            str(lvl): {"headings": n, "text_share": round(share, 3)} for lvl, (n, share) in profile.items() if lvl
        },
        "rule": f"shallowest level under which {AUTO_TEXT_SHARE:.0%} of the text sits directly",
    }
    if not any(lvl for lvl in profile if lvl):
        evidence["fallback"] = "no headings"
        return 2, evidence
    cumulative = 0.0
    chosen = max(profile)
    shares: dict[int, float] = {}
    for lvl in range(7):
        cumulative += profile.get(lvl, (0, 0.0))[1]
        shares[lvl] = cumulative
    for lvl in range(1, 7):
        if shares[lvl] >= AUTO_TEXT_SHARE - 1e-9:
            chosen = lvl
            break
    if profile.get(chosen, (0, 0.0))[0] < AUTO_MIN_HEADINGS:
        fallback = [
            lvl for lvl in range(1, chosen) if profile.get(lvl, (0, 0.0))[0] >= AUTO_MIN_HEADINGS and shares[lvl] >= 0.5
        ]
        if fallback:
            evidence["fewer_than_min_headings"] = chosen
            chosen = max(fallback)
    return chosen, evidence


# -- cutting blocks at offsets (pages, questions inside a paragraph) -----------------

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


def _carry_headings(current: list[Block], opening_level: int) -> bool:
    """Whether ``current`` is only headings shallower than the one that opens the next section
    (a parent heading with no body of its own goes with its first child)."""
    return (
        bool(current)
        and all(b.kind == "heading" for b in current)
        and (max(b.heading_level for b in current) < opening_level)
    )


# -- faq ------------------------------------------------------------------------------

_BOLD_QUESTION = re.compile(r"^[ \t]{0,3}(\*\*|__)(?P<q>(?:(?!\1).)+?[?？])\s*\1", re.MULTILINE)
"""A line that starts with a bold span ending in '?': ``**Can I ...?**`` (an answer may follow)."""


def question_offsets(source: str, blocks: Sequence[Block]) -> dict[int, str]:
    """Source offsets where a bold question line starts (in paragraphs only), with its text."""
    found: dict[int, str] = {}
    for block in blocks:
        if block.kind != "paragraph" or ("**" not in block.content and "__" not in block.content):
            continue
        for match in _BOLD_QUESTION.finditer(source, block.start_offset, block.end_offset):
            found[match.start()] = " ".join(match.group("q").split())
    return found


def faq(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """One section per question and its answer. A question is a heading of level faq_level, or a
    line starting with a bold span that ends in '?'; shallower headings (categories) open sections
    too, deeper ones stay in the answer. Text before the first question is its own section."""
    questions = question_offsets(doc.text, blocks)
    blocks, _ = cut_blocks(doc.text, blocks, [o for o in questions if o > 0])
    sections: list[Section] = []
    current: list[Block] = []
    current_title = title
    current_level = 0
    count = 0

    def close() -> None:
        if current:
            sections.append(Section(current_title, tuple(current), current_level))

    for block in blocks:
        question = questions.get(block.start_offset) if block.kind == "paragraph" else None
        is_heading = block.kind == "heading" and block.heading_level <= cfg.faq_level
        if question is None and not is_heading:
            current.append(block)
            continue
        level = block.heading_level if is_heading else cfg.faq_level
        if _carry_headings(current, level + (1 if question is not None else 0)) and current_level:
            current.append(block)
        else:
            close()
            current = [block]
        if is_heading:
            current_title = block.header_path[-1].text if block.header_path else ""
            current_level = block.heading_level
            count += block.heading_level == cfg.faq_level
        else:
            current_title = question or ""
            current_level = level
            count += 1
    close()
    decisions = {"faq": {"questions": count, "question_heading_level": cfg.faq_level}}
    diagnostics: tuple[Diagnostic, ...] = ()
    if not count:
        diagnostics = (
            Diagnostic(
                "warning",
                "faq-no-questions",
                f"strategy 'faq' found no question (no heading of level {cfg.faq_level}, no bold line ending in '?')",
            ),
        )
    return Grouping(tuple(sections), (), diagnostics, decisions)


# -- pages ----------------------------------------------------------------------------


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


def recursive(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """No sections: the whole document is one run of blocks, which the packer cuts at the strongest
    boundary in reach (heading > block > item/row > sentence > word), toward target, never over max."""
    return Grouping((Section(title, tuple(blocks), 0),) if blocks else ())


def off(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    skipped = (_skip_range(blocks, "strategy off"),) if blocks else ()
    return Grouping((), skipped, (Diagnostic("info", "strategy-off", "strategy 'off': document not chunked"),))


STRATEGIES: MappingProxyType[StrategyName, Strategy] = MappingProxyType(
    {"headings": by_headings, "recursive": recursive, "faq": faq, "pages": pages, "off": off}
)
