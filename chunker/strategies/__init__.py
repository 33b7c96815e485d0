"""Grouping of blocks into sections: the units chunks never cross.

A strategy takes the blocks of a document and returns its sections (and the
ranges it leaves out). The packer then packs each section on its own. One module
per strategy (``headings.py``, ``faq.py``, ``pages.py``; ``recursive`` and ``off``
are here), one table :data:`STRATEGIES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from chunker.config import ChunkerConfig, StrategyName
from chunker.models import Block, Diagnostic
from chunker.parse import ParsedDocument
from chunker.strategies.faq import faq
from chunker.strategies.headings import by_headings
from chunker.strategies.pages import pages
from chunker.strategies.sections import Grouping, Section, Strategy, skip_range

__all__ = ["STRATEGIES", "Grouping", "Section", "Strategy"]


def recursive(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    """No sections: the whole document is one run of blocks, which the packer cuts at the strongest
    boundary in reach (heading > block > item/row > sentence > word), toward target, never over max."""
    return Grouping((Section(title, tuple(blocks), 0),) if blocks else ())


def off(blocks: Sequence[Block], doc: ParsedDocument, cfg: ChunkerConfig, title: str) -> Grouping:
    skipped = (skip_range(blocks, "strategy off"),) if blocks else ()
    return Grouping((), skipped, (Diagnostic("info", "strategy-off", "strategy 'off': document not chunked"),))


STRATEGIES: MappingProxyType[StrategyName, Strategy] = MappingProxyType(
    {"headings": by_headings, "recursive": recursive, "faq": faq, "pages": pages, "off": off}
)
