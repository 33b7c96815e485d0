"""What a piece cut from inside a list, quote or container adds before itself to render as it did.

A piece that starts inside a list item has lost the item's marker, and its first line its
indentation: a fence in it opens at column 0 while its closing line, still indented, no longer
closes it; a nested item becomes a top-level one. The piece therefore re-opens, as declared added
text, every container its first line lies in:

- a container block's title line (``!!! note``, ``:::tip``, ``<details>``), as before;
- one line per list item opened on an earlier line, with the item's marker alone (``1.``, ``  -``),
  at the column that gives the item the content column it has in the source;
- the fence line of a code block nested in the item when the piece starts inside it;
- the container markers and indentation of the first line itself (``> > ``, ``    ``), which the
  cut left behind;
- in a footnote definition, its label (``[^1]:``) and the 4 columns its later lines are indented
  by (on the label's own line, the label and its spaces);
- in a definition, its term's line and its marker (``:   ``), which cannot stand alone on a line:
  the piece's first line (or the next container's line) continues after it;
- before a body row of a table nested in the block, the table's header and delimiter rows.

No piece starts inside a nested heading, fence line, definition term, ``:::`` closing line, table
row or HTML block (but at an HTML line that opens a block ending where the source's does), nor at
a definition's marker: there no re-opening could make it render as it does (:meth:`Structure.uncut`).
Indentation holding tabs is read with the tabs expanded (to tab stops of 4), and re-opened as spaces.

Quotes need no line of their own: every line of a quote carries its marker. The structure comes
from the block's outline (the document's own markdown-it tokens, kept by the segmenter), or where
it has none (the pulldown-cmark path, see :func:`block_structure`) from a parse of the block (once
per block, on the first piece that needs it; pulldown-cmark's on that path, in markdown-it-py's
token shape: :mod:`chunker.parse.pulldown_outline`);
the columns from the source lines, by CommonMark's rule for list items (marker, 1-4 spaces).
When the block is too large to parse again, uses tabs after a marker, or a line is lazy, nothing
is re-opened but a nested fence (the validator's rendering check reports what that changes).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence

from chunker.outline import LineToken, Outline
from chunker.pack.nested import leaf_lines
from chunker.pack.setext import underlined, underlines_ahead
from chunker.rendering import MAX_CHECKED_CHARS

_CONTAINERS = frozenset(
    {
        "list_item_open",
        "blockquote_open",
        "admonition_open",
        "container_block_open",
        "container_blocks_open",
        "footnote_reference_open",
        "dd_open",
    }
)
_FOOTNOTE, _DEFINITION = "footnote_reference_open", "dd_open"
_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?|===[+!]?)( *)")
"""An admonition's or content tab's marker and the spaces after it."""
_FENCED = {"container_block_open": ":", "container_blocks_open": "/"}
"""Containers closed by a line of their marker (``:::``, ``///``), by token type: their marker."""
_MATH = frozenset({"math_block", "math_block_eqno", "math_block_label"})
"""Display math (``$$`` ... ``$$``): a piece starting inside it leaves its ``$$`` behind and is text."""


class Structure:
    """The containers of one block, by line (0-based within the block), from its tokens."""

    def __init__(self, text: str, tokens: Sequence[LineToken], following: str = "") -> None:
        self.following = following
        """The source's lines right after the block, up to a blank line: a chunk may go on into them
        (a thematic break ``---`` right under a list is a line of ``-`` to a re-opened term)."""
        self.tokens = tokens
        """The block's tokens: the validator's rendering check reuses them as the source's parse."""
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.widened: dict[int, tuple[int, int]] = {}
        """Lines whose indentation holds tabs, by line: (its length, the columns its tabs add). Such
        a line is kept with its tabs expanded (to CommonMark's tab stops of 4): the columns below
        are those of the expanded line, and what is re-opened has spaces for the tabs."""
        for index, line in enumerate(self.lines):
            if "\t" in line:
                body = line.lstrip(" \t")
                lead = line[: len(line) - len(body)]
                if "\t" in lead:
                    wide = lead.expandtabs(4)
                    self.widened[index] = (len(lead), len(wide) - len(lead))
                    self.lines[index] = wide + body
        self.opens: list[LineToken] = [t for t in tokens if t.type in _CONTAINERS and t.map is not None]
        self.parents = _parents([_lines(t) for t in self.opens])
        """The innermost container around each of ``opens`` (-1 at the top), when their line ranges
        nest (they do in a parse); None otherwise (:meth:`chain` then tests every container)."""
        self.open_starts = [_lines(t)[0] for t in self.opens]
        self.fences: list[tuple[int, int]] = [_lines(t) for t in tokens if t.type == "fence" and t.map is not None]
        self.tag_fences = [_lines(t) for t in tokens if t.type == "fence" and t.map is not None and t.markup[:1] == "{"]
        """Code written as template tags (:mod:`chunker.parse.templates`): a piece ending inside one closes
        it with its closing tag line (no fence scan knows those)."""
        self.code: list[tuple[int, int]] = [_lines(t) for t in tokens if t.type == "code_block" and t.map is not None]
        self.paragraphs = [_lines(t) for t in tokens if t.type == "paragraph_open" and t.map is not None]
        self.leaf_starts = {t.map[0] for t in tokens if t.map is not None and t.type not in _CONTAINERS}
        self.containers = any(t.type in _FENCED for t in self.opens)
        self.marker_lines: dict[str, list[int]] = {}
        """The lines that are runs of colons (``:::``, ``::``) or slashes, found once when first needed."""
        self.items = frozenset(_lines(t)[0] for t in self.opens if t.type == "list_item_open")
        """Lines where a list item opens."""
        self.whole_lines = [_lines(t) for t in tokens if t.type == "heading_open" and t.map is not None]
        """Line ranges no piece may start inside: headings, a fence's opening and closing lines, display
        math, a container's closing line, a definition's term, and HTML blocks and tables nested in the
        block but at the lines where a piece of them renders as they do (:func:`chunker.pack.nested.leaf_lines`)."""
        self.whole_lines += [(a, a + 1) for a, _ in self.fences] + [(b - 1, b) for a, b in self.fences if b - a > 1]
        self.whole_lines += [_lines(t) for t in tokens if t.type in _MATH and t.map is not None]
        self.content: dict[int, int] = {}
        """Content column of a list item, or of a definition's lines after its first (by its index
        in ``opens``)."""
        self.markers: dict[int, int] = {}
        """Column of a definition's marker (``:`` or ``~``), by its index in ``opens``."""
        self.terms = [_lines(t)[0] for t in tokens if t.type == "dt_open" and t.map is not None]
        """Lines of the definition terms, in order."""
        self.firsts = [_lines(t)[0] for t in self.opens]
        """First line of each container: a definition's is its marker's (deflist maps a definition
        after the first from its term's line, and blank lines may come between)."""
        own_terms = _sibling_terms(tokens)
        for k, token in enumerate(self.opens):
            if token.type == _DEFINITION:
                first, last = _lines(token)
                terms = own_terms.get(id(token), ())
                while first + 1 < last and (first in terms or not self.lines[first].strip()):
                    first += 1
                self.firsts[k] = first
        self.footnote = bool(self.opens) and self.opens[0].type == _FOOTNOTE and self.firsts[0] == 0
        """Whether the block is a footnote definition (its first line holds the label)."""
        self.definitions = frozenset(f for f, t in zip(self.firsts, self.opens, strict=True) if t.type == _DEFINITION)
        """Lines where a definition's marker is."""
        self.closers = frozenset(self._closing_lines())
        """Closing lines (``:::``) of the ``:::`` containers in the block: no piece starts with one."""
        self.whole_lines += [(a, a + 1) for a in (*self.closers, *self.terms)]  # a term: one line, like a heading
        self.refused: set[tuple[int, int]] = set()
        """Lines and columns (as :meth:`position`) where no piece may start: its first line would read
        as indented code (:meth:`_deep`), or re-opening a definition's term there would make it and
        the lines after it a setext heading (:meth:`_underlined`)."""
        self.underline_ahead: list[int] | None = None
        """:func:`chunker.pack.setext.underlines_ahead` of the lines, when first needed."""
        leaves, self.table_heads = leaf_lines(tokens, self.lines)
        self.whole_lines += leaves
        self.whole_lines.sort()
        self.whole_starts = [a for a, _ in self.whole_lines]

    def position(self, offset: int) -> tuple[int, int]:
        """Line and column (in the line as kept: tabs of its indentation expanded) of ``offset``."""
        line = bisect_right(self.starts, offset) - 1
        column = offset - self.starts[line]
        widened = self.widened.get(line)
        if widened is not None and column >= widened[0]:
            column += widened[1]
        return line, column

    def _closing_lines(self) -> Iterator[int]:
        for token in self.opens:
            marker = _FENCED.get(token.type)
            if marker is not None:
                first, last = _lines(token)
                close = min(last, len(self.lines) - 1)  # the map ends before the closing line
                while close > first and not _marker_run(self.lines[close], marker):
                    close -= 1
                if close > first:
                    yield close

    def first_line(self, k: int) -> int:
        return self.firsts[k]

    def chain(self, line: int) -> list[int]:
        """Indices in ``opens`` of the containers ``line`` lies in, outermost first: from the last
        container opened by ``line``, up through the containers around it (not a test of every
        container: a piece of each of a long list's items made that quadratic)."""
        if self.parents is None:
            return [k for k, t in enumerate(self.opens) if self.firsts[k] <= line < _lines(t)[1]]
        k = bisect_right(self.open_starts, line) - 1
        while k >= 0 and _lines(self.opens[k])[1] <= line:
            k = self.parents[k]  # ended before ``line``: so did every container it holds
        out = []
        while k >= 0:
            if self.firsts[k] <= line:
                out.append(k)
            k = self.parents[k]
        out.reverse()
        return out

    def walk(self, line: int, chain: list[int]) -> int | None:
        """Column where the innermost of ``chain`` has its content on ``line``; records the content
        column of every item or definition opened on ``line``. None for a lazy line or a tab."""
        text, cursor = self.lines[line], 0
        for k in chain:
            token = self.opens[k]
            kind, later = token.type, self.first_line(k) < line
            if later and kind in (_FOOTNOTE, _DEFINITION, "list_item_open"):
                # a footnote's lines after its label are indented 4 columns past its parent's
                # content (mdit-py-plugins' footnote: blkIndent + 4); an item's and a definition's
                # by their recorded content column
                column = cursor + 4 if kind == _FOOTNOTE else self.content.get(k)
                if column is None or text[cursor:column].strip(" "):
                    return None
                cursor = column
                continue
            if later and kind in _FENCED:
                continue  # a ``:::`` or ``///`` container's body keeps its parent's content column
            stop = self._admonition_body(k) if later and kind == "admonition_open" else len(text)
            while cursor < min(stop, len(text)) and text[cursor] == " ":
                cursor += 1
            if token.type == "blockquote_open":
                if not text.startswith(">", cursor):
                    return None
                cursor += 2 if text.startswith("> ", cursor) else 1
            elif token.type == "list_item_open":
                marker = token.info + token.markup
                if not text.startswith(marker, cursor):
                    return None
                cursor += len(marker)
                rest = text[cursor:]
                spaces = len(rest) - len(rest.lstrip(" "))
                self.content[k] = cursor + (spaces if 1 <= spaces <= 4 and rest.strip() else 1)
                cursor = self.content[k]
            elif kind in (_FOOTNOTE, _DEFINITION):  # its first line: past the label or marker
                if kind == _FOOTNOTE:
                    label = text.find("]:", cursor) + 2 if text.startswith("[^", cursor) else 0
                else:
                    label = cursor + 1 if text[cursor : cursor + 1] in (":", "~") else 0
                if not label:
                    return None
                if kind == _DEFINITION:  # deflist: the lines after it belong to it from marker + 2
                    self.markers[k], self.content[k] = cursor, cursor + 2
                cursor = label + len(text[label:]) - len(text[label:].lstrip(" "))
            elif self.first_line(k) == line:
                cursor = len(text)  # a title line: nothing after it
        return None if "\t" in text[:cursor] else cursor

    def reopened(self, frame: str, offset: int) -> str | None:
        """The text a piece starting at ``offset`` (in the block's text) adds before itself."""
        line, column = self.position(offset)
        if column == 0:
            text = self._at_line_start(frame, line)
            if text is not None:
                return text
        return self._walked(frame, line, column)

    def _at_line_start(self, frame: str, line: int) -> str | None:
        """:meth:`_walked`'s answer at column 0 of a line no container opened before lies in (a
        top-level item's first line, indented code): ``frame`` ("" on line 0), as openers come from
        earlier lines and at column 0 the line adds nothing; None when only the walk can tell."""
        if self.parents is None or line in self.table_heads:
            return None
        k = bisect_right(self.open_starts, line) - 1
        chain: list[int] = []
        if k >= 0:
            token = self.opens[k]
            if self.open_starts[k] != line or self.parents[k] != -1 or token.type != "list_item_open":
                return None  # an earlier container (it may have ended: the walk decides), or two on the line
            if _lines(token)[1] <= line:
                return None
            chain.append(k)
        a, b = _around(self.fences, line)
        if a < line < b or self.walk(line, chain) is None or self._deep(line, chain, self.lines[line]):
            return None  # the walk decides (a line indented as code: it refuses it)
        return frame if line else ""

    def _walked(self, frame: str, line: int, column: int) -> str | None:
        """:meth:`reopened` by the walk of the containers around ``line``."""
        a, b = _around(self.fences, line)
        fence = a if a < line < b or (a == line and self._past_marker(a, column)) else None
        anchor = line if fence is None else fence
        if anchor == 0:
            frame = ""  # the piece starts on the frame's own line (a footnote's label): its prefix re-opens it
        chain = self.chain(anchor)
        started: dict[int, int] = {}  # first line -> the innermost item or container opened there
        for k in chain:  # content columns of the items, outermost first, from their first lines
            first, kind = self.first_line(k), self.opens[k].type
            own = frame and k == 0 and not first  # the block's own container: ``frame`` re-opens it
            if (first >= anchor and kind != _DEFINITION) or kind == "blockquote_open" or own:
                continue  # a quote's markers are on every line
            outer = [j for j in chain if self.first_line(j) <= first]
            if kind in ("list_item_open", _DEFINITION) and k not in self.content and self.walk(first, outer) is None:
                return None
            if kind != _DEFINITION or first < anchor or fence is not None or column > self.markers[k]:
                started[first] = k  # a definition also past its marker, or inside a fence on its line
        openers = self._openers([started[first] for first in sorted(started)])
        if openers is None:
            return None
        lines, pending, term = openers
        head = self.table_heads.get(line)
        if head is not None and fence is None:  # a body row of a nested table: its header rows
            lines += [_after(pending, self.lines[head] + "\n"), self.lines[head + 1] + "\n"]
            pending = None
        tail = self._tail(line, column, chain, fence, pending)
        if tail is None:
            return None
        opening = tail + self.lines[line][column:]  # the piece's first line, as re-opened
        # a definition's marker before a piece starting left of its content column (at a line start)
        # shifts the piece's text right: an item opened there, or indented code, no longer lines up
        shifted = pending is not None and column < pending[1]
        if (fence is None and (shifted or self._deep(line, chain, opening))) or (
            term is not None and self._underlined(lines[term:], opening, line)
        ):
            self.refused.add((line, column))
            return None
        return "".join([frame, *lines, tail])

    def _openers(self, openers: list[int]) -> tuple[list[str], tuple[str, int] | None, int | None] | None:
        """The lines that re-open the containers ``openers`` (outermost first), a definition's
        marker still pending, and the index of the first term line among the lines (None without):
        a definition cannot open on a line of its own (``:`` alone is no marker), so it re-opens as
        its term's line and its marker (``:   ``), which goes before the next line's text from the
        definition's content column on (the pending (marker, column)); a definition's term in a
        definition goes after the outer one's marker; a footnote nested in the block re-opens as its
        label line up to its label. None where a label's end is not known."""
        out: list[str] = []
        pending: tuple[str, int] | None = None
        term: int | None = None
        for k in openers:
            kind, first = self.opens[k].type, self.first_line(k)
            if kind == _DEFINITION or first in self.definitions:  # a definition's term, once
                term = len(out) if term is None else term
                line = self.lines[max((t for t in self.terms if t < first), default=first)] + "\n"
                out.append(_after(pending, line))  # in a definition: after its marker
                pending = None
            if kind == _DEFINITION:
                pending = (self.lines[first][: self.markers[k] + 1] + " ", self.content[k])
                continue
            if kind == _FOOTNOTE:
                label = self._label(k, first)
                if label is None:
                    return None
                out.append(_after(pending, label + "\n"))  # its label line up to the label: its
                pending = None  # later lines are 4 columns in, as the piece's line already is
                continue
            opener = self._opener(k, first) + "\n"  # on a definition's first line: with its marker
            out.append(_after(pending, self._unlabelled(opener) if first == 0 and self.footnote else opener))
            pending = None
        return out, pending, term

    def _label(self, k: int, line: int) -> str | None:
        """The start of ``line`` up to the label of footnote ``k`` nested in the block (``> 4.  [^1]:``):
        the line that re-opens it (a label with nothing after it takes the indented lines below as
        its text). None when the walk cannot tell where its label ends."""
        chain = self.chain(line)
        if k not in chain:
            return None
        content = self.walk(line, chain[: chain.index(k) + 1])
        end = self.lines[line].rfind("]:", 0, content) if content is not None else -1
        return self.lines[line][: end + 2] if end >= 0 else None

    def _deep(self, line: int, chain: list[int], first: str) -> bool:
        """Whether the piece's first line (``first``, as re-opened) would read as indented code where
        the source's line is none: a line of an HTML block or a paragraph's continuation line may sit
        4 or more columns past its container's content column, the line that opens a block never."""
        content = self.walk(line, chain)
        if content is None:
            return False
        a, b = _around(self.code, line)
        if a <= line < b:
            return False
        rest = first[content:]
        return len(rest) - len(rest.lstrip(" ")) >= 4 and bool(rest.strip())

    def _underlined(self, added: list[str], first: str, line: int) -> bool:
        """Whether a re-opened term (``added[0]``) would read as a setext heading's text: a term is
        a paragraph line to the parser's heading rule (which runs before the definition list's), and
        the lines after it up to a blank line are the lines re-opened after it, the piece's first line
        (``first``, as re-opened) and the lines after ``line``. In the source a blank line came
        between; in the piece a line of ``-`` or ``=`` (an empty item, a nested item's re-opened
        marker) at most 3 columns right of the term turns term and definition into a heading
        (:mod:`chunker.pack.setext`)."""
        if self.underline_ahead is None:  # once per block
            after = self.following.split("\n") if self.following else []
            self.underline_ahead = underlines_ahead([*self.lines, *after])[: len(self.lines)]
        return underlined(added[0], (*added[1:], first), self.underline_ahead[line])

    def _tail(
        self, line: int, column: int, chain: list[int], fence: int | None, pending: tuple[str, int] | None
    ) -> str | None:
        """What goes before the piece's own text on its first line (and a nested fence's line)."""
        text = self.lines[line]
        content = self.walk(line, chain)
        if fence is not None:  # the fence line, and the line's containers (its text is code)
            keep = column if content is None or not text[content:column].strip() else content
            return "".join([_after(pending, self.lines[fence] + "\n"), text[:keep]])
        if content is None and pending is not None:
            return pending[0]  # a lazy line: paragraph text right after the definition's marker
        if content is None:  # a lazy continuation line: the prefix of its paragraph's first line
            a, b = _around(self.paragraphs, line)
            start = a if a < line < b else None
            prefix = self.lines[start][: self.walk(start, chain) or 0] if start is not None else ""
            if prefix and start == 0 and self.footnote:
                prefix = self._unlabelled(prefix)
            return "".join(c if c in "> " else " " for c in prefix) or None
        whole = column <= content or not text[content:column].strip()
        a, b = _around(self.code, line)
        code = a <= line < b
        if code and not whole:  # inside a line of indented code: its indentation keeps it code
            indent = content + len(text[content:]) - len(text[content:].lstrip(" \t"))
            return _after(pending, text[:indent])
        own = code or line in self.leaf_starts
        return _after(pending, text[: column if whole and own else min(content, column)])

    def refuses(self, offset: int) -> bool:
        """Whether :meth:`reopened` found no re-opening that renders as the source at ``offset``."""
        return bool(self.refused) and self.position(offset) in self.refused

    def uncut(self, offset: int) -> bool:
        """Whether no piece may start at ``offset``: inside a heading nested in the block (or a
        fence line), past the start of its text (a piece starting there would cut a heading's text,
        or a setext heading's text from its underline, a fence's marker run, and both parts would
        render as something else); at a ``:::`` line closing a container (it goes with what it
        closes); at a definition's marker (its term would end the piece before, alone)."""
        line, column = self.position(offset)
        text = self.lines[line]
        at_text = column <= len(text) - len(text.lstrip(" \t>"))
        if at_text and (line in self.closers or line in self.definitions):
            return True
        if not self.whole_lines:
            return False
        k = bisect_right(self.whole_starts, line) - 1  # the ranges do not overlap
        if k < 0 or line >= self.whole_lines[k][1]:
            return False
        return line > self.whole_lines[k][0] or not at_text

    def _past_marker(self, line: int, column: int) -> bool:
        """Whether ``column`` of a fence's opening line lies past its marker run (in its info)."""
        text = self.lines[line]
        marker = min((i for i in (text.find("```"), text.find("~~~")) if i >= 0), default=-1)
        return 0 <= marker < column

    def closing(self, end: int, frame: bool) -> str:
        """The closing lines of the ``:::`` and ``///`` containers (and of code written as template tags)
        nested in the block that a piece ending at ``end`` (in the block's text) leaves open, innermost
        first (their source lines)."""
        line = bisect_right(self.starts, max(end - 1, 0)) - 1
        out = ["\n" + self.lines[b - 1] for a, b in self.tag_fences if a <= line < b - 1]
        for k in reversed(self.chain(line)):
            first, last = _lines(self.opens[k])
            marker = _FENCED.get(self.opens[k].type)
            if marker is None or (frame and first == 0):
                continue
            colon_lines = self.marker_lines.get(marker)
            if colon_lines is None:
                colon_lines = [n for n, text in enumerate(self.lines) if _marker_run(text, marker)]
                self.marker_lines[marker] = colon_lines
            # the last colon line at or before the map's end (the map ends before the closing line):
            # one bisection, not a walk back per container (nested unclosed containers were quadratic)
            at = bisect_right(colon_lines, min(last, len(self.lines) - 1)) - 1
            close = colon_lines[at] if at >= 0 and colon_lines[at] > first else first
            if first < close and line < close:
                out.append("\n" + self.lines[close])
        return "".join(out)

    def _admonition_body(self, k: int) -> int:
        """The content column of admonition (or content tab) ``k``'s body (mdit-py-plugins' admon:
        3 columns past its marker's start, plus the spaces after the marker), from its title line."""
        match = _ADMONITION.search(self.lines[self.first_line(k)])
        return match.start() + 3 + len(match.group(1)) if match else 0

    def _unlabelled(self, text: str) -> str:
        """``text``, the start of the block's footnote label line, with the label and the spaces
        after it as the columns they stand for (mdit-py-plugins' footnote: its lines after the
        first are 4 columns in, and 1 to 3 spaces after the label count as 5 to 7)."""
        label = self.lines[0].find("]:") + 2
        content = self.walk(0, [0]) or label
        spaces = content - label
        return " " * (spaces + 4 if spaces < 4 else spaces) + text[content:]

    def _opener(self, k: int, line: int) -> str:
        """The line that re-opens container ``k`` (first opened on ``line``): a nested admonition's
        or container's title line as it is; for a list item, its first line up to its marker, the
        marker moved right so that, alone on its line, it gives the item its source content column
        (one space after it) where CommonMark allows."""
        token = self.opens[k]
        if token.type != "list_item_open":
            return self.lines[line]
        marker = token.info + token.markup
        text = self.lines[line]
        content = self.content[k]
        start = text.rfind(marker, 0, content)
        shift = content - (start + len(marker)) - 1
        lead = text[:start]
        indent = len(lead) - len(lead.rstrip(" "))
        if shift > 0 and indent + shift <= 3:
            lead += " " * shift
        return lead + marker


def _sibling_terms(tokens: Sequence[LineToken]) -> dict[int, frozenset[int]]:
    """The lines of the terms of each definition's own list, by ``id`` of its ``dd_open`` token: a
    definition's marker line is past those, not past the terms of lists nested in it (``:   Term``
    over ``    ~ its definition`` opens a definition and a nested term on one line)."""
    out: dict[int, frozenset[int]] = {}
    lists: list[list[int]] = []  # per open definition list, the term lines so far
    for token in tokens:
        kind = token.type
        if kind == "dl_open":
            lists.append([])
        elif kind == "dl_close" and lists:
            lists.pop()
        elif kind == "dt_open" and lists and token.map is not None:
            lists[-1].append(token.map[0])
        elif kind == _DEFINITION and lists:
            out[id(token)] = frozenset(lists[-1])
    return out


def _after(pending: tuple[str, int] | None, text: str) -> str:
    """``text`` (a line's start), after a definition's pending marker: from its content column on."""
    if pending is None:
        return text
    marker, column = pending
    return marker + text[column:]


def _parents(ranges: list[tuple[int, int]]) -> list[int] | None:
    """The innermost earlier range holding each of ``ranges`` (in document order), -1 for none;
    None when they do not nest (a range starting before the one before it, or reaching past a
    range around it)."""
    parents: list[int] = []
    stack: list[int] = []
    for k, (start, end) in enumerate(ranges):
        if k and start < ranges[k - 1][0]:
            return None
        while stack and ranges[stack[-1]][1] <= start:
            stack.pop()
        if stack and end > ranges[stack[-1]][1]:
            return None
        parents.append(stack[-1] if stack else -1)
        stack.append(k)
    return parents


def _around(ranges: list[tuple[int, int]], line: int) -> tuple[int, int]:
    """Of leaf ranges in document order (they do not overlap), the last one starting at or before
    ``line``; (-1, -1) when there is none."""
    k = bisect_right(ranges, (line, float("inf"))) - 1
    return ranges[k] if k >= 0 else (-1, -1)


def _marker_run(line: str, marker: str) -> bool:
    text = line.strip()
    return len(text) >= (2 if marker == ":" else 3) and text == marker * len(text)  # two: an MDC component's ``::``


def _lines(token: LineToken) -> tuple[int, int]:
    assert token.map is not None
    return token.map[0], token.map[1]


def block_structure(
    text: str, outline: Outline | None, parse: Callable[[str], Sequence[LineToken]], following: str = ""
) -> Structure | None:
    """The structure of a block's text from its outline (the document's own tokens), else from a
    parse of the text (a block the segmenter kept no outline for); None when it is too large.
    ``following``: :attr:`Structure.following`."""
    if len(text) > MAX_CHECKED_CHARS:
        return None
    return Structure(text, outline.tokens() if outline is not None else parse(text), following)
