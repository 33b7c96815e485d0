"""Where the content of the containers a line of a block lies in starts: the columns of CommonMark's
list items (marker, then 1-4 spaces) and quotes, and of mdit-py-plugins' footnotes, definitions and
admonitions.

:meth:`ContentColumns.walk` reads a line's containers (:meth:`~chunker.pack.containers.Containers.chain`)
outermost first and records, on an item's or definition's first line, the column its later lines are
indented to (the innermost quote's content counted apart: a quote's ``>`` may stand at another column
on a later line). Columns are those of the line as :class:`~chunker.pack.containers.Containers` keeps
it, the tabs of its indentation expanded. What reads them: the places no piece may start
(:mod:`chunker.pack.piece_starts`) and what a piece re-opens (:mod:`chunker.pack.reopen`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.outline import LineToken
from chunker.pack.containers import DEFINITION, FENCED, FOOTNOTE, Containers, lines_of
from chunker.parse.mdc import opening_run

_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?|===[+!]?)( *)")
"""An admonition's or content tab's marker and the spaces after it."""


class ContentColumns(Containers):
    """A block's containers (:class:`Containers`) and the columns their content starts at, by line."""

    def __init__(self, text: str, tokens: Sequence[LineToken]) -> None:
        super().__init__(text, tokens)
        self.content: dict[int, int] = {}
        """Content column of a list item, or of a definition's lines after its first (by its index
        in ``opens``)."""
        self.quoted: dict[int, int] = {}
        """Where the innermost quote around a list item or definition has its content on the line
        ``content`` was read from (0 outside quotes), by its index in ``opens``."""
        self.based: dict[int, int | None] = {}
        """The column a list item's marker is indented from on its first line (its parent's content
        column; None on a footnote's or definition's first line), by its index in ``opens``."""
        self.markers: dict[int, int] = {}
        """Column of a definition's marker (``:`` or ``~``), by its index in ``opens``."""
        self.indented: dict[int, int | None] = {}
        """Of each container whose later lines were walked, by its index in ``opens``: the column an MDC
        component reads its lines from, or None (:meth:`_own_indentation`)."""
        self.admonition_spans: dict[int, tuple[int, int | None]] = {}
        """Of each admonition whose later lines were walked, by its index in ``opens``: its body's column
        on its title line, and how many columns past its parent's content that is (None: unknown)."""

    def walk(self, line: int, chain: list[int]) -> int | None:
        """Column where the innermost of ``chain`` has its content on ``line``; records the content
        column of every item or definition opened on ``line``. None for a lazy line or a tab."""
        text, cursor, quote = self.lines[line], 0, 0
        base: int | None = 0  # the column the innermost container's blocks are indented from
        shift = 0  # past a footnote's label on this line: the parser's columns less the text's
        for k in chain:
            token = self.opens[k]
            kind, later = token.type, self.first_line(k) < line
            if later and kind in (FOOTNOTE, DEFINITION, "list_item_open"):
                column = self._later_content(k, cursor, quote)
                if column is None or text[cursor:column].strip(" "):
                    return None
                cursor = base = column
                continue
            if later and kind in FENCED:
                cursor, base = self._fenced_body(k, chain, text, cursor, base, quote)
                continue
            stop = self._admonition_body(k, cursor) if later and kind == "admonition_open" else len(text)
            if later and kind == "admonition_open":
                base = stop
            while cursor < min(stop, len(text)) and text[cursor] == " ":
                cursor += 1
            if token.type == "blockquote_open":
                if not text.startswith(">", cursor):
                    return None
                cursor += 2 if text.startswith("> ", cursor) else 1
                quote = base = cursor
                shift = 0  # a quote past a label: its columns count from its own content on every line
            elif token.type == "list_item_open":
                marker = token.info + token.markup
                if not text.startswith(marker, cursor):
                    return None
                cursor += len(marker)
                rest = text[cursor:]
                spaces = len(rest) - len(rest.lstrip(" "))
                self.content[k] = cursor + (spaces if 1 <= spaces <= 4 and rest.strip() else 1)
                self.quoted[k], self.based[k] = quote - shift, base
                cursor = base = self.content[k]
            elif kind in (FOOTNOTE, DEFINITION):  # its first line: past the label or marker
                parent = base if base is not None else self._opened_content(chain, k, line)
                past = self._past_label(k, text, cursor, quote - shift)
                if past is None:
                    return None
                if kind == FOOTNOTE:
                    shift = _label_shift(text, past, parent)
                cursor, base = past, None  # a label's or marker's spaces: the parser counts them its own way
            elif self.first_line(k) == line:
                cursor = len(text)  # a title line: nothing after it
        return None if "\t" in text[:cursor] else cursor

    def _fenced_body(
        self, k: int, chain: list[int], text: str, cursor: int, base: int | None, quote: int
    ) -> tuple[int, int | None]:
        """(cursor, base) past container ``k`` on a later line ``text``: a ``:::`` or ``///`` container's
        body keeps its parent's content column; an MDC component indented past it is read from its own
        indentation (outside quotes)."""
        own = self._own_indentation(k, chain) if quote == 0 else None
        if own is None:
            return cursor, base
        cursor += len(text[cursor:own]) - len(text[cursor:own].lstrip(" "))
        return cursor, cursor

    def _own_indentation(self, k: int, chain: list[int]) -> int | None:
        """The column MDC component ``k`` reads its lines from (:mod:`chunker.parse.mdc`: its opening
        line's indentation, when every line of text in it is indented as far and its closing line of as
        many colons stands there), None for another container. Only the MDC rule reads such a line inside
        a component (``k`` or one around it opened with two colons). Once per container."""
        if k in self.indented:
            return self.indented[k]
        own = None
        first, close = lines_of(self.opens[k])
        opening = self.lines[first]
        column = len(opening) - len(opening.lstrip(" "))
        run = opening_run(opening[column:]) if column and self.opens[k].type == "container_block_open" else 0
        if (
            run
            and close < len(self.lines)
            and self.lines[close].rstrip() == opening[:column] + ":" * run
            and (run == 2 or any(self._opens_with_two(j) for j in chain[: chain.index(k)]))
            and all(not t.strip() or len(t) - len(t.lstrip(" ")) >= column for t in self.lines[first + 1 : close])
        ):
            own = column
        self.indented[k] = own
        return own

    def _opens_with_two(self, k: int) -> bool:
        """Whether container ``k`` is an MDC component opened with two colons (``::name``)."""
        return opening_run(self.lines[self.first_line(k)].lstrip(" ")) == 2

    def _past_label(self, k: int, text: str, cursor: int, quote: int) -> int | None:
        """Where the text after footnote ``k``'s label (or definition ``k``'s marker) starts on its
        first line ``text``, its label at ``cursor``; records a definition's marker and content
        column. None when no label or marker stands there."""
        if self.opens[k].type == FOOTNOTE:
            label = text.find("]:", cursor) + 2 if text.startswith("[^", cursor) else 0
        else:
            label = cursor + 1 if text[cursor : cursor + 1] in (":", "~") else 0
        if not label:
            return None
        if self.opens[k].type == DEFINITION:  # deflist: the lines after it belong to it from marker + 2
            self.markers[k], self.content[k], self.quoted[k] = cursor, cursor + 2, quote
        return label + len(text[label:]) - len(text[label:].lstrip(" "))

    def _opened_content(self, chain: list[int], k: int, line: int) -> int | None:
        """The content column of the container before ``k`` in ``chain`` when it is a definition whose
        marker is on ``line`` (the column its lines after the first are indented to); else None."""
        at = chain.index(k)
        j = chain[at - 1] if at else -1
        if j < 0 or self.opens[j].type != DEFINITION or self.first_line(j) != line:
            return None
        return self.content.get(j)

    def _later_content(self, k: int, cursor: int, quote: int) -> int | None:
        """Content column of footnote, item or definition ``k`` on a line after its first, where its
        parent's content starts at ``cursor`` and the innermost quote's at ``quote``: a footnote's
        lines after its label are indented 4 columns past its parent's content (mdit-py-plugins'
        footnote: blkIndent + 4); an item's and a definition's by their recorded content column,
        which counts from the innermost quote's content on each line (a quote's ``>`` may stand at
        another column on a later line). None when not recorded."""
        if self.opens[k].type == FOOTNOTE:
            return cursor + 4
        column = self.content.get(k)
        return None if column is None else column + quote - self.quoted.get(k, 0)

    def _admonition_body(self, k: int, parent: int) -> int:
        """The content column of admonition (or content tab) ``k``'s body (mdit-py-plugins' admon:
        3 columns past its marker's start, plus the spaces after the marker) on a later line where
        its parent's content starts at column ``parent``: as many columns past it as on the title
        line (a quote's ``>`` may stand at another column on a later line: ``: > !!! tip`` over
        ``    >     text`` in a definition). The title line's columns are read once per admonition."""
        span = self.admonition_spans.get(k)
        if span is None:
            first = self.first_line(k)
            match = _ADMONITION.search(self.lines[first])
            body = match.start() + 3 + len(match.group(1)) if match else 0
            outer = self.chain(first)
            outer = outer[: outer.index(k)] if k in outer else []
            at = self.walk(first, outer) if outer else 0
            span = (body, None if at is None or at > body else body - at)
            self.admonition_spans[k] = span
        body, past = span
        return body if past is None else parent + past


def _label_shift(text: str, past: int, parent: int | None) -> int:
    """On a footnote's label line ``text`` whose text starts at ``past``: the column the parser gives
    that text less ``past`` (0 when unknown: ``parent`` None). mdit-py-plugins' footnote counts the
    line from past the label's colon, as the spaces after it, plus the footnote's indent (its parent's
    content column ``parent`` + 4) when fewer: ``    [^1]: 1.  x`` in a definition (content column 2)
    has ``1.`` at column 7, and its item's later lines at column 11, not the 14 of the text."""
    if parent is None:
        return 0
    label = text.rfind("]:", 0, past) + 2
    spaces = past - label
    return spaces + (parent + 4 if spaces < parent + 4 else 0) - past
