"""Where in a list, quote or container block no piece may start: no re-opening of its containers could
make a piece starting there render as the source does.

Inside a heading nested in the block, a fence's opening or closing line, display math, a nested
admonition's or container's title line and a ``:::`` closing line, a definition's term and marker, a
footnote's label, an HTML block or table nested in it but at the lines where a piece of them renders
as they do (:func:`chunker.pack.nested.leaf_lines`), and a term a piece would read as another block
(:meth:`PieceStarts.read_first`). :meth:`PieceStarts.uncut` answers for an offset; what a piece
starting elsewhere re-opens is :mod:`chunker.pack.reopen`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from chunker.outline import LineToken
from chunker.pack.containers import DEFINITION, FENCED, FOOTNOTE, lines_of
from chunker.pack.content_columns import ContentColumns
from chunker.pack.nested import leaf_lines

_TITLED = frozenset({"admonition_open", *FENCED})
"""Containers opened by a title line (``!!! note``, ``:::tip``): no piece starts inside it (its marker cut)."""
_MATH = frozenset({"math_block", "math_block_eqno", "math_block_label"})
"""Display math (``$$`` ... ``$$``): a piece starting inside it leaves its ``$$`` behind and is text."""
_READ_FIRST = re.compile(
    r"\[[^\]\n]*\]:|#{1,6}(?:[ \t]|$)|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|[>|<]|```|~~~"
    r"|\$(?!\$\$[\w.-]{1,128}\$\$\$)|(?:[*_-][ \t]*){3,}$|!!!|\?\?\?|===|:::|///"
)
"""The start of a line that a block rule run before the definition list's reads (footnote or link
definition, heading, list item, quote, table, HTML, math but for an inline anchor of docs-builder,
``$$$name$$$`` (:data:`chunker.parse.plugins.INLINE_ANCHOR`), fence, rule, admonition, container)."""


class PieceStarts(ContentColumns):
    """A block's containers and their content columns (:class:`ContentColumns`), and the lines and
    columns where no piece may start."""

    def __init__(self, text: str, tokens: Sequence[LineToken]) -> None:
        super().__init__(text, tokens)
        self.labels = {
            f: self.lines[f].find("]:") + 2 for f, t in zip(self.firsts, self.opens, strict=True) if t.type == FOOTNOTE
        }
        """The first line of each footnote in the block, and the column past its label's ``]:``."""
        self.headings = [lines_of(t) for t in tokens if t.type == "heading_open" and t.map is not None]
        """Line ranges of the headings nested in the block (an outliner's ``- ## Usage`` in a list item)."""
        self.whole_lines = list(self.headings)
        """Line ranges no piece may start inside: headings, a fence's opening and closing lines, display
        math, a nested admonition's or container's title line and closing line, a definition's term,
        and HTML blocks and tables nested in the
        block but at the lines where a piece of them renders as they do (:func:`chunker.pack.nested.leaf_lines`)."""
        self.whole_lines += [(a, a + 1) for a, _ in self.fences] + [(b - 1, b) for a, b in self.fences if b - a > 1]
        self.whole_lines += [lines_of(t) for t in tokens if t.type in _MATH and t.map is not None]
        titled = zip(self.open_starts, self.opens, strict=True)
        self.whole_lines += [(a, a + 1) for a, t in titled if a and t.type in _TITLED]  # not the block's own
        self.whole_lines += [(a, a + 1) for a in (*self.closers, *self.terms)]  # a term: one line, like a heading
        leaves, self.table_heads = leaf_lines(tokens, self.lines)
        self.whole_lines += leaves
        self.whole_lines.sort()
        self.whole_starts = [a for a, _ in self.whole_lines]
        self._read_first: frozenset[int] | None = None

    def uncut(self, offset: int) -> bool:
        """Whether no piece may start at ``offset``: inside a heading nested in the block (or a
        fence line), past the start of its text (a piece starting there would cut a heading's text,
        or a setext heading's text from its underline, a fence's marker run, and both parts would
        render as something else); at a ``:::`` line closing a container (it goes with what it
        closes); at a definition's marker (its term would end the piece before, alone); inside a
        footnote's label (``[^4]:``); at a term
        read as another block at a piece's start (:meth:`read_first`)."""
        line, column = self.position(offset)
        text = self.lines[line]
        at_text = column <= len(text) - len(text.lstrip(" \t>"))
        if at_text and (line in self.closers or line in self.definitions or line in self.read_first()):
            return True
        label = self.labels.get(line)
        if label is not None and 0 <= text.rfind("[^", 0, label) < column < label:
            return True  # inside a footnote's label: the part before it would be no label
        if not self.whole_lines:
            return False
        k = bisect_right(self.whole_starts, line) - 1  # the ranges do not overlap
        if k < 0 or line >= self.whole_lines[k][1]:
            return False
        return line > self.whole_lines[k][0] or not at_text

    def read_first(self) -> frozenset[int]:
        """Lines of the terms after the first of their list that a piece starting there would read as
        another block (``[^1]: x``, ``- x``, ``# x`` over ``:   its definition``; in a piece, a setext
        heading's text over a line of ``-`` before the next blank line): the list's own loop
        takes any line over a definition's marker as its next term, a piece's parse runs the rules
        before the definition list's first. No piece starts at one (:meth:`uncut`), nor re-opens one."""
        if self._read_first is None:
            lines = []
            for line in self.later_terms:
                chain = self.chain(line)
                for k in chain:  # the content columns of the items around it, from their first lines
                    first = self.first_line(k)
                    if k not in self.content and self.opens[k].type in ("list_item_open", DEFINITION):
                        self.walk(first, [j for j in chain if self.first_line(j) <= first])
                content = self.walk(line, chain)
                if content is not None and self._read_otherwise(line, content):
                    lines.append(line)
            self._read_first = frozenset(lines)
        return self._read_first

    def _read_otherwise(self, line: int, content: int) -> bool:
        """Whether term ``line`` (its container's content at column ``content``) starts another block
        on its own: a line :data:`_READ_FIRST` matches, or indented code (4 columns past ``content``:
        the list's loop takes such a term, a piece's first line is code, and so is its marker's)."""
        text = self.lines[line]
        indent = len(text) - content - len(text[content:].lstrip(" "))
        return indent >= 4 or _READ_FIRST.match(text, content + indent) is not None
