"""A section's units: its blocks, with every block over budget split into pieces.

Splitting goes by block kind through one read-only table; a block that may not be split (math,
HTML, an atomic block when ``split_oversize`` is off) is kept whole as an overflow unit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import MappingProxyType

from chunker.docfx import directive_lines
from chunker.models import Block, Diagnostic
from chunker.pack.budget import SectionSpace
from chunker.pack.context import join
from chunker.pack.junk import comments_only
from chunker.pack.split_code import split_code
from chunker.pack.split_html import html_frame, split_html
from chunker.pack.split_joints import split_container, split_list, split_quote, split_raw
from chunker.pack.split_table import split_table
from chunker.pack.split_text import split_paragraph, split_text
from chunker.pack.strength import (
    BEFORE_HEADING,
    BEFORE_MARKUP,
    BLOCK,
    INTRODUCED,
    INTRODUCED_PIECE,
    SENTENCE,
    WORD,
    Strength,
    Unit,
)
from chunker.pack.subsections import scope_level
from chunker.parse.esm import mdx_code_block_body
from chunker.rendering_rules import unclosed_comment

Splitter = Callable[[SectionSpace, list[Unit], Block, Strength], None]
"""Appends the units of an oversize block (given the strength of the boundary before it)."""

SPLITTERS: MappingProxyType[str, Splitter] = MappingProxyType(
    {
        "table": split_table,
        "list": split_list,
        "code": split_code,
        "container": split_container,
        "raw": split_raw,
        "blockquote": split_quote,
    }
)
"""Splitter per block kind; every other kind is split like a paragraph."""

_NEVER_SPLIT = ("math", "html")
_REFITTED = frozenset({"paragraph", "list", "blockquote", "container"})
"""Blocks whose first piece is cut again at sentences (or words) where it does not fit after the
headings glued to it: a table's is its header and first row, code's is cut between lines."""
_INTRODUCED_KINDS = frozenset({"list", "table"})
"""Blocks split between their items or rows (when the lead-in and the whole block do not fit
together) so that the paragraph introducing them (``The steps are:``) goes with their first piece;
code is not cut only for that."""


def build_units(space: SectionSpace) -> tuple[list[Unit], list[Diagnostic]]:
    """The units of the section in order, and the overflow warnings of blocks kept whole."""
    units: list[Unit] = []
    diagnostics: list[Diagnostic] = []
    source, span, fits_whole = space.source, space.span, space.fits_whole
    budget = 0 if fits_whole else space.budget
    glued_from: int | None = None  # start of the headings (and opening tags) that stick to the next block
    introduces = False  # the previous block is a paragraph that ends with a colon
    lead_in_from: int | None = None  # start of that paragraph, which should go with the next block
    blocks = space.section.blocks
    for position, block in enumerate(blocks):
        start, end = block.start_offset, block.end_offset
        heading = block.kind == "heading"
        strength = BEFORE_HEADING[block.heading_level] if heading and position else BLOCK
        if (
            position
            and block.header_path is not blocks[position - 1].header_path
            and (level := scope_level(blocks[position - 1], block))
        ):
            strength = BEFORE_HEADING[level]  # an element that headings sat in closed above it: a cut before them
        if introduces and not heading and position:
            strength = INTRODUCED  # cut elsewhere if a block boundary is in reach
        introduces = block.kind == "paragraph" and _ends_with_colon(source, start, end)
        tag = _tag_only(block.content) if block.kind == "html" else _fenced_tags(block)
        if block.kind == "paragraph" and ":::" in source[start : start + 8]:
            tag = directive_lines(block.content)  # docfx's '::: zone pivot="x"' opens, '::: zone-end' closes
        opener = heading or tag == "open"  # sticks to the next block: a heading, a tag that opens elements
        if not fits_whole:
            lead_from = glued_from if glued_from is not None else lead_in_from
            if lead_from is not None and glued_from is None and block.kind not in _INTRODUCED_KINDS:
                lead_from = None  # only a list or table is split to keep its lead-in
            lead = 0 if lead_from is None else span(lead_from, start)
            headed = glued_from is not None
            glued_from = (start if glued_from is None else glued_from) if opener else None
            lead_in_from = start if introduces and not heading else None
            size = span(start, end)
            if size > budget or (
                lead_from is not None
                and lead + size > budget
                and _splittable(space, block)
                and _over_max(space, lead_from, block)
            ):
                first = len(units)
                _split(space, units, diagnostics, block, INTRODUCED_PIECE if strength == INTRODUCED else strength)
                if lead_from is not None and headed and block.kind in _REFITTED:
                    _fit_after_lead(space, units, first, lead_from)
                continue
        if tag == "close" and position:
            strength = WORD  # a closing tag goes with what it closes: cut after it
        units.append(Unit(start=start, end=end, block=block, strength=strength, glue=opener))
    diagnostics.extend(space.notes)
    return units, diagnostics


def _split(
    space: SectionSpace, out: list[Unit], diagnostics: list[Diagnostic], block: Block, strength: Strength
) -> None:
    cfg = space.cfg
    splittable = cfg.split_oversize or not block.atomic
    if block.kind == "html" and splittable and unclosed_comment(space.source, block):
        diagnostics.append(
            Diagnostic(
                "warning",
                "unclosed-html-comment",
                f"an HTML comment opened at line {block.start_line} is never closed ('-->'), so the "
                f"{block.chars} characters after it are one HTML block; it is cut like text",
                line=block.start_line,
            )
        )
        split_paragraph(space, out, block, strength)
        return
    if block.kind == "html" and splittable:
        framed = html_frame(space, block)
        if framed is not None:
            split_html(space, out, framed[0], BEFORE_MARKUP if strength == BLOCK else strength, framed[1])
            return
    if block.kind in _NEVER_SPLIT or not splittable:
        out.append(Unit(start=block.start_offset, end=block.end_offset, block=block, strength=strength))
        if block.kind == "html" and comments_only(space.source, block.start_offset, block.end_offset):
            return  # carried by a neighbour without counting (pack.junk); else the validator reports its chunk
        diagnostics.append(
            Diagnostic(
                "warning",
                "overflow",
                f"{block.kind} block at line {block.start_line} "
                f"{space.too_large(block.chars, space.span(block.start_offset, block.end_offset))} "
                "and is kept whole as an overflow chunk",
                line=block.start_line,
            )
        )
        return
    SPLITTERS.get(block.kind, split_paragraph)(space, out, block, strength)


def _fit_after_lead(space: SectionSpace, units: list[Unit], first: int, lead_from: int) -> None:
    """The first piece of a paragraph (a list's first item, a quote's or definition list's first
    piece, a footnote's label line) split after the headings (or opening tags) glued to it, cut
    again where it does not fit after them: the pieces are sized for the budget alone, and the
    headings with the first one made an overflow chunk (an H2, an 85-character H3 and a first
    sentence of 190 characters at max_chars 400; a changelog's '### Bug Fixes' and a first item of
    links). At a sentence if one fits, else at a word, as any text that does not fit is cut; the
    rest is cut again for the budget alone."""
    unit = units[first] if first < len(units) else None
    if unit is None or unit.glue or unit.block.start_offset != unit.start:
        return  # a container's title line: cut after by the splitter (split_joints._after_lead)
    if space.span(lead_from, unit.end) + space.added_at_end(unit) <= space.budget:
        return
    content = space.source[lead_from : unit.end]
    if space.measure(join(space.context.line(unit.block.header_path, content), "", content)) <= space.cfg.max_chars:
        return  # with the shorter context line of a chunk that starts with its headings, it fits
    noted = len(space.notes)
    pieces: list[Unit] = []
    reserve = space.span(lead_from, unit.start)
    split_text(space, pieces, unit.block, unit.start, unit.end, unit.strength, unit.first, unit.last, reserve=reserve)
    if len(pieces) > 1 and pieces[1].strength < WORD:
        del space.notes[noted:]  # no word fits after the lead (a heading over 2,000 blank lines): no cut
        return  # inside a word ('ZQXSZ' / 'BLANK'); the paragraph stays whole, as any word that fits
    cut = next((k for k in range(1, len(pieces)) if pieces[k].strength >= SENTENCE), len(pieces))
    rest: list[Unit] = []  # from the second sentence on, the pieces sized for the budget alone
    if cut < len(pieces):
        split_text(space, rest, unit.block, pieces[cut].start, unit.end, pieces[cut].strength, False, unit.last)
    if len(pieces) > 1:
        units[first : first + 1] = [*pieces[:cut], *rest]
    known = {(d.code, d.line) for d in space.notes[:noted]}  # a splitter's finding once, not per split
    space.notes[noted:] = [d for d in space.notes[noted:] if (d.code, d.line) not in known]


def _over_max(space: SectionSpace, lead_from: int, block: Block) -> bool:
    """Whether the headings from ``lead_from`` and ``block`` after them, with the context prefix
    a chunk starting there gets, pass max_chars. The budget allows for the section's longest
    prefix; a chunk that starts with its headings often has a shorter one and fits whole."""
    content = space.source[lead_from : block.end_offset]
    prefix = space.context.line(block.header_path, content)
    return space.measure(join(prefix, "", content)) > space.cfg.max_chars


def _splittable(space: SectionSpace, block: Block) -> bool:
    """Whether the block may be cut into pieces (it fits alone but not after its headings)."""
    if block.kind in ("math", "html", "heading", "thematic_break"):
        return False
    return space.cfg.split_oversize or not block.atomic


_TAG = re.compile(r"\s*<(/?)[A-Za-z][\w.:-]*(?:\s[^<>]*)?>\s*")


def _fenced_tags(block: Block) -> str:
    """:func:`_tag_only` of the lines inside a Docusaurus ``mdx-code-block`` fence (JSX the site renders,
    not code: ```mdx-code-block, ``</TabItem>``, ``<TabItem value="yarn">``, ```); "" for other code."""
    body = mdx_code_block_body(block) if block.kind == "code" else None
    return _tag_only(body) if body else ""


def _tag_only(text: str) -> str:
    """For an HTML block of tags only: ``open`` when its last tag opens an element (``<div
    class="x">``, ``</div>\n<div class="y">``, ``<DeepDive>``): it sticks to what follows;
    ``close`` when all its tags close (``</div>``): a cut goes after it; else ""."""
    if len(text) > 200:
        return ""
    pos, closing, last_open = 0, True, False
    while pos < len(text):
        match = _TAG.match(text, pos)
        if match is None:
            return ""
        last_open = not match.group(1) and not match.group().rstrip().endswith("/>")
        closing = closing and bool(match.group(1))
        pos = match.end()
    return "open" if last_open else ("close" if closing else "")


def _ends_with_colon(source: str, start: int, end: int) -> bool:
    """Whether source[start:end] ends with a colon, trailing whitespace aside."""
    while end > start and source[end - 1].isspace():
        end -= 1
    return end > start and source[end - 1] in ":："
