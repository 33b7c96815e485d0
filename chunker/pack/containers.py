"""Which containers each line of one block lies in: the lists, quotes, admonitions, ``:::`` containers,
footnotes and definitions around it, and where the ``:::`` and ``///`` containers close.

From the block's tokens (:class:`chunker.outline.LineToken`, the document's own or a parse of the
block): the block's lines (indentation holding tabs expanded, to tab stops of 4) and the line and
column of an offset (:meth:`Containers.position`), which containers a line lies in
(:meth:`Containers.chain`), where fences, indented code, paragraphs, list items, definitions and
their terms are, and the closing lines a piece ending inside a ``:::`` container leaves open
(:meth:`Containers.closing`). Built on it: the columns the containers' content starts at
(:mod:`chunker.pack.content_columns`), the places no piece may start (:mod:`chunker.pack.piece_starts`)
and what a piece re-opens (:mod:`chunker.pack.reopen`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet

from chunker.outline import LineToken

_CONTAINERS = frozenset(
    {
        "list_item_open",
        "blockquote_open",
        "admonition_open",
        "container_block_open",
        "container_blocks_open",
        "myst_fence_open",
        "footnote_reference_open",
        "dd_open",
    }
)
FOOTNOTE, DEFINITION = "footnote_reference_open", "dd_open"
FENCED = {"container_block_open": ":", "container_blocks_open": "/", "myst_fence_open": "`"}
"""Containers closed by a line of their marker (``:::``, ``///``), by token type: their marker."""
_LABELS = frozenset({"myst_target", "attrs_block", "inline", "paragraph_open", "html_block"})
"""Tokens of the label lines a block may start with over its own container (``(name)=``, ``{#id}``,
``<a name="x"></a>``): a paragraph or HTML block only when it is named anchors (:meth:`Containers._own`)."""


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
        self.containers = any(t.type in FENCED for t in self.opens)
        self.marker_lines: dict[str, list[int]] = {}
        """The lines that are runs of colons (``:::``, ``::``) or slashes, found once when first needed."""
        self.items = frozenset(lines_of(t)[0] for t in self.opens if t.type == "list_item_open")
        """Lines where a list item opens."""
        self.terms = [lines_of(t)[0] for t in tokens if t.type == "dt_open" and t.map is not None]
        """Lines of the definition terms, in order."""
        self.firsts = [lines_of(t)[0] for t in self.opens]
        """First line of each container: a definition's is its marker's (deflist maps a definition
        after the first from its term's line, and blank lines may come between)."""
        own_terms, self.later_terms = _sibling_terms(tokens)
        for k, token in enumerate(self.opens):
            if token.type == DEFINITION:
                first, last = lines_of(token)
                terms = own_terms.get(id(token), ())
                while first + 1 < last and (first in terms or not self.lines[first].strip()):
                    first += 1
                self.firsts[k] = first
        self.footnote = bool(self.opens) and self.opens[0].type == FOOTNOTE and self.firsts[0] == 0
        """Whether the block is a footnote definition (its first line holds the label)."""
        self.definitions = frozenset(f for f, t in zip(self.firsts, self.opens, strict=True) if t.type == DEFINITION)
        """Lines where a definition's marker is."""
        self.closers = frozenset(self._closing_lines())
        """Closing lines (``:::``) of the ``:::`` containers in the block: no piece starts with one."""
        self.own = self._own()
        """The line the block's first container opens on when only label lines come before it (a MyST
        target ``(name)=``, an attribute line ``{#id}``, named anchors: the block starts with them), else
        0: in a block with a frame, that container is the frame's, which the frame re-opens and closes."""

    def _own(self) -> int:
        if not self.opens:
            return 0
        first = self.firsts[0]
        for token in self.tokens:
            if token.map is None or token.map[0] >= first:
                continue
            if token.type not in _LABELS:
                return 0
            if token.type in ("paragraph_open", "html_block") and self.lines[token.map[0]].lstrip()[:2].lower() != "<a":
                return 0
        return first

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
            marker = FENCED.get(token.type)
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
            marker = FENCED.get(self.opens[k].type)
            if marker is None or (frame and first == self.own):
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


def _sibling_terms(tokens: Sequence[LineToken]) -> tuple[dict[int, AbstractSet[int]], list[int]]:
    """The lines of the terms of each definition's own list, by ``id`` of its ``dd_open`` token: a
    definition's marker line is past those, not past the terms of lists nested in it (``:   Term``
    over ``    ~ its definition`` opens a definition and a nested term on one line); and the lines
    of the terms after the first of their list. The definitions of a list share one set, of all its terms (a
    definition's own lines lie before its list's later terms): a copy of the terms so far for each definition
    was n^2 for a list of n items (20,000 items with fences: most of 33 s)."""
    out: dict[int, AbstractSet[int]] = {}
    later: list[int] = []
    lists: list[set[int]] = []  # per open definition list, its term lines
    for token in tokens:
        kind = token.type
        if kind == "dl_open":
            lists.append(set())
        elif kind == "dl_close" and lists:
            lists.pop()
        elif kind == "dt_open" and lists and token.map is not None:
            if lists[-1]:
                later.append(token.map[0])
            lists[-1].add(token.map[0])
        elif kind == DEFINITION and lists:
            out[id(token)] = lists[-1]
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
