"""A block's own block tokens from pulldown-cmark, shaped as markdown-it-py's parse of the block alone.

The packer re-opens the containers a piece of a list or quote lies in (:mod:`chunker.pack.reopen`)
and the validator compares a piece's block structure with its source's (:mod:`chunker.rendering`).
On the markdown-it-py path both read the block's outline (:mod:`chunker.outline`); the pulldown-cmark
path keeps none (its document tokens leave out most nested blocks), and parsed each such block
again with markdown-it-py: 466 blocks over the shared corpus, 5-7 % of that path's time. This
module gives the same tokens from pulldown-cmark's events of the block, about a tenth of the cost.

What is made is what an outline keeps: every block token but ``inline`` and table cells, with its
type, nesting, line map (``None`` on closing tokens) and, for a list item, its marker (``info``:
an ordered item's number, ``markup``: ``-``, ``*``, ``+``, ``.`` or ``)``), following
markdown-it-py's rules where the two parsers' ranges differ:

- a paragraph of a tight list item, which pulldown-cmark gives as bare inline events, is a
  ``paragraph_open`` / ``paragraph_close`` pair over the lines of those events;
- a list item ends (and its list with its last item) on the first line after its content that is
  not blank (in a quote, a line of only ``>`` markers is blank), or at the end of the text: its
  range in pulldown-cmark ends with its content;
- a table is ``table``, ``thead`` with its header row, and ``tbody`` with the body rows.

A text with a line of plugin syntax, ``$$`` (dollarmath), nesting deeper than the limit or a
surrogate is not made here (None): markdown-it-py parses it. ``tests/test_pulldown_outline.py`` compares the tokens
with markdown-it-py's on the CommonMark spec, the blocks of the shared corpus and random documents.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate, repeat
from operator import add
from typing import Any

from chunker.config import ChunkerConfig
from chunker.outline import LineToken, OutlineToken
from chunker.parse.pulldown import _FIRST_CHARS, _RUNS, events

__all__ = ["block_parse", "block_tokens"]

_NESTED_PLUGIN = re.compile(r"^[ \t>]*+(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t][ \t>]*+)*+(?:" + _RUNS + ")", re.MULTILINE)
"""A line of plugin syntax (:data:`chunker.parse.pulldown._PLUGIN_SYNTAX`), also after list markers:
a block's text is a list or a quote, whose items may open an admonition or a container. Possessive:
no run of the pattern can start with a marker or a space, so nothing is given back (``[ \t]+[ \t>]*``
took quadratic time on a line of a marker and many spaces)."""
_NESTED_RUN = r"[ \t>]*+(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t][ \t>]*+)*+" + _FIRST_CHARS + "(?:" + _RUNS + ")"
_NESTED_FIRST = re.compile(_NESTED_RUN, re.MULTILINE)
_NESTED_LINE = re.compile(r"\n" + _NESTED_RUN, re.MULTILINE)
""":data:`_NESTED_PLUGIN` at the first line and after a newline: ``^`` is tried at every position
of the text, a pattern that starts with a literal character only where that character is; and
the first character of a run is checked before the runs are tried (most lines start with a
letter). The blocks the packer and the rendering check parse on the shared corpus (5.5 MB):
0.078 -> 0.016 s with the marker scan the search replaced."""


def _nested_plugin(text: str) -> bool:
    """Whether a line of ``text`` matches :data:`_NESTED_PLUGIN`."""
    return _NESTED_FIRST.match(text) is not None or _NESTED_LINE.search(text) is not None


_CLOSE = {
    "paragraph_open": "paragraph_close",
    "heading_open": "heading_close",
    "blockquote_open": "blockquote_close",
    "bullet_list_open": "bullet_list_close",
    "ordered_list_open": "ordered_list_close",
    "list_item_open": "list_item_close",
    "table_open": "table_close",
    "thead_open": "thead_close",
    "tbody_open": "tbody_close",
    "tr_open": "tr_close",
}


def block_parse(cfg: ChunkerConfig, page: str = "") -> Callable[[str], Sequence[LineToken]]:
    """The parse of a source block's text alone that the re-opening and the rendering check read
    where the block has no outline: pulldown-cmark's (:func:`block_tokens`) on that path, where it
    can, else markdown-it-py's; a part of ``page`` read as the page reads it
    (:func:`chunker.parse.templates.page_env`)."""
    from chunker.parse.markdown import syntax_parser
    from chunker.parse.templates import page_env

    md = syntax_parser(cfg.max_nesting, cfg)
    env = page_env(page)

    def parse(text: str) -> Sequence[LineToken]:
        return md.parse(text, env())

    if cfg.parser != "pulldown-cmark" or cfg.syntax in ("mdx", "pandoc"):
        return parse
    nesting = cfg.max_nesting

    def fast_parse(text: str) -> Sequence[LineToken]:
        tokens = block_tokens(text, nesting)
        return tokens if tokens is not None else parse(text)

    return fast_parse


def block_tokens(text: str, max_nesting: int) -> list[OutlineToken] | None:
    """markdown-it-py's block tokens of ``text`` parsed alone (see the module's docstring), or None
    where only markdown-it-py can say: plugin syntax, ``$$``, nesting at the limit."""
    if "$$" in text or _nested_plugin(text):
        return None
    builder = _Outliner(text)
    try:
        tokens = builder.run(events(text))
    except UnicodeEncodeError:  # a surrogate: pyromark takes UTF-8 only
        return None
    return None if builder.deepest >= max_nesting - 1 else tokens


class _Outliner:
    """The tokens of one text from its events; ``frames`` holds per open block-level tag its
    opening token (None for a tag that makes none: a table's head). Inline containers and table
    cells are counted in :meth:`run`, not pushed."""

    def __init__(self, text: str) -> None:
        self.data: Any = text if text.isascii() else text.encode("utf-8", "surrogatepass")
        newline: Any = "\n" if isinstance(self.data, str) else b"\n"
        # the offset after each line break, summed in C (a ``find`` per line was 6 % of this parse)
        self.starts = list(accumulate(map(add, map(len, self.data.split(newline)), repeat(1)), initial=0))
        self.starts.pop()  # past the end: the sum after the last line, which no break ends
        # markdown-it-py's line count: a final line break opens no line
        self.nlines = len(self.starts) - 1 if self.starts[-1] == len(self.data) else len(self.starts)
        self.out: list[OutlineToken] = []
        self.frames: list[tuple[str, OutlineToken | None, int]] = []
        """(pulldown-cmark tag, opening token or None, quote depth inside it)."""
        self.deepest = 0
        self.last_item: dict[int, OutlineToken] = {}
        """The last item of each open list, by the id of the list's opening token."""

    def line(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def span_lines(self, span: dict[str, int]) -> list[int]:
        start, end = span["start"], span["end"]
        start = self.skip_white(start, end)
        first = self.line(start)
        return [first, max(first + 1, self.line(max(start, end - 1)) + 1)]

    def skip_white(self, start: int, end: int) -> int:
        """``start`` moved past white space: a range may start at the indentation of a list item,
        or at the line break before a tab-indented one."""
        found = _NOT_WHITE[type(self.data)].search(self.data, start, end)
        return end if found is None else found.start()

    def blank(self, line: int, quoted: bool) -> bool:
        return not self.line_text(line).strip(" \t\r\n>" if quoted else " \t\r\n")

    def content_end(self, span: dict[str, int]) -> int:
        """The line after the last line of ``span`` that holds more than white space."""
        start, end = span["start"], span["end"]
        data, white = self.data, _WHITE[type(self.data)]
        while True:  # strip white space off the end, a window of bytes at a time
            window = max(start, end - 256)
            kept = len(data[window:end].rstrip(white))
            if kept or window == start:
                end = window + kept
                break
            end = window
        return self.line(max(start, end - 1)) + 1

    def emit(
        self, kind: str, nesting: int, line_map: list[int] | None, info: str = "", markup: str = ""
    ) -> OutlineToken:
        token = OutlineToken(kind, nesting, line_map, info, markup)
        self.out.append(token)
        return token

    def quote_depth(self) -> int:
        return self.frames[-1][2] if self.frames else 0

    def run(self, events: Any) -> list[OutlineToken]:
        # The hot loop, over every event of the text: a tight list item's paragraph (its inline
        # events directly in the item) is followed in two locals, and inline containers (emphasis,
        # links, images, table cells), which hold no block, are counted, not pushed as frames.
        frames, blocks, close_run = self.frames, _BLOCKS, self.close_run
        run_start, run_end = -1, 0
        """Range of the open tight paragraph's inline events (``run_start`` -1: none open)."""
        inline = 0
        """Inline containers open."""
        in_item = False
        """Whether the innermost open block is a list item."""
        for event, span in events:
            if type(event) is str:  # a break or a rule
                if event == "Rule":
                    run_start = close_run(run_start, run_end)
                    self.emit("hr", 0, self.span_lines(span))
                    continue
                if inline:
                    continue
            else:
                tag = event.get("Start")
                if tag is not None:
                    name = tag if type(tag) is str else next(iter(tag))
                    if name in blocks:
                        run_start = close_run(run_start, run_end)
                        self.start(name, tag, span)
                        in_item = name == "Item"
                        continue
                    inline += 1
                    if inline > 1:
                        continue
                else:
                    tag = event.get("End")
                    if tag is not None:
                        if inline:
                            inline -= 1
                            continue
                        run_start = close_run(run_start, run_end)
                        self.end(tag if type(tag) is str else next(iter(tag)), span)
                        in_item = bool(frames) and frames[-1][0] == "Item"
                        continue
                    if inline:  # text, code, inline HTML or math in an inline container
                        continue
            if in_item:  # an event outside inline containers, directly in a list item
                if run_start < 0:
                    run_start, run_end = span["start"], span["end"]
                elif span["end"] > run_end:
                    run_end = span["end"]
        close_run(run_start, run_end)
        return self.out

    def close_run(self, start: int, end: int) -> int:
        """The paragraph of a tight list item, whose inline events range from offset ``start`` to
        ``end``, if one is open (``start`` is not -1); -1 (none open now)."""
        if start >= 0:
            first = self.line(start)
            self.emit("paragraph_open", 1, [first, self.content_end({"start": self.starts[first], "end": end})])
            self.emit("paragraph_close", -1, None)
        return -1

    def start(self, name: str, tag: Any, span: dict[str, int]) -> None:
        depth = self.quote_depth()
        if len(self.frames) + 1 > self.deepest:
            self.deepest = len(self.frames) + 1
        token: OutlineToken | None = None
        if name == "Paragraph":
            token = self.emit("paragraph_open", 1, self.span_lines(span))
        elif name == "Heading":
            token = self.emit("heading_open", 1, self.span_lines(span))
        elif name == "CodeBlock":
            kind = "code_block" if tag["CodeBlock"] == "Indented" else "fence"
            self.emit(kind, 0, self.span_lines(span))
        elif name == "HtmlBlock":
            self.emit("html_block", 0, self.span_lines(span))
        elif name == "BlockQuote":
            token = self.emit("blockquote_open", 1, self.span_lines(span))
            depth += 1
        elif name == "List":
            kind = "ordered_list_open" if tag["List"] is not None else "bullet_list_open"
            token = self.emit(kind, 1, self.span_lines(span))
        elif name == "Item":
            token = self.item(span)
        elif name == "Table":
            first, last = self.span_lines(span)
            token = self.emit("table_open", 1, [first, last])
        elif name == "TableHead":
            first = self.line(span["start"])
            self.emit("thead_open", 1, [first, first + 1])
            token = self.emit("tr_open", 1, [first, first + 1])
        elif name == "TableRow":
            first = self.line(span["start"])
            table = self.frames[-1][1]
            if table is not None and table.type == "table_open":  # the first body row
                assert table.map is not None
                opened = self.emit("tbody_open", 1, [first, table.map[1]])
                self.frames.append(("TableBody", opened, depth))
            token = self.emit("tr_open", 1, [first, first + 1])
        self.frames.append((name, token, depth))

    def item(self, span: dict[str, int]) -> OutlineToken:
        start = self.skip_white(span["start"], span["end"])
        head = self.data[start : start + 24]
        if isinstance(head, bytes):
            head = head.decode("utf-8", "replace")
        if head[:1] in "-*+":
            info, markup = "", head[0]
        else:
            digits = len(head) - len(head.lstrip("0123456789"))
            info, markup = head[:digits], head[digits : digits + 1]
        return self.emit("list_item_open", 1, self.span_lines(span), info, markup)

    def item_end(self, first: int, span: dict[str, int], quoted: bool) -> int:
        """The line a list item's map ends at in markdown-it-py: the first line after its content
        that is not blank; two lines on for an item with nothing on its marker's line and a blank
        line after it (markdown-it-py's rule for an empty item)."""
        line = self.content_end(span)
        if line == first + 1 and (first + 1 >= self.nlines or self.blank(first + 1, quoted)):
            rest = self.line_text(first).lstrip(" \t>").lstrip("0123456789").lstrip("-*+.)")
            if not rest.strip(" \t\r\n"):
                return min(first + 2, self.nlines)
        while line < self.nlines and self.blank(line, quoted):
            line += 1
        return max(first + 1, line)

    def line_text(self, line: int) -> str:
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.data)
        piece = self.data[start:end]
        return piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass")

    def end(self, name: str, span: dict[str, int]) -> None:
        if name == "Table" and self.frames[-1][0] == "TableBody":
            self.frames.pop()
            self.emit("tbody_close", -1, None)
        _, opened, depth = self.frames.pop()
        if name == "TableHead":
            self.emit("tr_close", -1, None)
            self.emit("thead_close", -1, None)
            return
        if opened is None:
            return
        assert opened.map is not None
        if name == "Item":
            opened.map[1] = self.item_end(opened.map[0], span, depth > 0)
            parent = self.frames[-1][1] if self.frames else None
            if parent is not None:
                self.last_item[id(parent)] = opened
        elif name == "List":
            last_item = self.last_item.pop(id(opened), None)
            if last_item is not None and last_item.map is not None:
                opened.map[1] = last_item.map[1]
        self.emit(_CLOSE[opened.type], -1, None)


_WHITE: dict[type, Any] = {str: " \t\r\n", bytes: b" \t\r\n"}
_NOT_WHITE: dict[type, Any] = {str: re.compile(r"[^ \t\r\n]"), bytes: re.compile(rb"[^ \t\r\n]")}

_BLOCKS = frozenset(
    ("Paragraph", "Heading", "CodeBlock", "HtmlBlock", "List", "Item", "Table", "TableHead", "TableRow", "BlockQuote")
)
