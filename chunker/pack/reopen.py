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
from collections.abc import Callable, Sequence

from chunker.outline import LineToken, Outline
from chunker.pack.containers import DEFINITION, FOOTNOTE, around, lines_of
from chunker.pack.piece_starts import PieceStarts
from chunker.pack.setext import underlined, underlines_ahead
from chunker.rendering import MAX_CHECKED_CHARS

_MARKER_ALONE = re.compile(r"[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]*\n")
"""A re-opened list item's line with nothing after its marker: over a blank line the item would be empty
(an item starts with at most one blank line), and what follows would leave it."""
LEAD_CHARS = 240
"""At most this many characters of a re-opened item's first paragraph lead its marker in the text for
embedding (:meth:`Structure.lead`)."""
_CALLOUT = re.compile(r"([ \t]*(?:>[ \t]?)+[ \t]*\[![A-Za-z][\w-]*\][+-]?(?:[ \t][^\n]*)?)$")
"""A quote's first line that makes it a callout (GitHub's ``> [!NOTE]``, Obsidian's ``> [!tip]- Title``,
Microsoft Learn's ``> [!WARNING]``): group 1, the line at its indentation in the block, is what a piece
cut from inside the callout embeds before its own lines (:meth:`Structure.reopened`; ``content_original``
needs no line, as every line of a quote carries its marker)."""
_RULE = re.compile(r"(?:[ ]*>)*[ ]{0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})")
"""A thematic break (past quote markers): a line of re-opened markers of the shape reads as one."""


