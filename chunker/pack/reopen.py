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
  cut left behind.

Quotes need no line of their own: every line of a quote carries its marker. The structure comes
from the block's outline (the document's own markdown-it tokens, kept by the segmenter), or where
it has none (the pulldown-cmark path, see :func:`block_structure`) from a parse of the block (once
per block, on the first piece that needs it; pulldown-cmark's on that path, in markdown-it-py's
token shape: :mod:`chunker.parse.pulldown_outline`);
the columns from the source lines, by CommonMark's rule for list items (marker, 1-4 spaces).
When the block is too large to parse again, uses tabs in the prefix, or a line is lazy, nothing
is re-opened but a nested fence (the validator's rendering check reports what that changes).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from chunker.outline import LineToken, Outline
from chunker.rendering import MAX_CHECKED_CHARS

_CONTAINERS = frozenset({"list_item_open", "blockquote_open", "admonition_open", "container_block_open"})


class Structure:
    """The containers of one block, by line (0-based within the block), from its tokens."""

    def __init__(self, text: str, tokens: Sequence[LineToken]) -> None:
        self.tokens = tokens
        """The block's tokens: the validator's rendering check reuses them as the source's parse."""
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.opens: list[LineToken] = [t for t in tokens if t.type in _CONTAINERS and t.map is not None]
        self.fences: list[tuple[int, int]] = [_lines(t) for t in tokens if t.type == "fence" and t.map is not None]
        self.code: list[tuple[int, int]] = [_lines(t) for t in tokens if t.type == "code_block" and t.map is not None]
        self.paragraphs = [_lines(t) for t in tokens if t.type == "paragraph_open" and t.map is not None]
        self.leaf_starts = {t.map[0] for t in tokens if t.map is not None and t.type not in _CONTAINERS}
        self.containers = any(t.type == "container_block_open" for t in self.opens)
        self.items = frozenset(_lines(t)[0] for t in self.opens if t.type == "list_item_open")
        """Lines where a list item opens."""
        self.whole_lines = [_lines(t) for t in tokens if t.type == "heading_open" and t.map is not None]
        """Line ranges no piece may start inside: headings, and a fence's opening and closing lines."""
        self.whole_lines += [(a, a + 1) for a, _ in self.fences] + [(b - 1, b) for a, b in self.fences if b - a > 1]
        self.whole_lines.sort()
        self.whole_starts = [a for a, _ in self.whole_lines]
        self.content: dict[int, int] = {}
        """Content column of a list item (by its index in ``opens``)."""

    def first_line(self, k: int) -> int:
        return _lines(self.opens[k])[0]

    def chain(self, line: int) -> list[int]:
        """Indices in ``opens`` of the containers ``line`` lies in, outermost first."""
        return [k for k, t in enumerate(self.opens) if _lines(t)[0] <= line < _lines(t)[1]]

    def walk(self, line: int, chain: list[int]) -> int | None:
        """Column where the innermost of ``chain`` has its content on ``line``; records the content
        column of every item opened on ``line``. None for a lazy line or a tab."""
        text, cursor = self.lines[line], 0
        for k in chain:
            token = self.opens[k]
            if token.type == "list_item_open" and self.first_line(k) < line:
                column = self.content.get(k)
                if column is None or text[cursor:column].strip(" "):
                    return None
                cursor = column
                continue
            while cursor < len(text) and text[cursor] == " ":
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
            elif self.first_line(k) == line:
                cursor = len(text)  # a title line: nothing after it
        return None if "\t" in text[:cursor] else cursor

    def reopened(self, frame: str, offset: int) -> str | None:
        """The text a piece starting at ``offset`` (in the block's text) adds before itself."""
        line = bisect_right(self.starts, offset) - 1
        column = offset - self.starts[line]
        fence = next((a for a, b in self.fences if a < line < b or (a == line and self._past_marker(a, column))), None)
        anchor = line if fence is None else fence
        chain = self.chain(anchor)
        started: dict[int, int] = {}  # first line -> the innermost item or container opened there
        for k in chain:  # content columns of the items, outermost first, from their first lines
            first, kind = self.first_line(k), self.opens[k].type
            if first >= anchor or kind == "blockquote_open" or (frame and first == 0):
                continue  # a quote's markers are on every line; the block's own frame is ``frame``
            started[first] = k
            outer = [j for j in chain if self.first_line(j) <= first]
            if kind == "list_item_open" and k not in self.content and self.walk(first, outer) is None:
                return None
        out = [frame, *(self._opener(k, first) + "\n" for first, k in sorted(started.items()))]
        text = self.lines[line]
        content = self.walk(line, chain)
        if fence is not None:  # the fence line, and the line's containers (its text is code)
            keep = column if content is None or not text[content:column].strip() else content
            return "".join([*out, self.lines[fence], "\n", text[:keep]])
        if content is None:  # a lazy continuation line: the prefix of its paragraph's first line
            start = next((a for a, b in self.paragraphs if a < line < b), None)
            prefix = self.lines[start][: self.walk(start, chain) or 0] if start is not None else ""
            if not prefix:
                return None
            return "".join([*out, "".join(c if c in "> " else " " for c in prefix)])
        whole = column <= content or not text[content:column].strip()
        code = any(a <= line < b for a, b in self.code)
        if code and not whole:  # inside a line of indented code: its indentation keeps it code
            indent = content + len(text[content:]) - len(text[content:].lstrip(" \t"))
            return "".join([*out, text[:indent]])
        own = code or line in self.leaf_starts
        return "".join([*out, text[:column] if whole and own else text[: min(content, column)]])

    def uncut(self, offset: int) -> bool:
        """Whether ``offset`` lies inside a heading nested in the block (or a fence line), past the
        start of its text: a piece starting there would cut a heading's text (or a setext
        heading's text from its underline, a fence's marker run), and both parts would render as
        something else."""
        if not self.whole_lines:
            return False
        line = bisect_right(self.starts, offset) - 1
        column = offset - self.starts[line]
        k = bisect_right(self.whole_starts, line) - 1  # the ranges do not overlap
        if k < 0 or line >= self.whole_lines[k][1]:
            return False
        text = self.lines[line]
        return line > self.whole_lines[k][0] or column > len(text) - len(text.lstrip(" \t>"))

    def _past_marker(self, line: int, column: int) -> bool:
        """Whether ``column`` of a fence's opening line lies past its marker run (in its info)."""
        text = self.lines[line]
        marker = min((i for i in (text.find("```"), text.find("~~~")) if i >= 0), default=-1)
        return 0 <= marker < column

    def closing(self, end: int, frame: bool) -> str:
        """The closing lines of the ``:::`` containers nested in the block that a piece ending at
        ``end`` (in the block's text) leaves open, innermost first (their source lines)."""
        line = bisect_right(self.starts, max(end - 1, 0)) - 1
        out = []
        for k in reversed(self.chain(line)):
            first, last = _lines(self.opens[k])
            if self.opens[k].type != "container_block_open" or (frame and first == 0):
                continue
            close = min(last, len(self.lines) - 1)  # the map ends before the closing line
            while close > first and not _colons(self.lines[close]):
                close -= 1
            if first < close and line < close:
                out.append("\n" + self.lines[close])
        return "".join(out)

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


def _colons(line: str) -> bool:
    text = line.strip()
    return len(text) >= 3 and text == ":" * len(text)


def _lines(token: LineToken) -> tuple[int, int]:
    assert token.map is not None
    return token.map[0], token.map[1]


def block_structure(
    text: str, outline: Outline | None, parse: Callable[[str], Sequence[LineToken]]
) -> Structure | None:
    """The structure of a block's text from its outline (the document's own tokens), else from a
    parse of the text (a block the segmenter kept no outline for); None when it is too large."""
    if len(text) > MAX_CHECKED_CHARS:
        return None
    return Structure(text, outline.tokens() if outline is not None else parse(text))
