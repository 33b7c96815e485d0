"""Where the containers of one block are, by line: the lists, quotes, admonitions, ``:::`` containers,
footnotes and definitions around each line, and the columns their content starts at.

From the block's tokens (:class:`chunker.outline.LineToken`, the document's own or a parse of the
block): which containers a line lies in (:meth:`Containers.chain`), where the innermost one's content
starts on it (:meth:`Containers.walk`, by CommonMark's rule for list items: marker, 1-4 spaces), the
line ranges no piece may start inside (:meth:`Containers.uncut`) and the closing lines a piece ending
inside a ``:::`` container leaves open (:meth:`Containers.closing`). What a piece re-opens from this is
:mod:`chunker.pack.reopen`. Indentation holding tabs is read with the tabs expanded (to tab stops of 4).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence

from chunker.outline import LineToken
from chunker.pack.nested import leaf_lines

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
FOOTNOTE, DEFINITION = "footnote_reference_open", "dd_open"
_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?|===[+!]?)( *)")
"""An admonition's or content tab's marker and the spaces after it."""
_FENCED = {"container_block_open": ":", "container_blocks_open": "/"}
"""Containers closed by a line of their marker (``:::``, ``///``), by token type: their marker."""
_TITLED = frozenset({"admonition_open", *_FENCED})
"""Containers opened by a title line (``!!! note``, ``:::tip``): no piece starts inside it (its marker cut)."""
_MATH = frozenset({"math_block", "math_block_eqno", "math_block_label"})
"""Display math (``$$`` ... ``$$``): a piece starting inside it leaves its ``$$`` behind and is text."""
_READ_FIRST = re.compile(
    r"\[[^\]\n]*\]:|#{1,6}(?:[ \t]|$)|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|[>|<$]|```|~~~"
    r"|(?:[*_-][ \t]*){3,}$|!!!|\?\?\?|===|:::|///"
)
"""The start of a line that a block rule run before the definition list's reads (footnote or link
definition, heading, list item, quote, table, HTML, math, fence, rule, admonition, container)."""


class Containers:
    """The containers of one block, by line (0-based within the block), from its tokens."""

    def __init__(self, text: str, tokens: Sequence[LineToken]) -> None:
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
        self.parents = _parents([lines_of(t) for t in self.opens])
        """The innermost container around each of ``opens`` (-1 at the top), when their line ranges
        nest (they do in a parse); None otherwise (:meth:`chain` then tests every container)."""
        self.open_starts = [lines_of(t)[0] for t in self.opens]
        self.fences: list[tuple[int, int]] = [lines_of(t) for t in tokens if t.type == "fence" and t.map is not None]
        self.tag_fences = [
            lines_of(t) for t in tokens if t.type == "fence" and t.map is not None and t.markup[:1] == "{"
        ]
        """Code written as template tags (:mod:`chunker.parse.templates`): a piece ending inside one closes
        it with its closing tag line (no fence scan knows those)."""
        self.code: list[tuple[int, int]] = [lines_of(t) for t in tokens if t.type == "code_block" and t.map is not None]
        self.paragraphs = [lines_of(t) for t in tokens if t.type == "paragraph_open" and t.map is not None]
        self.leaf_starts = {t.map[0] for t in tokens if t.map is not None and t.type not in _CONTAINERS}
        self.containers = any(t.type in _FENCED for t in self.opens)
        self.marker_lines: dict[str, list[int]] = {}
        """The lines that are runs of colons (``:::``, ``::``) or slashes, found once when first needed."""
        self.items = frozenset(lines_of(t)[0] for t in self.opens if t.type == "list_item_open")
        """Lines where a list item opens."""
        self.whole_lines = [lines_of(t) for t in tokens if t.type == "heading_open" and t.map is not None]
        """Line ranges no piece may start inside: headings, a fence's opening and closing lines, display
        math, a nested admonition's or container's title line and closing line, a definition's term,
        and HTML blocks and tables nested in the
        block but at the lines where a piece of them renders as they do (:func:`chunker.pack.nested.leaf_lines`)."""
        self.whole_lines += [(a, a + 1) for a, _ in self.fences] + [(b - 1, b) for a, b in self.fences if b - a > 1]
        self.whole_lines += [lines_of(t) for t in tokens if t.type in _MATH and t.map is not None]
        titled = zip(self.open_starts, self.opens, strict=True)
        self.whole_lines += [(a, a + 1) for a, t in titled if a and t.type in _TITLED]  # not the block's own
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
        self.terms = [lines_of(t)[0] for t in tokens if t.type == "dt_open" and t.map is not None]
        """Lines of the definition terms, in order."""
        self.firsts = [lines_of(t)[0] for t in self.opens]
        """First line of each container: a definition's is its marker's (deflist maps a definition
        after the first from its term's line, and blank lines may come between)."""
        own_terms, self.later_terms = _sibling_terms(tokens)
        self._read_first: frozenset[int] | None = None
        self.admonition_spans: dict[int, tuple[int, int | None]] = {}
        """Of each admonition whose later lines were walked, by its index in ``opens``: its body's column
        on its title line, and how many columns past its parent's content that is (None: unknown)."""
        for k, token in enumerate(self.opens):
            if token.type == DEFINITION:
                first, last = lines_of(token)
                terms = own_terms.get(id(token), ())
                while first + 1 < last and (first in terms or not self.lines[first].strip()):
                    first += 1
                self.firsts[k] = first
        self.footnote = bool(self.opens) and self.opens[0].type == FOOTNOTE and self.firsts[0] == 0
        """Whether the block is a footnote definition (its first line holds the label)."""
        self.labels = {
            f: self.lines[f].find("]:") + 2 for f, t in zip(self.firsts, self.opens, strict=True) if t.type == FOOTNOTE
        }
        """The first line of each footnote in the block, and the column past its label's ``]:``."""
        self.definitions = frozenset(f for f, t in zip(self.firsts, self.opens, strict=True) if t.type == DEFINITION)
        """Lines where a definition's marker is."""
        self.closers = frozenset(self._closing_lines())
        """Closing lines (``:::``) of the ``:::`` containers in the block: no piece starts with one."""
        self.whole_lines += [(a, a + 1) for a in (*self.closers, *self.terms)]  # a term: one line, like a heading
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
                first, last = lines_of(token)
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
            return [k for k, t in enumerate(self.opens) if self.firsts[k] <= line < lines_of(t)[1]]
        k = bisect_right(self.open_starts, line) - 1
        while k >= 0 and lines_of(self.opens[k])[1] <= line:
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
            if later and kind in _FENCED:
                continue  # a ``:::`` or ``///`` container's body keeps its parent's content column
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
            first, last = lines_of(self.opens[k])
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


def _sibling_terms(tokens: Sequence[LineToken]) -> tuple[dict[int, frozenset[int]], list[int]]:
    """The lines of the terms of each definition's own list, by ``id`` of its ``dd_open`` token: a
    definition's marker line is past those, not past the terms of lists nested in it (``:   Term``
    over ``    ~ its definition`` opens a definition and a nested term on one line); and the lines
    of the terms after the first of their list."""
    out: dict[int, frozenset[int]] = {}
    later: list[int] = []
    lists: list[list[int]] = []  # per open definition list, the term lines so far
    for token in tokens:
        kind = token.type
        if kind == "dl_open":
            lists.append([])
        elif kind == "dl_close" and lists:
            lists.pop()
        elif kind == "dt_open" and lists and token.map is not None:
            if lists[-1]:
                later.append(token.map[0])
            lists[-1].append(token.map[0])
        elif kind == DEFINITION and lists:
            out[id(token)] = frozenset(lists[-1])
    return out, later


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


def around(ranges: list[tuple[int, int]], line: int) -> tuple[int, int]:
    """Of leaf ranges in document order (they do not overlap), the last one starting at or before
    ``line``; (-1, -1) when there is none."""
    k = bisect_right(ranges, (line, float("inf"))) - 1
    return ranges[k] if k >= 0 else (-1, -1)


def _marker_run(line: str, marker: str) -> bool:
    """Whether ``line`` is a container's closing line: a run of ``marker`` alone (past the markers of
    the quotes it lies in: ``> :::`` closes a container nested in a quote)."""
    text = line.lstrip(" \t>").rstrip() if ">" in line else line.strip()
    return len(text) >= (2 if marker == ":" else 3) and text == marker * len(text)  # two: an MDC component's ``::``


def lines_of(token: LineToken) -> tuple[int, int]:
    assert token.map is not None
    return token.map[0], token.map[1]