class Structure(PieceStarts):
    """A block's containers, their content columns and where no piece may start (:class:`PieceStarts`),
    and what a piece starting at an offset in it re-opens."""

    def __init__(self, text: str, tokens: Sequence[LineToken], following: str = "") -> None:
        super().__init__(text, tokens)
        self.following = following
        """The source's lines right after the block, up to a blank line: a chunk may go on into them
        (a thematic break ``---`` right under a list is a line of ``-`` to a re-opened term)."""
        self.refused: set[tuple[int, int]] = set()
        """Lines and columns (as :meth:`position`) where no piece may start: its first line would read
        as indented code (:meth:`_deep`), or re-opening a definition's term there would make it and
        the lines after it a setext heading (:meth:`_underlined`) or another block (:meth:`read_first`)."""
        self.underline_ahead: list[int] | None = None
        """:func:`chunker.pack.setext.underlines_ahead` of the lines, when first needed."""
        self.leads: dict[tuple[int, int], str] = {}
        """Lines and columns (as :meth:`position`) where a piece re-opens list items, and what it
        re-opens in its text for embedding: each item's marker followed by the start of the item's
        first paragraph (:meth:`lead`), where the piece itself re-opens the marker alone."""

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
            if lines_of(token)[1] <= line:
                return None
            chain.append(k)
        a, b = around(self.fences, line)
        if a < line < b or self.walk(line, chain) is None or self._deep(line, chain, self.lines[line]):
            return None  # the walk decides (a line indented as code: it refuses it)
        return frame if line else ""

    def _walked(self, frame: str, line: int, column: int) -> str | None:
        """:meth:`reopened` by the walk of the containers around ``line``."""
        a, b = around(self.fences, line)
        fence = a if a < line < b or (a == line and self._past_marker(a, column)) else None
        anchor = line if fence is None else fence
        if anchor == 0:
            frame = ""  # the piece starts on the frame's own line (a footnote's label): its prefix re-opens it
        chain = self.chain(anchor)
        started: dict[int, int] = {}  # first line -> the innermost item or container opened there
        callouts: list[tuple[int, str]] = []  # first line and title line of each callout the piece is in
        for k in chain:  # content columns of the items, outermost first, from their first lines
            first, kind = self.first_line(k), self.opens[k].type
            own = frame and k == 0 and first == self.own  # the block's own container: ``frame`` re-opens it
            if kind == "blockquote_open" and first < anchor:
                callouts += self._callout(first)
            if (first >= anchor and kind != DEFINITION) or kind == "blockquote_open" or own:
                continue  # a quote's markers are on every line
            if kind in ("list_item_open", DEFINITION) and k not in self.content and self._unwalked(first, chain):
                return None
            if kind != DEFINITION or first < anchor or fence is not None or column > self.markers[k]:
                started[first] = k  # a definition also past its marker, or inside a fence on its line
        openers = self._openers([started[first] for first in sorted(started)], (line, column))
        if openers is None:
            return None
        lines, pending, term, owners = openers
        leads = [self.lead(k, anchor) if k is not None else "" for k in owners]
        if any(_RULE.fullmatch(text, 0, len(text) - 1) for text in lines):
            self.refused.add((line, column))  # items' markers alone that read as a thematic break (``* * *``)
            return None
        head = self.table_heads.get(line)
        if head is not None and fence is None:  # a body row of a nested table: its header rows
            lines += [_after(pending, self.lines[head] + "\n"), self.lines[head + 1] + "\n"]
            pending = None
        tail = self._tail(line, column, chain, fence, pending)
        if tail is None:
            return None
        opening = tail + self.lines[line][column:]  # the piece's first line, as re-opened
        if lines and _MARKER_ALONE.fullmatch(lines[-1]) and not opening.strip(" \t>"):
            self.refused.add((line, column))  # an item's marker alone over a blank line: an empty item
            return None
        # a definition's marker before a piece starting left of its content column (at a line start)
        # shifts the piece's text right: an item opened there, or indented code, no longer lines up
        shifted = pending is not None and column < pending[1]
        if (fence is None and (shifted or self._deep(line, chain, opening))) or (
            term is not None and self._underlined(lines[term:], opening, line)
        ):
            self.refused.add((line, column))
            return None
        led = [text[:-1] + " " + lead + "\n" if lead else text for text, lead in zip(lines, leads, strict=False)]
        if callouts:
            firsts = [self.first_line(k) if k is not None else None for k in owners]
            led = _with_callouts(led + lines[len(led) :], firsts + [None] * (len(lines) - len(firsts)), callouts)
        if led != lines[: len(led)]:
            self.leads[(line, column)] = "".join([frame, *led, *lines[len(led) :], tail])
        return "".join([frame, *lines, tail])

    def _callout(self, first: int) -> list[tuple[int, str]]:
        """The quote opened on line ``first`` as a callout (its first line and title line), none if it is no
        callout (:data:`_CALLOUT`)."""
        title = _CALLOUT.match(self.lines[first])
        return [] if title is None else [(first, title.group(1) + "\n")]

    def _unwalked(self, first: int, chain: list[int]) -> bool:
        """Whether the walk fails at an item's ``first`` line through the containers of ``chain`` opened by then."""
        return self.walk(first, [j for j in chain if self.first_line(j) <= first]) is None

    def lead(self, k: int, before: int) -> str:
        """The start of list item ``k``'s first paragraph or heading (an outliner's ``- ## Usage``), from its
        content column, on its lines before ``before`` (a piece's first line) and within :data:`LEAD_CHARS` (""
        where the item opens with neither, or its first line alone is longer): what a piece cut from inside the
        item embeds after its re-opened marker (``2.`` -> ``2. Create the Pod:``, ``-`` -> ``- ## Usage``).
        A nested list's later items, or code cut from a step, are otherwise embedded without the words that
        introduced them. What the chunk embeds only: ``content_original`` re-opens the marker alone."""
        first, content = self.first_line(k), self.content.get(k)
        a, b = p if (p := around(self.paragraphs, first))[0] == first else around(self.headings, first)
        if content is None or a != first:
            return ""
        text = self.lines[first][content:].rstrip()
        if not text or len(text) > LEAD_CHARS or "``" in text or "~~" in text:
            return ""
        parts = [text]
        size = len(text)
        for line in range(first + 1, min(b, before)):
            more = self.lines[line].rstrip()
            size += len(more) + 1
            if size > LEAD_CHARS or "``" in more or "~~" in more:
                break
            parts.append(more)
        return "\n".join(parts)

    def _openers(
        self, openers: list[int], at: tuple[int, int]
    ) -> tuple[list[str], tuple[str, int] | None, int | None, list[int | None]] | None:
        """The lines that re-open the containers ``openers`` (outermost first), a definition's
        marker still pending, and the index of the first term line among the lines (None without):
        a definition cannot open on a line of its own (``:`` alone is no marker), so it re-opens as
        its term's line and its marker (``:   ``), which goes before the next line's text from the
        definition's content column on (the pending (marker, column)); a definition's term in a
        definition goes after the outer one's marker; a footnote nested in the block re-opens as its
        label line up to its label. None where a label's end is not known, or where a term re-opened
        alone would read as another block (:meth:`read_first`: then no piece starts ``at``); last, for
        each line, the list item it re-opens with its marker alone (None for any other line)."""
        out: list[str] = []
        owners: list[int | None] = []
        pending: tuple[str, int] | None = None
        term: int | None = None
        for k in openers:
            kind, first = self.opens[k].type, self.first_line(k)
            if kind == DEFINITION or first in self.definitions:  # a definition's term, once
                term = len(out) if term is None else term
                term_line = max((t for t in self.terms if t < first), default=first)
                if term_line in self.read_first():
                    self.refused.add(at)
                    return None
                line = self.lines[term_line] + "\n"
                out.append(_after(pending, line))  # in a definition: after its marker
                owners.append(None)
                pending = None
            if kind == DEFINITION:
                pending = (self.lines[first][: self.markers[k] + 1] + " ", self.content[k])
                continue
            if kind == FOOTNOTE:
                label = self._label(k, first)
                if label is None:
                    return None
                out.append(_after(pending, label + "\n"))  # its label line up to the label: its
                owners.append(None)
                pending = None  # later lines are 4 columns in, as the piece's line already is
                continue
            opener = self._opener(k, first) + "\n"  # on a definition's first line: with its marker
            out.append(_after(pending, self._unlabelled(opener) if first == 0 and self.footnote else opener))
            owners.append(k if kind == "list_item_open" and self.lines[first].strip() else None)
            pending = None
        return out, pending, term, owners

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
        a, b = around(self.code, line)
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
        return underlined(added[0], (*added[1:], first), self._underlines()[line])

    def _underlines(self) -> list[int]:
        """:attr:`underline_ahead`, computed on the first call (once per block)."""
        if self.underline_ahead is None:
            after = self.following.split("\n") if self.following else []
            self.underline_ahead = underlines_ahead([*self.lines, *after])[: len(self.lines)]
        return self.underline_ahead

    def _read_otherwise(self, line: int, content: int) -> bool:
        """:meth:`PieceStarts._read_otherwise`, or the term's line is a setext heading's text at a
        piece's start: a line of ``-`` or ``=`` follows it before a blank line."""
        return super()._read_otherwise(line, content) or underlined(self.lines[line], (), self._underlines()[line])

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
        if content is None:  # a lazy continuation line: the prefix of its paragraph's first line,
            # less the spaces the piece starts with (its text at the paragraph's column, not past it)
            a, b = around(self.paragraphs, line)
            start = a if a < line < b else None
            prefix = self.lines[start][: self.walk(start, chain) or 0] if start is not None else ""
            if prefix and start == 0 and self.footnote:
                prefix = self._unlabelled(prefix)
            masked = "".join(c if c in "> " else " " for c in prefix)
            if not masked:
                return None
            own = len(text) - column - len(text[column:].lstrip(" "))  # the piece's own spaces before its text
            return masked[: len(masked) - min(own, len(masked) - len(masked.rstrip(" ")))]
        whole = column <= content or not text[content:column].strip()
        a, b = around(self.code, line)
        code = a <= line < b
        if code and not whole:  # inside a line of indented code: its indentation keeps it code
            indent = content + len(text[content:]) - len(text[content:].lstrip(" \t"))
            return _after(pending, text[:indent])
        own = code or line in self.leaf_starts
        return _after(pending, text[: column if whole and own else min(content, column)])

    def refuses(self, offset: int) -> bool:
        """Whether :meth:`reopened` found no re-opening that renders as the source at ``offset``."""
        return bool(self.refused) and self.position(offset) in self.refused

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
        (one space after it) where CommonMark allows: up to 3 columns past its parent's content
        column (past the spaces before it where they follow a label or a definition's marker); not
        where an item opened on the same line has its content at the marker (``+  1.``), whose
        content column would move with it."""
        token = self.opens[k]
        if token.type != "list_item_open":
            return self.lines[line]
        marker = token.info + token.markup
        text = self.lines[line]
        content = self.content[k]
        start = text.rfind(marker, 0, content)
        shift = content - (start + len(marker)) - 1
        lead = text[:start]
        base = self.based.get(k)  # the marker's indentation past its parent's content column
        indent = start - base if base is not None and base <= start else len(lead) - len(lead.rstrip(" "))
        if shift > 0 and indent + shift <= 3 and not self._outer_item_at(k, line, start):
            lead += " " * shift
        return lead + marker

    def _outer_item_at(self, k: int, line: int, column: int) -> bool:
        """Whether a list item opened on ``line`` before container ``k`` has its content at ``column``."""
        j = k - 1
        while j >= 0 and self.open_starts[j] == line:
            if self.opens[j].type == "list_item_open" and self.content.get(j) == column:
                return True
            j -= 1
        return False


def _after(pending: tuple[str, int] | None, text: str) -> str:
    """``text`` (a line's start), after a definition's pending marker: from its content column on."""
    if pending is None:
        return text
    marker, column = pending
    return marker + text[column:]


def block_structure(
    text: str, outline: Outline | None, parse: Callable[[str], Sequence[LineToken]], following: str = ""
) -> Structure | None:
    """The structure of a block's text from its outline (the document's own tokens), else from a
    parse of the text (a block the segmenter kept no outline for); None when it is too large.
    ``following``: :attr:`Structure.following`."""
    if len(text) > MAX_CHECKED_CHARS:
        return None
    return Structure(text, outline.tokens() if outline is not None else parse(text), following)


def _with_callouts(lines: list[str], firsts: list[int | None], callouts: list[tuple[int, str]]) -> list[str]:
    """``lines`` (re-opened lines of list items, ``firsts`` the first line of each one's item, None for
    any other) with the title line of each callout in ``callouts`` (first line, text) before the first
    item opened after it: outermost first, as the containers nest."""
    out: list[str] = []
    pending = list(callouts)
    for text, first in zip(lines, firsts, strict=True):
        while pending and first is not None and pending[0][0] < first:
            out.append(pending.pop(0)[1])
        out.append(text)
    out.extend(text for _, text in pending)
    return out
