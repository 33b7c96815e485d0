"""Oversize containers, lists and quotes, split at their joints (inner blocks, list items).

A container's title line sticks to its first piece and is repeated before every other piece; a
piece still over budget is cut by what it holds (:mod:`chunker.pack.split_children`); a list item
still over budget is cut inside it like paragraphs (:mod:`chunker.pack.split_items`). Tables:
:mod:`chunker.pack.split_table`.
"""

from __future__ import annotations

import re

from chunker.models import Block
from chunker.pack.budget import SectionSpace
from chunker.pack.repeats import repeated_after
from chunker.pack.split_children import cut_piece, split_nested
from chunker.pack.split_items import split_item
from chunker.pack.split_text import split_text
from chunker.pack.strength import JOINT, SENTENCE, Strength, Unit


def split_container(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """An admonition, ``:::`` container or ``<details>`` over budget: between its inner blocks, the
    title line sticking to the first; every other piece repeats the title line (and the closing
    line), declared as added text, so that it renders as the container. A definition list is not cut
    before a term a piece would read as another block (:meth:`chunker.pack.piece_starts.PieceStarts.read_first`)."""
    joints = block.joints if block.frame is not None else [j for j in block.joints if space.can_start(block, j)]
    if joints:
        glue = _titled(space, block)
        split_at(space, out, block, [block.start_offset, *joints], strength, JOINT, glue_first=glue)
    elif block.frame is None:
        split_nested(space, out, block, block.start_offset, block.end_offset, strength, True, True)
    else:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True)


def _titled(space: SectionSpace, block: Block) -> bool:
    """Whether the first piece of a container cut at its joints is its title line (an admonition's,
    a ``:::`` line), which sticks to what follows: not a definition list's first term and
    definition, nor a footnote's label line holding its first paragraph (content of their own:
    glued, the headings above took the second piece along, an overflow chunk where a cut before
    the second term fitted)."""
    if block.frame is None:
        return False
    label = block.frame[0]
    return not (label.startswith("[^") and space.source[block.start_offset : block.joints[0]].strip() != label)


_DEFINITION = re.compile(r"^[ ]{0,3}\[(?:[^\]\\\n]|\\.)++\]:", re.MULTILINE)
"""The start of a link reference definition (``[label]:``; its URL may be on the next line)."""


def split_raw(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """Lines the parser made no block of (link reference definitions, mostly): between
    definitions, never between a label and its URL; other text like a paragraph."""
    text = block.content
    cuts = [block.start_offset + m.start() for m in _DEFINITION.finditer(text) if m.start()]
    if not _DEFINITION.match(text) or not cuts:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True, force=True)
        return
    split_at(space, out, block, [block.start_offset, *cuts], strength, JOINT)


def split_list(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    if block.joints:
        split_at(space, out, block, [block.start_offset, *block.joints], strength, JOINT)
    else:
        split_item(space, out, block, block.start_offset, block.end_offset, strength, True, True)


def split_at(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    cuts: list[int],
    strength: Strength,
    joint: Strength,
    glue_first: bool = False,
) -> None:
    """Pieces between the ``cuts`` (offsets in ``block``); one over budget is cut further."""
    bounds = [*cuts, block.end_offset + 1]
    for k in range(len(cuts)):
        start, end = bounds[k], bounds[k + 1] - 1
        piece_strength = strength if k == 0 else joint
        first, last = k == 0, k == len(cuts) - 1
        reserve = space.added_at(block, start) + (len(repeated_after(block)) + 4 if not last else 0)
        n0 = len(out)
        cut_piece(space, out, block, start, end, piece_strength, first, last, reserve, glue_first and first)
        if glue_first and k == 1 and out[n0 - 1].glue:
            _after_lead(space, out, n0, block, start, reserve)


def _after_lead(space: SectionSpace, out: list[Unit], n0: int, block: Block, start: int, reserve: int) -> None:
    """The first unit of the inner block after a container's title (``out[n0 - 1]``, glued to what
    follows it) cut again where it does not fit after the title itself: the pieces are sized for the
    title their later pieces repeat, which is shortened when long (:mod:`chunker.pack.titles`). Where
    not even a sentence fits after the title, the title is a piece of its own."""
    frame = block.frame
    if frame is None or n0 >= len(out) or space.added_before(block) >= space.measure(frame[0]):
        return  # the title is repeated whole: the pieces are sized for it
    lead, title = out[n0 - 1], space.added_at(block, start)
    extra = space.span(lead.start, start) - title
    unit = out[n0]
    if space.span(lead.start, unit.end) + reserve - title <= space.budget:
        return
    pieces: list[Unit] = []
    split_text(space, pieces, block, unit.start, unit.end, unit.strength, unit.first, unit.last, reserve=extra)
    if len(pieces) > 1 and pieces[1].strength < SENTENCE:
        lead.glue = False  # not even a sentence fits after the title: it is a piece of its own
        return
    rest: list[Unit] = []
    if len(pieces) > 1:
        split_text(space, rest, block, pieces[1].start, unit.end, pieces[1].strength, False, unit.last)
    out[n0 : n0 + 1] = [pieces[0], *rest]


def split_quote(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """A block quote over budget: one holding code is cut before the blocks nested in it, then between
    the lines of its code (cut like text, a piece ended inside a line of its code); any other like a
    paragraph, at sentences."""
    if "code" in block.inner:
        split_nested(space, out, block, block.start_offset, block.end_offset, strength, True, True)
    else:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True, force=True)
