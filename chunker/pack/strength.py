"""Boundary strengths and the unit the packer cuts between.

A section is cut into units (blocks, or the pieces of an oversize block); the boundary before a
unit has a strength, and the packer cuts at the strongest boundary in reach:
sub-heading > block > item/row/line > sentence > word > hard cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunker.models import Block

# Strength of the boundary before a unit: the packer cuts at the strongest one in reach.
HEADING_BASE = 20  # before a heading of level L: HEADING_BASE - L
BLOCK = 10
INTRODUCED = 8  # a block after a paragraph ending with ':' that introduces it ("For example:")
JOINT = 6  # list item, table row, code line after a blank line
CODE_LINE_LOW_INDENT = 5
SENTENCE = 4
CODE_LINE = 3
WORD = 2
HARD = 0


@dataclass(slots=True)
class Unit:
    """A piece of a section the packer never cuts: ``source[start:end]`` of ``block``."""

    start: int
    end: int
    block: Block
    strength: int
    """Strength of the boundary before this unit."""
    glue: bool = False
    """Must not be the last unit of a chunk (a heading, a table header)."""
    first: bool = True
    """Starts its block."""
    last: bool = True
    """Ends its block."""
