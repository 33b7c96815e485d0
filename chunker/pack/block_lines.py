"""What lies where inside the blocks of one section being packed, by line: the lookups the splitters make.

A list, quote or container block is read once, on the first piece that needs it, into its
:class:`~chunker.pack.reopen.Structure` (from the block's outline, or a parse of the block:
:func:`~chunker.pack.reopen.block_structure`). From it come the lines (0 = the block's first) where
a list item, an HTML or JSX block, a fenced code block, a table, a table's body row, a nested
container or code written as template tags opens; the fences' line ranges; where the blocks nested
in it start (:class:`chunker.pack.nested.InnerStarts`); the offset ranges of its HTML lines and of
its nested tables. :meth:`BlockLines.line_at` numbers the lines of offsets inside a block, counting on
from the previous lookup. What a piece adds to fit (its budget, the text it re-opens) is
:mod:`chunker.pack.budget`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.fence_lines import html_ranges
from chunker.models import Block
from chunker.outline import LineToken
from chunker.pack.nested import InnerStarts
from chunker.pack.reopen import Structure, block_structure
from chunker.pack.tables import nested_spans

_BLANK_LINE = re.compile(r"\n[ \t>]*(?:\n|$)")
"""The end of a line before a blank one (a quote's ``>`` alone is blank)."""
_FOLLOWING_MAX = 4096
"""Characters after a block at most read for :attr:`~chunker.pack.reopen.Structure.following`."""

REOPENED = frozenset({"list", "blockquote", "container"})
"""Kinds whose pieces re-open the containers they start inside: containers re-open their title line
(a definition list, which has none, the term and marker of the definition a piece starts in)."""


class BlockLines:
    """The structure of each list, quote or container block of a section, and the lines inside a
    block where what is nested in it opens (each read once per block)."""

    def __init__(self, source: str, cfg: ChunkerConfig) -> None:
        self.source = source
        self.cfg = cfg
        self.structures: dict[int, Structure | None] = {}
        """The parse of each container block a piece starts inside (by its start offset)."""
        self.inner: dict[int, InnerStarts | None] = {}
        """Where blocks nested in a container block start (by its start offset): for a container in it."""
        self.html_memo: dict[int, list[tuple[int, int]]] = {}
        """The ranges of each block's HTML lines (:func:`chunker.fence_lines.html_ranges`)."""
        self.env: Callable[[], dict[str, Any] | None] | None = None
        """The environment of a parse of a part of the source (:func:`chunker.parse.templates.page_env`)."""
        self.block_parse: Callable[[str], Sequence[LineToken]] | None = None
        """The parse of a block's text alone (:func:`chunker.parse.pulldown_outline.block_parse`), made once."""
        self.line_memo: tuple[int, int, int] = (-1, 0, 0)
        """(block start offset, offset, line) of the last ``line_at`` lookup: pieces of one split
        block are numbered in order, so counting on from there keeps it linear."""

    def structure(self, block: Block) -> Structure | None:
        """The structure of a list, quote or container block (once per block); None when too large."""
        if block.start_offset not in self.structures:
            line_start = self.source.rfind("\n", 0, block.start_offset) + 1
            text = self.source[line_start : block.end_offset]
            end = block.end_offset
            blank = _BLANK_LINE.search(self.source, end, end + _FOLLOWING_MAX)
            following = self.source[end + 1 : blank.start() if blank else end + _FOLLOWING_MAX]
            self.structures[block.start_offset] = block_structure(text, block.outline, self._parse, following)
        return self.structures[block.start_offset]

    def parse_text(self, text: str) -> list[Token]:
        """markdown-it-py's block tokens of ``text`` alone, parsed as the document is (MDX or not)."""
        from chunker.parse.markdown import syntax_parser
        from chunker.parse.templates import page_env

        if self.env is None:
            self.env = page_env(self.source)
        return syntax_parser(self.cfg.max_nesting, self.cfg).parse(text, self.env())

    def _parse(self, text: str) -> Sequence[LineToken]:
        if self.block_parse is None:
            from chunker.parse.pulldown_outline import block_parse

            self.block_parse = block_parse(self.cfg, self.source)
        return self.block_parse(text)

    def nested_tables(self, block: Block) -> list[tuple[int, int]]:
        """The source ranges of the tables nested in a list, quote or container ``block``."""
        structure = self.structure(block) if block.kind in REOPENED else None
        return nested_spans(self.source, block, structure.tokens) if structure is not None else []

    def html(self, block: Block) -> list[tuple[int, int]]:
        """:func:`chunker.fence_lines.html_ranges` of ``block`` (once per block; the tokens of a list,
        quote or container from its structure)."""
        found = self.html_memo.get(block.start_offset)
        if found is None:
            structure = self.structure(block) if block.kind in REOPENED or block.frame is not None else None
            found = html_ranges(self.source, block, structure.tokens if structure is not None else None)
            self.html_memo[block.start_offset] = found
        return found

    def item_lines(self, block: Block) -> frozenset[int] | None:
        """Lines (0 = the block's first) where a list item of ``block`` opens; None when unknown."""
        structure = self.structure(block)
        return structure.items if structure is not None else None

    def html_lines(self, block: Block) -> frozenset[int] | None:
        """Lines (0 = the block's first) where an HTML or JSX block inside ``block`` starts; None
        when unknown."""
        return self._token_lines(block, "html_block")

    def fence_lines(self, block: Block) -> frozenset[int] | None:
        """Lines (0 = the block's first) where a fenced code block inside ``block`` opens; None
        when unknown."""
        return self._token_lines(block, "fence")

    def table_lines(self, block: Block) -> frozenset[int] | None:
        """Lines (0 = the block's first) where a table inside ``block`` starts; None when unknown."""
        return self._token_lines(block, "table_open")

    def row_lines(self, block: Block) -> frozenset[int]:
        """Lines (0 = the block's first) where a body row of a table inside ``block`` starts (none
        when unknown)."""
        structure = self.structure(block)
        if structure is None:
            return frozenset()
        rows: set[int] = set()
        body = False
        for token in structure.tokens:
            if token.type in ("tbody_open", "tbody_close"):
                body = token.type == "tbody_open"
            elif body and token.type == "tr_open" and token.map is not None:
                rows.add(token.map[0])
        return frozenset(rows)

    def _token_lines(self, block: Block, token_type: str) -> frozenset[int] | None:
        structure = self.structure(block)
        if structure is None:
            return None
        return frozenset(t.map[0] for t in structure.tokens if t.type == token_type and t.map is not None)

    def tag_code_lines(self, block: Block) -> frozenset[int]:
        """Lines (0 = the block's first) inside code written as template tags nested in ``block``, its
        tag lines aside (:mod:`chunker.parse.templates`)."""
        structure = self.structure(block)
        if structure is None:
            return frozenset()
        return frozenset(k for a, b in structure.tag_fences for k in range(a + 1, b - 1))

    def fence_ranges(self, block: Block) -> list[tuple[int, int]] | None:
        """The fenced code blocks nested in ``block`` as the parse has them: their line ranges (0 = the
        block's first line, end exclusive: a fence that its list item or quote ends stops there, where a
        scan of the text reads on); None when unknown."""
        structure = self.structure(block)
        return None if structure is None else structure.fences

    def container_at(self, block: Block, offset: int) -> bool:
        """Whether a container (admonition, content tab, ``:::`` or ``///`` block) nested in
        ``block`` opens on the line of ``offset``."""
        inner = self._inner(block)
        return self.on_lines(inner.titled if inner is not None else None, offset, block)

    def inner_starts(self, block: Block, start: int, end: int) -> list[tuple[int, bool, bool]]:
        """The lines of ``block`` after the one of ``start``, up to ``end``, where a block nested in it
        opens or a line of its nested code starts, as (offset, a code line?, after a blank line?)."""
        inner = self._inner(block)
        if inner is None:
            return []
        base = self.source.rfind("\n", 0, block.start_offset) + 1
        return [(base + offset, code, blank) for offset, code, blank in inner.between(start - base, end - base)]

    def _inner(self, block: Block) -> InnerStarts | None:
        """The starts of the blocks nested in ``block`` (once per block)."""
        if block.start_offset not in self.inner:
            structure = self.structure(block)
            self.inner[block.start_offset] = InnerStarts(structure) if structure is not None else None
        return self.inner[block.start_offset]

    def on_lines(self, lines: frozenset[int] | None, offset: int, block: Block) -> bool:
        """Whether ``offset`` lies on one of ``lines`` of ``block`` (0 = its first line; None, lines not
        known: no)."""
        return lines is not None and self.line_at(offset, block) - block.start_line in lines

    def line_at(self, offset: int, block: Block) -> int:
        """1-based line of ``offset`` inside ``block``; counts on from the previous lookup in the same
        block (a 10 MB paragraph cut into thousands of pieces must not be rescanned for each)."""
        memo_block, memo_offset, memo_line = self.line_memo
        if memo_block != block.start_offset or offset < memo_offset:
            memo_offset, memo_line = block.start_offset, block.start_line
        line = memo_line + self.source.count("\n", memo_offset, offset)
        self.line_memo = (block.start_offset, offset, line)
        return line
