"""Block tokens from pulldown-cmark's events (:class:`chunker.parse.pulldown.PulldownTokens`).

The events come with the source byte ranges of their elements. What is built is what the segmenter
reads (:mod:`chunker.parse.pulldown`'s docstring says which tokens and why), and the loop over the
events is the cost of this path beyond pulldown-cmark's own parse: over the shared corpus 0.97
million events, of which about 0.3 million open or close a block. So the loop tells the kinds of
event apart with as few lookups as it can, and does the common cases itself, without a call:
inline events (text, breaks, code spans, inline HTML) and inline containers (emphasis, links,
images, table cells: ~165,000 starts and as many ends over the corpus, each a method call until
the loop told them apart itself) are passed over; a paragraph, a list item, a table row, a
heading, a code or HTML block opens a frame and closes it with a ``pop`` (none of them has a
closing token or a map to fix); a top-level paragraph makes its token in the loop, counting lines
on from the last token's start; a nested paragraph or list item opens its frame (no token) in
the loop too. A top-level heading is one token that holds its text, made at its start.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Builder", "Token"]

_FENCE_RUN = re.compile(r"[ \t>]*(`{3,}|~{3,})")
_FENCE_RUN_BYTES = re.compile(rb"[ \t>]*(`{3,}|~{3,})")


class Token:
    """A block token with the attributes the segmenter reads (:class:`chunker.parse.token.BlockToken`):
    a tenth of the cost of building markdown-it-py's ``Token``, which this path makes ~100,000 of
    on the 73 German laws."""

    __slots__ = ("content", "info", "level", "map", "markup", "nesting", "tag", "type")

    def __init__(self, kind: str, tag: str, nesting: int, line_map: list[int] | None, level: int, markup: str) -> None:
        self.type = kind
        self.tag = tag
        self.nesting = nesting
        self.map = line_map
        self.level = level
        self.markup = markup
        self.content = ""
        self.info = ""


class Builder:
    """Block tokens from pulldown-cmark events with byte ranges of ``body``.

    ``frames`` holds one entry per open block-level tag: the token opened for it (whose closing
    token is emitted at its end), or None where the segmenter needs no token. Its length is the
    markdown-it-py level of a token emitted there."""

    def __init__(self, body: str, data: bytes) -> None:
        self.data: Any = body if len(data) == len(body) else data
        """``body`` if it is ASCII, else ``data``, its UTF-8 bytes (the events' ranges are byte offsets)."""
        ascii_body = isinstance(self.data, str)
        self.newline: Any = "\n" if ascii_body else b"\n"
        self.blank: Any = " \t" if ascii_body else b" \t"
        self.hash: Any = "#" if ascii_body else b"#"
        self.fence_run = _FENCE_RUN if ascii_body else _FENCE_RUN_BYTES
        self.at = 0
        self.at_line = 0
        """An offset and its line: lines are counted on from the last token's start (starts only grow)."""
        self.out: list[Token] = []
        self.frames: list[Token | None] = []
        self.deepest = 0
        """The most frames open at once (markdown-it-py's nesting level)."""
        self.last_item = 0
        """End line of the last item of the open top-level list."""
        self.top_list: Token | None = None
        """The token of the last top-level list (whose items are joints while it is the only frame)."""

    def line_map(self, span: dict[str, int]) -> list[int]:
        """[first line, line after the last] of a byte range, like markdown-it-py's ``Token.map``."""
        start, end = span["start"], span["end"]
        count = self.data.count
        at = self.at
        line = self.at_line + count(self.newline, at, start) if start >= at else count(self.newline, 0, start)
        self.at, self.at_line = start, line
        return [line, line + 1 + count(self.newline, start, max(start, end - 1))]

    def line_of(self, offset: int) -> int:
        """The line of ``offset``, counted on from the last token's start."""
        at = self.at
        line: int = (
            self.at_line + self.data.count(self.newline, at, offset)
            if offset >= at
            else self.data.count(self.newline, 0, offset)
        )
        self.at, self.at_line = offset, line
        return line

    def text(self, start: int, end: int) -> str:
        piece = self.data[start:end]
        return piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass")

    def emit(self, kind: str, tag: str, nesting: int, span: dict[str, int] | None, markup: str = "") -> Token:
        """A token at the level of the open frames (a closing token is emitted after its frame is
        closed, so it gets its opening's level)."""
        token = Token(kind, tag, nesting, self.line_map(span) if span else None, len(self.frames), markup)
        self.out.append(token)
        return token

    def tokens(self, events: Any) -> list[Token]:  # noqa: C901 (one loop over ~1 M events: each common case inline, no call)
        # A body given to this path has no ``$$``, so pulldown-cmark makes no display math (a
        # ``$$`` formula alone in its paragraph would be dollarmath's math block): no inline event
        # needs to be looked at. Tags are strings but for those with data (a heading, a list, a
        # code block, a table, a quote, a link, an image), which are one-key dicts.
        frames, out = self.frames, self.out
        push, pop, append = frames.append, frames.pop, out.append
        newline, count = self.newline, self.data.count
        begin, finish, pop_only, block_tags = self.begin, self.finish, _POP_ONLY, _BLOCK_TAGS
        for event, span in events:
            if type(event) is str:  # a break or a rule
                if event == "Rule":
                    self.emit("hr", "hr", 0, span)
                continue
            tag = event.get("Start")
            if tag is not None:
                if type(tag) is not str:  # a tag with data
                    if "Link" not in tag:  # a link (a third of them) opens no frame: no call
                        begin(tag, span)
                elif tag == "Paragraph":
                    if not frames:  # one token: the segmenter reads a leaf's opening only
                        first, last = span["start"], span["end"]
                        at = self.at
                        line = self.at_line + count(newline, at, first) if first >= at else count(newline, 0, first)
                        self.at, self.at_line = first, line
                        line_map = [line, line + 1 + count(newline, first, last - 1)]
                        token = Token("paragraph_open", "p", 0, line_map, 0, "")
                        append(token)
                        push(token)
                        if not self.deepest:
                            self.deepest = 1
                    else:  # in a list item or a quote: no token
                        push(None)
                        if len(frames) > self.deepest:
                            self.deepest = len(frames)
                elif tag == "Item":
                    if len(frames) == 1 and frames[0] is not None and frames[0] is self.top_list:
                        self.item(span)  # a joint of a top-level list
                    else:  # a nested list's item: no token
                        push(None)
                        if len(frames) > self.deepest:
                            self.deepest = len(frames)
                elif tag in block_tags:  # a table row or head, an HTML block
                    begin(tag, span)
                # else an inline container or a table cell: no frame
                continue
            tag = event.get("End")
            if tag is not None:
                if type(tag) is not str:  # a heading (a frame with no token), a list, a quote
                    if "Heading" in tag:
                        pop()
                    else:
                        finish(tag)
                elif tag in pop_only:  # a frame with no closing token, no map to fix
                    pop()
                elif tag == "Table":
                    self.end(tag)
                # else the end of an inline container or a table cell
        self.clamp()
        return self.out

    def begin(self, tag: Any, span: dict[str, int]) -> None:
        """The start of a block tag that the loop does not handle itself: a tag with data (an
        image among them, which opens no frame), a table row or head, an HTML block."""
        if type(tag) is str:
            self.start(tag, tag, span)
        else:
            name = next(iter(tag))
            if name in _BLOCK_TAGS:
                self.start(name, tag, span)

    def finish(self, tag: Any) -> None:
        """The end of a tag with data (a list, a quote)."""
        name = next(iter(tag))
        if name in _BLOCK_TAGS:
            self.end(name)

    def item(self, span: dict[str, int]) -> None:
        """An item of the open top-level list: a joint, whose line is all that is read."""
        line_map = self.line_map(span)
        token = Token("list_item_open", "li", 0, line_map, 1, "")
        self.out.append(token)
        self.last_item = line_map[1]
        self.frames.append(token)
        if len(self.frames) > self.deepest:
            self.deepest = len(self.frames)

    def start(self, name: str, tag: Any, span: dict[str, int]) -> None:
        frames = self.frames
        top = not frames
        if len(frames) >= self.deepest:
            self.deepest = len(frames) + 1
        if name == "Heading":
            level = int(tag["Heading"]["level"][1:])
            if top:
                atx = self.data[span["start"] : span["end"]].lstrip(self.blank)[:1] == self.hash
                markup = "#" * level if atx else ("=" if level == 1 else "-")
                # one token (nesting 0) holding the heading's text: the segmenter reads no more
                opened = self.emit("heading_open", f"h{level}", 0, span, markup)
                opened.content = self.heading_content(span, markup)
            frames.append(None)
        elif name == "CodeBlock":
            kind = tag["CodeBlock"]
            if kind == "Indented":
                self.emit("code_block", "code", 0, span)
            else:
                # the fence's marker run, read from the source as it is (str or bytes), not decoded:
                # a cut in a character's UTF-8 bytes raised UnicodeDecodeError
                run = self.fence_run.match(self.data, span["start"], min(span["end"], span["start"] + 4096))
                marker: str | bytes = run.group(1) if run else "```"
                token = self.emit("fence", "code", 0, span, marker if isinstance(marker, str) else marker.decode())
                token.info = kind.get("Fenced", "") if isinstance(kind, dict) else ""
            frames.append(None)
        elif name == "HtmlBlock":
            token = self.emit("html_block", "", 0, span)
            if top:  # the segmenter reads a top-level HTML block's text (<details> ... </details>)
                token.content = self.text(span["start"], span["end"])
            frames.append(None)
        else:
            self.start_container(name, tag, span)

    def start_container(self, name: str, tag: Any, span: dict[str, int]) -> None:
        frames = self.frames
        top = not frames
        if name == "List":
            if top:
                ordered = tag["List"] is not None
                kind, html = ("ordered_list_open", "ol") if ordered else ("bullet_list_open", "ul")
                # its end line is set from its last item's at its end (an item's range lies in its
                # list's): the list's range is not counted through
                line = self.line_of(span["start"])
                self.top_list = Token(kind, html, 1, [line, line + 1], 0, "")
                self.out.append(self.top_list)
                frames.append(self.top_list)
                self.last_item = 0
            else:
                frames.append(None)
        elif name == "Table":
            frames.append(self.emit("table_open", "table", 1, span))
        elif name == "TableRow":
            if len(frames) == 1 and frames[0] is not None and frames[0].type == "table_open":
                frames.append(self.emit("tbody_open", "tbody", 1, span))
            frames.append(self.emit("tr_open", "tr", 0, span) if len(frames) == 2 else None)
        elif name == "BlockQuote":
            frames.append(self.emit("blockquote_open", "blockquote", 1, span) if top else None)
        else:  # TableHead
            frames.append(None)

    def end(self, name: str) -> None:
        frames = self.frames
        if name == "Table" and len(frames) > 1 and frames[-1] is not None and frames[-1].type == "tbody_open":
            frames.pop()
            self.emit("tbody_close", "tbody", -1, None)
        opened = frames.pop()
        if opened is None:
            return
        if name == "List" and opened.map is not None:
            # a list's range runs on over link reference definitions after it: end with its last item
            # (a list has one; its range ends after the last item's, which lies in it)
            opened.map[1] = max(opened.map[0] + 1, self.last_item)
        if opened.nesting == 1:
            self.emit(opened.type.replace("_open", "_close"), opened.tag, -1, None)

    def clamp(self) -> None:
        """End each top-level block where the next one starts: pulldown-cmark's range of a list
        (or quote) can run on over blank lines into the first line of the block after it."""
        following: list[int] | None = None
        for token in reversed(self.out):
            if token.level != 0 or token.nesting == -1 or token.map is None:
                continue
            if following is not None and token.map[1] > following[0]:
                token.map[1] = max(token.map[0], following[0])
            following = token.map

    def heading_content(self, span: dict[str, int], markup: str) -> str:
        """A heading's source text as markdown-it-py's inline token holds it: an ATX heading's line
        without its opening and closing ``#`` runs; a setext heading's lines without the underline."""
        source = self.text(span["start"], span["end"]).rstrip("\n")
        if not markup.startswith("#"):
            cut = source.rfind("\n")
            return source[:cut].strip() if cut != -1 else ""
        content = source.strip(" \t")[len(markup) :].rstrip(" \t")
        closing = content.rstrip("#")
        if len(closing) < len(content) and (not closing or closing[-1] in " \t"):
            content = closing
        return content.strip()


_BLOCK_TAGS = frozenset(
    ("Paragraph", "Heading", "CodeBlock", "HtmlBlock", "List", "Item", "Table", "TableHead", "TableRow", "BlockQuote")
)
"""pulldown-cmark tags that open a frame (the block structure); the others are inline."""
_POP_ONLY = frozenset(("Paragraph", "Item", "TableRow", "TableHead", "CodeBlock", "HtmlBlock"))
"""Block tags whose frame is closed by a ``pop``: no closing token (a paragraph, an item and a row
of the segmenter's are one token each) and no map to fix."""
