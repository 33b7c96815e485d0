"""The ``headings`` strategy: a section opens at every heading of level <= ``section_level``;
the subtrees of headings in ``skip_headings`` / ``excluded_section_headings`` are left out, and so is a section of
build-time macros only (:func:`chunker.filler.macro_section`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any

from chunker.config import ChunkerConfig
from chunker.filler import macro_section
from chunker.models import Block, Heading, SkippedRange
from chunker.notes import COMMENT, closes_comment, note_reason, opens_comment
from chunker.parse import ParsedDocument
from chunker.strategies.section_level import choose_section_level
from chunker.strategies.sections import Grouping, Section, carry_filler, carry_headings, skip_range

_NUMBERING = re.compile(r"^[\s\d.§IVXLCivxlc)(\-–—:]*(?=\w)")
_PUNCT = re.compile(r"[\W_]+$")


def normalise_heading(text: str) -> str:
    """For matching skip lists: numbering, punctuation and case removed (``2. Indice:`` -> ``indice``)."""
    text = unicodedata.normalize("NFC", text).strip()
    text = _NUMBERING.sub("", text)
    return _PUNCT.sub("", text).strip().casefold()


def by_headings(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """A section opens at every heading of level <= section_level; deeper headings stay inside."""
    decisions: dict[str, Any] = {}
    if cfg.section_level == "auto":
        level, evidence = choose_section_level(blocks)
        decisions["section_level"] = {"chosen": level, "by": "auto", **evidence}
    else:
        level = int(cfg.section_level)
    skipped: list[SkippedRange] = []
    sections = tuple(heading_sections(blocks, level, cfg, title, skipped))
    return Grouping(sections, tuple(skipped), (), decisions)


def heading_sections(  # noqa: C901 (one pass over the blocks holding the open section's state; a branch a case)
    blocks: Iterable[Block], level: int, cfg: ChunkerConfig, title: str, skipped: list[SkippedRange]
) -> Iterator[Section]:
    """:func:`by_headings`' sections at ``level``, each as soon as it closes (the heading that opens
    the next one, or the end, is read); the ranges left out are appended to ``skipped`` as they
    close, in source order with the sections."""
    skip = _skip_options(cfg)
    current: list[Block] = []
    current_title = title
    current_level = 0
    subtree: list[Block] = []
    """The blocks of a skipped heading's subtree, while inside it."""
    subtree_reason = ""
    seen = 0
    """Blocks read so far."""
    resumed: list[int] = []
    """The line of the headings an editor note was left out with, until the section after them closes."""
    comment: list[Block] = []
    """The blocks of an Obsidian comment (``skip_comments``) spanning several, while it is open."""
    opened_at = 0
    """The line of the heading that opened the current section (0: none did)."""
    read_path: tuple[Heading, ...] = ()
    """The heading path of the last block read whose path holds that heading (paths are shared tuples)."""
    kept = False
    """Whether the current section, opened by no heading, goes on after an element closed (never pre-heading)."""

    def close() -> Section | None:
        if not current:
            return None
        context = resumed[0] if resumed else None
        section = _section(current, current_title, current_level, cfg, skipped, context, kept)
        current.clear()
        resumed.clear()
        return section

    for block in blocks:
        seen += 1
        if comment and (yield from _in_comment(block, comment, current, close, skipped, resumed)):
            continue
        if subtree:
            if (block.kind != "heading" or block.heading_level > subtree[0].heading_level) and _under(
                block, subtree[0].header_path[-1].line
            ):
                subtree.append(block)
                continue
            skipped.append(skip_range(subtree, subtree_reason))
            subtree = []
        if (
            opened_at
            and block.header_path is not read_path
            and (block.kind != "heading" or block.heading_level > level)
        ):
            if _under(block, opened_at):
                read_path = block.header_path
            else:  # the element the section's heading sat in closed: the section of the headings above it
                if (section := close()) is not None:
                    yield section
                outer = next((h for h in reversed(block.header_path) if h.level <= level), None)
                current_title, current_level = (outer.text, outer.level) if outer else (title, 0)
                opened_at = outer.line if outer else 0
                read_path, kept = block.header_path, outer is None
                resumed[:] = [outer.line] if outer else []
        if block.kind == "heading" and (option := _skipped(skip, _heading_text(block))):
            # the heading and every deeper heading up to the next one of its level or higher
            if (section := close()) is not None:
                yield section
            subtree = [block]
            subtree_reason = f"section '{_heading_text(block)}' is in {option}"
            if block.heading_level <= level:
                current_title, current_level = _heading_text(block), block.heading_level
                opened_at, kept = 0, False
        elif block.kind == "heading" and block.heading_level <= level:
            resumed.clear()  # a new section: the headings of an earlier one name nothing of it
            # a parent heading with no body of its own opens this section
            carry = _carried(current, current_level, block.heading_level, cfg) or _title_line(current, seen, block)
            carried = list(current) if carry else []
            if not carried and (section := close()) is not None:
                yield section
            current[:] = [*carried, block]
            current_title = _heading_text(block)
            current_level = block.heading_level
            opened_at, read_path, kept = block.header_path[-1].line, block.header_path, False
        elif (note := note_reason(block, cfg)) is not None:
            yield from _left_out([block], note, current, close, skipped, resumed)
        else:  # an Obsidian comment that goes on past this block waits for the block closing it
            (comment if cfg.skip_comments and opens_comment(block) else current).append(block)
    current.extend(comment)
    if subtree:
        skipped.append(skip_range(subtree, subtree_reason))
    if (section := close()) is not None:
        yield section


