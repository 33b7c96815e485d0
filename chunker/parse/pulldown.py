"""The optional fast block parse: pulldown-cmark (through ``pyromark``) instead of markdown-it-py.

``parser: pulldown-cmark`` in the config. pulldown-cmark is a CommonMark parser written in Rust;
its events carry source byte ranges, which are turned here into the markdown-it-py block tokens the
segmenter reads (type, nesting, level, line map, fence markup, heading text), so every stage after
the parse is the same code on either path. Only what the segmenter looks at is built: top-level
blocks with their line maps; inside a container, only the blocks whose kind it records (code, math,
HTML, tables) and the joints of oversize splits (the items of a top-level list, the body rows of a
top-level table). Inline events make no tokens; a heading's text is read from its source line.
A top-level paragraph, a top-level list's item and a top-level table's body row are one token each
(nesting 0: no ``inline`` and no closing token), where markdown-it-py makes three or two: the
segmenter reads the opening's type, level and line map only. That is 41 % fewer tokens over the
shared corpus.

markdown-it-py stays the default and the reference: ``tests/test_pulldown.py`` compares the blocks
of both paths on the CommonMark spec and the shared corpus, and README lists where they differ.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.models import Diagnostic
from chunker.parse.document import ParsedDocument
from chunker.parse.mixed import mixed_pieces
from chunker.parse.pieces import BlockTokens
from chunker.parse.pulldown_cost import too_many_events
from chunker.parse.token import BlockToken

__all__ = ["PulldownTokens", "available"]

_PLUGIN_MARKERS = ("!!!", "???", "::", "///", "[^", ": ", ":\t", "~ ", "~\t", "{", "%", "+", ")=", "- ", "-\t", "===")
"""Substrings one of which a document must hold to have a line of :data:`_PLUGIN_SYNTAX`."""
_RUNS = (
    r"%|\+[ \t]*\+[ \t]*\+|\([^\n]+\)=[ \t]*$|"  # MyST: comment, block break, target
    r"!!!|\?\?\?|===[+!]?[ \t]+\x22|:::|::[A-Za-z]|///|\[\^[^\]\s]+\]:|[:~][ \t]|"
    r"\{[ \t]*(?:[.#]|[^\s{}=%]+=)[^\n]*\}[ \t]*$|\{[ \t]*\}[ \t]*$|"
    r"\{%-?[ \t]*highlight\b|\{\{[<%][ \t]*(?:highlight|code|tab\b|[^\n]*\blang=)|"  # code as template tags
    r"(?=[^\n]*\|)(?=[|: \t-]*+$)[|: \t-]*?-[ \t]+-"  # a table delimiter row with a space inside a dash run
)
_PLUGIN_SYNTAX = re.compile(r"^[ \t>]*(?:" + _RUNS + ")", re.MULTILINE)
"""Lines whose text (after indentation and quote markers) may open an admonition, a content tab (``=== "Title"``) or a
``:::`` or ``///`` container or an MDC component (``::name``), a footnote definition (``[^1]:``), a definition of a
definition list (``: text``, ``~ text``) or an attribute line (one the attrs parser may accept: ``{}``, ``{.class}``,
``{#id}``, ``{key=value}``), a MyST comment (``% text``), block break (``+++``) or target (``(name)=``):
mdit-py-plugins' ``admon``, ``container``, ``footnote``, ``deflist``, ``attrs``, ``myst_blocks``
(:mod:`chunker.parse.plugins`, :mod:`chunker.parse.mdc`), which pulldown-cmark does not parse alike; and a table
delimiter row whose dash run holds a space (``| --- -- |``): no delimiter cell in GFM (markdown-it-py reads no
table), a table for pulldown-cmark (found in pydantic's docs). A document with one is parsed by markdown-it-py on
this path too. So are MDX (the rules of :mod:`chunker.parse.mdx`) and a document with ``$$``: dollarmath's math block
runs to its closing ``$$`` whatever lies between, pulldown-cmark's display math is inline and ends where a block (a
list item, a quote) interrupts its paragraph."""
_FIRST_CHARS = r"(?=[%+(!?=:/~\[{|-])"
"""The characters a run of :data:`_RUNS` starts with, once indentation and quote markers are passed
(a table delimiter row's first run character: ``|``, ``:`` or ``-``)."""
_LINE_START_RUN = re.compile(r"\n[ \t>]*+" + _FIRST_CHARS + "(?:" + _RUNS + ")", re.MULTILINE)
"""A newline and a line of :data:`_PLUGIN_SYNTAX` after it: a pattern that starts with a literal
character is searched for that character first, so only line starts are tried (``^`` in
:data:`_PLUGIN_SYNTAX` is tried at every position). The indentation is taken possessively and the
next character is checked against :data:`_FIRST_CHARS` before the runs are tried: most lines start
with a letter and fail there, where the table row's lookahead scanned each line to its end (the
same lines: only that run may start at a space, and it matches there only if it matches after
the spaces). Over the shared corpus 0.126 -> 0.034 s."""
_FIRST_LINE_RUN = re.compile(r"[ \t>]*+" + _FIRST_CHARS + "(?:" + _RUNS + ")", re.MULTILINE)
_FENCE_RUN = re.compile(r"[ \t>]*(`{3,}|~{3,})")


def _plugin_syntax(body: str) -> bool:
    """Whether a line of ``body`` matches :data:`_PLUGIN_SYNTAX`."""
    return bool(_plugin_lines(body, first_only=True))


def _plugin_lines(body: str, first_only: bool = False) -> list[int]:
    """The 0-based lines of ``body`` that match :data:`_PLUGIN_SYNTAX` (only the first with
    ``first_only``), found with :data:`_LINE_START_RUN` (over the corpus a tenth of the time of
    a search for the marker runs, which stopped at every ``: `` of the prose). No substring scan
    per marker of :data:`_PLUGIN_MARKERS` first: most documents hold ``: `` or ``- ``, found after
    up to five whole scans, which cost more than the search itself."""
    lines: list[int] = []
    if _FIRST_LINE_RUN.match(body):
        lines.append(0)
        if first_only:
            return lines
    counted, line = 0, 0
    for hit in _LINE_START_RUN.finditer(body):
        start = hit.start()
        line += body.count("\n", counted, start) + 1
        counted = start + 1
        lines.append(line)
        if first_only:
            break
    return lines


def available() -> bool:
    """Whether ``pyromark`` (the ``chunker[fast]`` extra) can be imported."""
    from importlib.util import find_spec

    return find_spec("pyromark") is not None


class PulldownTokens:
    """The block tokens of ``doc``'s body from pulldown-cmark, as one list (the same interface as
    :class:`chunker.parse.BlockTokens`). Maps are document lines: the frontmatter's lines are
    given to the parser as empty lines. The token list holds block tokens only (a few per block),
    so the body is parsed whole."""

    def __init__(self, doc: ParsedDocument, cfg: ChunkerConfig) -> None:
        self._doc = doc
        self._cfg = cfg

        self._fallback: BlockTokens | None = None

    @property
    def nested(self) -> bool:
        """Whether the tokens yielded are markdown-it-py's whole stream (a document parsed by it on
        this path): pulldown-cmark's tokens here leave out most nested blocks."""
        return self._fallback is not None

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The nesting-limit warning of the markdown-it-py parse, where it was used."""
        return self._fallback.diagnostics if self._fallback is not None else ()

    def __iter__(self) -> Iterator[Sequence[BlockToken]]:
        try:
            import pyromark
        except ImportError as exc:  # checked when the config is loaded; a library caller may skip that
            raise ConfigError("parser: pulldown-cmark needs the pyromark package: pip install 'chunker[fast]'") from exc
        doc = self._doc
        if doc.body_start_line >= len(doc.line_starts):
            yield []
            return
        body = "\n" * doc.body_start_line + doc.text[doc.line_starts[doc.body_start_line] :]
        tokens: list[_Token] | None = None
        plugin_lines: list[int] = []
        if self._cfg.syntax != "mdx" and "$$" not in body:
            data = body.encode("utf-8", "surrogatepass")
            if not too_many_events(data, doc.body_start_line):
                plugin_lines = _plugin_lines(body)
                tokens = self._pulldown_tokens(pyromark, body, data)
            del data
        del body  # neither is held while the pieces are made and consumed
        pieces: list[Sequence[BlockToken]] | None = None
        if tokens is not None:
            pieces = mixed_pieces(doc, self._cfg, tokens, plugin_lines) if plugin_lines else [tokens]
        if pieces is None:
            self._fallback = BlockTokens(doc, self._cfg)
            yield from self._fallback
            return
        yield from pieces

    def _pulldown_tokens(self, pyromark: Any, body: str, data: bytes) -> list[_Token] | None:
        """pulldown-cmark's block tokens of ``body`` (``data``: its UTF-8 bytes), or None where
        markdown-it-py must parse it."""
        options = pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_MATH
        builder = _Builder(body, data)
        try:
            tokens = builder.tokens(pyromark.events_with_range(body, options=options, merge_text=True))
        except UnicodeEncodeError:  # a surrogate (a library caller's text): pyromark takes UTF-8 only
            return None
        if builder.deepest >= self._cfg.max_nesting - 1:
            return None  # markdown-it-py flattens what lies past the nesting limit: do as it does
        return tokens


class _Builder:
    """Block tokens from pulldown-cmark events with byte ranges of ``body``.

    ``frames`` holds one entry per open block-level tag: the token opened for it (whose closing
    token is emitted at its end), or None where the segmenter needs no token. Its length is the
    markdown-it-py level of a token emitted there."""

    def __init__(self, body: str, data: bytes) -> None:
        self.data: Any = body if len(data) == len(body) else data
        """``body`` if it is ASCII, else ``data``, its UTF-8 bytes (the events' ranges are byte offsets)."""
        self.newline: Any = "\n" if isinstance(self.data, str) else b"\n"
        self.cursor = (0, 0)
        """(offset, its line): lines are counted on from the last token's start (starts only grow)."""
        self.out: list[_Token] = []
        self.frames: list[_Token | None] = []
        self.deepest = 0
        """The most frames open at once (markdown-it-py's nesting level)."""
        self.last_item = 0
        """End line of the last item of the open top-level list."""
        self.heading: dict[str, int] = {"start": 0, "end": 0}
        """Byte range of the open top-level heading."""

    def line_map(self, span: dict[str, int]) -> list[int]:
        """[first line, line after the last] of a byte range, like markdown-it-py's ``Token.map``."""
        start, end = span["start"], span["end"]
        count = self.data.count
        at, line = self.cursor
        line = line + count(self.newline, at, start) if start >= at else count(self.newline, 0, start)
        self.cursor = (start, line)
        return [line, line + 1 + count(self.newline, start, max(start, end - 1))]

    def text(self, start: int, end: int) -> str:
        piece = self.data[start:end]
        return piece if isinstance(piece, str) else piece.decode("utf-8", "surrogatepass")

    def emit(self, kind: str, tag: str, nesting: int, span: dict[str, int] | None, markup: str = "") -> _Token:
        """A token at the level of the open frames (a closing token is emitted after its frame is
        closed, so it gets its opening's level)."""
        token = _Token(kind, tag, nesting, self.line_map(span) if span else None, len(self.frames), markup)
        self.out.append(token)
        return token

    def tokens(self, events: Any) -> list[_Token]:
        # The hot loop: most events are inline (text, soft breaks, emphasis, links), which make no
        # token; they are told apart with as few lookups as possible. A body given to this path
        # has no ``$$``, so pulldown-cmark makes no display math (a ``$$`` formula alone in its
        # paragraph would be dollarmath's math block): no inline event needs to be looked at.
        # A paragraph inside a container (most of them in lists) makes no token: its frame is
        # pushed and popped here without a call.
        block_tags = _BLOCK_TAGS
        start, end = self.start, self.end
        frames = self.frames
        push, pop = frames.append, frames.pop
        for event, span in events:
            if type(event) is str:
                if event == "Rule":
                    self.emit("hr", "hr", 0, span)
                continue
            tag = event.get("Start")
            if tag is not None:
                if tag == "Paragraph" and frames:
                    push(None)
                    if len(frames) > self.deepest:
                        self.deepest = len(frames)
                    continue
                name = tag if type(tag) is str else next(iter(tag))
                if name in block_tags:
                    start(name, tag, span)
                continue
            tag = event.get("End")
            if tag is not None:
                if tag == "Paragraph" and frames[-1] is None:
                    pop()
                    continue
                name = tag if type(tag) is str else next(iter(tag))
                if name in block_tags:
                    end(name)
        self.clamp()
        return self.out

    def start(self, name: str, tag: Any, span: dict[str, int]) -> None:
        frames = self.frames
        top = not frames
        if len(frames) >= self.deepest:
            self.deepest = len(frames) + 1
        if name == "Paragraph":
            if top:  # one token: the segmenter reads a leaf's opening only
                frames.append(self.emit("paragraph_open", "p", 0, span))
            else:
                frames.append(None)
        elif name == "Heading":
            level = int(tag["Heading"]["level"][1:])
            if top:
                first = self.text(span["start"], span["end"]).lstrip(" \t")
                markup = "#" * level if first.startswith("#") else ("=" if level == 1 else "-")
                self.heading = span
                frames.append(self.emit("heading_open", f"h{level}", 1, span, markup))
                self.emit("inline", "", 0, span)
            else:
                frames.append(None)
        elif name == "CodeBlock":
            kind = tag["CodeBlock"]
            if kind == "Indented":
                self.emit("code_block", "code", 0, span)
            else:
                line = self.text(span["start"], min(span["end"], span["start"] + 4096))
                run = _FENCE_RUN.match(line)
                token = self.emit("fence", "code", 0, span, run.group(1) if run else "```")
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
                frames.append(self.emit(kind, html, 1, span))
                self.last_item = 0
            else:
                frames.append(None)
        elif name == "Item":
            if len(frames) == 1 and frames[0] is not None and frames[0].type.endswith("list_open"):
                token = self.emit("list_item_open", "li", 0, span)  # a joint: its line is all that is read
                self.last_item = token.map[1] if token.map else 0
                frames.append(token)
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
        if name == "Heading" and self.out[-1].type == "inline":
            self.out[-1].content = self.heading_content(opened)
        elif name == "List" and opened.map is not None and self.last_item:
            # a list's range runs on over link reference definitions after it: end with its last item
            opened.map[1] = max(opened.map[0] + 1, min(opened.map[1], self.last_item))
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

    def heading_content(self, opened: _Token) -> str:
        """A heading's source text as markdown-it-py's inline token holds it: an ATX heading's line
        without its opening and closing ``#`` runs; a setext heading's lines without the underline."""
        source = self.text(self.heading["start"], self.heading["end"]).rstrip("\n")
        if not opened.markup.startswith("#"):
            cut = source.rfind("\n")
            return source[:cut].strip() if cut != -1 else ""
        content = source.strip(" \t")[len(opened.markup) :].rstrip(" \t")
        closing = content.rstrip("#")
        if len(closing) < len(content) and (not closing or closing[-1] in " \t"):
            content = closing
        return content.strip()


class _Token:
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


_BLOCK_TAGS = frozenset(
    ("Paragraph", "Heading", "CodeBlock", "HtmlBlock", "List", "Item", "Table", "TableHead", "TableRow", "BlockQuote")
)
"""pulldown-cmark tags that open a frame (the block structure); the others are inline."""
