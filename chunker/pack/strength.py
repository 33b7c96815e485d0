"""Boundary strengths and the unit the packer cuts between.

A section is cut into units (blocks, or the pieces of an oversize block); the boundary before a
unit has a strength, and the packer cuts at the strongest boundary in reach:
sub-heading > block > item/row/line > sentence > word > hard cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from chunker.models import TAB_LEVEL, Block


class Strength(IntEnum):
    """Strength of the boundary before a unit: the packer cuts at the strongest one in reach."""

    HARD = 0
    """A cut where nothing better is in reach (inside a word)."""
    WORD = 2
    CODE_LINE = 3
    """Between two lines of code (or of a code fence nested in a list item)."""
    SENTENCE = 4
    """Between sentences; also a paragraph inside a list item."""
    CODE_LINE_LOW_INDENT = 5
    """Before a code line at the block's lowest indentation."""
    NESTED_ITEM = 5
    """Before an item of a list nested in a list item (an alias of CODE_LINE_LOW_INDENT)."""
    INTRODUCED_PIECE = 5
    """Before the first piece of a split list or table that a lead-in introduces: weaker than the
    joints inside it, so the lead-in goes with its first items (an alias of CODE_LINE_LOW_INDENT)."""
    JOINT = 6
    """Before a list item, a table body row, a code line after a blank line."""
    INTRODUCED = 8
    """Before a block that a paragraph ending with ':' introduces ("For example:")."""
    BLOCK = 10
    """Between two blocks."""
    BEFORE_MARKUP = 11
    """Before an HTML block too large for one chunk: its pieces are markup, which would dilute the prose
    before it, so a chunk of at least min_chars ends here rather than inside it (like before a sub-heading)."""
    HEADING_6 = 14
    HEADING_5 = 15
    HEADING_4 = 16
    HEADING_3 = 17
    HEADING_2 = 18
    HEADING_1 = 19
    """Before a heading: the higher its level, the stronger."""


BEFORE_HEADING: dict[int, Strength] = {
    1: Strength.HEADING_1,
    2: Strength.HEADING_2,
    3: Strength.HEADING_3,
    4: Strength.HEADING_4,
    5: Strength.HEADING_5,
    6: Strength.HEADING_6,
    TAB_LEVEL: Strength.HEADING_6,
}
"""Strength before a heading of level 1..6 (and a docfx tab heading, :data:`chunker.models.TAB_LEVEL`)."""

# The members as module constants (as ``re`` exports ``RegexFlag``'s): a global lookup instead of
# an attribute lookup on the enum class, which takes ~130 ns per access in the packer's inner loops.
HARD = Strength.HARD
WORD = Strength.WORD
CODE_LINE = Strength.CODE_LINE
SENTENCE = Strength.SENTENCE
CODE_LINE_LOW_INDENT = Strength.CODE_LINE_LOW_INDENT
NESTED_ITEM = Strength.NESTED_ITEM
JOINT = Strength.JOINT
INTRODUCED = Strength.INTRODUCED
INTRODUCED_PIECE = Strength.INTRODUCED_PIECE
BLOCK = Strength.BLOCK
BEFORE_MARKUP = Strength.BEFORE_MARKUP


@dataclass(slots=True, kw_only=True)
class Unit:
    """A piece of a section the packer never cuts: ``source[start:end]`` of ``block``."""

    start: int
    end: int
    block: Block
    strength: Strength
    """Strength of the boundary before this unit."""
    glue: bool = False
    """Must not be the last unit of a chunk (a heading, a table header)."""
    first: bool = True
    """Starts its block."""
    last: bool = True
    """Ends its block."""
    silent: bool = False
    """Link reference definitions that fit with no neighbour, carried by the chunk before (or after)
    without counting toward its size: in its ``content_original``, not in its ``content_for_embedding``
    (:func:`chunker.pack.junk.absorb_junk`)."""