def _section(
    blocks: list[Block],
    title: str,
    level: int,
    cfg: ChunkerConfig,
    skipped: list[SkippedRange],
    context_from: int | None = None,
    kept: bool = False,
) -> Section | None:
    """The section of ``blocks``, or None with their range appended to ``skipped``: text before the first
    heading under ``skip_pre_heading``, a section of build-time macros only (:func:`chunker.filler.macro_section`)."""
    if level == 0 and cfg.skip_pre_heading and not kept:
        skipped.append(skip_range(blocks, "text before the first heading (skip_pre_heading)"))
        return None
    if level and macro_section(blocks):
        skipped.append(skip_range(blocks, f"section '{title}' holds build-time macros only"))
        return None
    return Section(title, tuple(blocks), level, context_from=context_from)


def _left_out(
    note_blocks: list[Block],
    note: str,
    current: list[Block],
    close: Callable[[], Section | None],
    skipped: list[SkippedRange],
    resumed: list[int],
) -> Iterator[Section]:
    """Leave out the editor note of ``note_blocks`` (one block, or the blocks of an Obsidian comment). A chunk
    is one slice of the source: the section goes on after the note as a new one, whose chunks name its heading
    in their context line; headings right above the note are left out with it rather than make a chunk end
    with a heading alone (the section
    before them closes without them: Kubernetes' ``### azureDisk (removed)`` over ``<!-- maintenance note:
    ... -->`` over its text ended a chunk, its text the next one's), and they name the context of the
    chunks after the note (``resumed``: the line of the first of them)."""
    body = len(current)
    while body and current[body - 1].kind == "heading":
        body -= 1
    if body < len(current):
        headings = current[body:]
        del current[body:]
        if (section := close()) is not None:
            yield section
        skipped.append(skip_range([*headings, *note_blocks], f"{note}, with the heading above it"))
        resumed[:] = resumed or [headings[0].start_line]
        return
    if (section := close()) is not None:
        yield section
    skipped.append(skip_range(note_blocks, note))


def _in_comment(
    block: Block,
    comment: list[Block],
    current: list[Block],
    close: Callable[[], Section | None],
    skipped: list[SkippedRange],
    resumed: list[int],
) -> Generator[Section, None, bool]:
    """Whether ``block`` is part of the open Obsidian comment of ``comment`` (its blocks so far), which is left out
    as a note once a block closes it (:func:`chunker.notes.closes_comment`). A block it cannot be read over
    ends it as text: its blocks go to ``current``, and ``block`` is read as any other."""
    closed = closes_comment(block)
    if closed is None:
        current.extend(comment)
        comment.clear()
        return False
    comment.append(block)
    if closed:
        yield from _left_out(list(comment), COMMENT, current, close, skipped, resumed)
        comment.clear()
    return True


def _carried(current: list[Block], current_level: int, opening_level: int, cfg: ChunkerConfig) -> bool:
    """Whether the blocks so far go with the section a heading of ``opening_level`` opens: parent
    headings with no body, or filler only (also before the first heading, unless that is skipped)."""
    if current_level and carry_headings(current, opening_level):
        return True
    return (bool(current_level) or not cfg.skip_pre_heading) and carry_filler(current, opening_level, current_level)


def _title_line(current: list[Block], seen: int, block: Block) -> bool:
    """Whether ``current`` is the document's first block, an H1 with no body, and ``block`` (the
    second) an H1 too: a title line over sections written as H1s (``# Roadmap 2021`` right over
    ``# Summary``), the document's title (:class:`chunker.title.TitleFinder`). It goes with the
    first section rather than make a chunk of a heading alone."""
    return (
        seen == 2
        and len(current) == 1
        and current[0].kind == "heading"
        and current[0].heading_level == 1
        and block.heading_level == 1
    )


def _skipped(skip: dict[str, str], text: str) -> str | None:
    """The option that lists the heading ``text`` (:func:`_skip_options`), or None. The normalised
    text is a part of the text in NFC, case-folded (the numbering and punctuation around it removed,
    and case folding maps each character alone): a heading holding none of the listed texts is not
    normalised (over the corpus's 16,780 headings 19 -> 12 ms)."""
    if not skip:
        return None
    folded = unicodedata.normalize("NFC", text).casefold()
    if not any(key in folded for key in skip):
        return None
    return skip.get(normalise_heading(text))


def _under(block: Block, line: int) -> bool:
    """Whether the heading on ``line`` is in ``block``'s heading path (the element it sat in has not closed:
    :mod:`chunker.scopes`)."""
    return any(h.line == line for h in block.header_path)


def _heading_text(block: Block) -> str:
    return block.header_path[-1].text if block.header_path else ""


def _skip_options(cfg: ChunkerConfig) -> dict[str, str]:
    """Normalised heading text -> the option that lists it (``excluded_section_headings`` wins)."""
    options = {normalise_heading(h): "skip_headings" for h in cfg.skip_headings}
    options.update({normalise_heading(h): "excluded_section_headings" for h in cfg.excluded_section_headings})
    return options
