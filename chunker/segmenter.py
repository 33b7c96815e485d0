"""Stage 2: block tokens -> Block values with their heading path.

Only real ATX/Setext headings at the top level are headings: a numbered list
item is a list, ``# comment`` in a fence is code. Every non-blank source line
after the frontmatter ends up in exactly one block: lines the parser produced no
top-level token for become ``raw`` blocks, so the parser cannot lose text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from chunker.block_builder import BlockBuilder
from chunker.config import ChunkerConfig
from chunker.docfx import directive_kind, is_tab_heading
from chunker.extents import KIND_OF_TOKEN, children, container_extent, inner_of
from chunker.fences import has_fence_marker
from chunker.frames import callout_title, doc_line, fence_lines, frame_lines, least_run, marker_run
from chunker.inline import definition_labels, heading_text
from chunker.models import JSX_CODE, TAB_LEVEL, Block, BlockKind
from chunker.numbered import footnote_heading, markdown_numbered_heading, numbered_atx_level, numbered_markup
from chunker.outline import Outline, budget, make_outline
from chunker.parse import ParsedDocument
from chunker.parse.containers import CONTAINER_MARKERS
from chunker.parse.details import details_end, opens_details
from chunker.parse.token import BlockToken
from chunker.rendering import MAX_CHECKED_CHARS

_NO_OUTLINE = frozenset({"paragraph", "code", "table", "raw"})
"""Kinds whose blocks keep no outline: a paragraph or a code block is one leaf, a split table's
rows have their shapes without tokens (and a table's cells would be most of its tokens)."""

_NO_KINDS: frozenset[str] = frozenset()
_NOTHING_INSIDE: tuple[frozenset[str], tuple[int, ...]] = (_NO_KINDS, ())
_JSX_CODE_INSIDE: tuple[frozenset[str], tuple[int, ...]] = (frozenset({JSX_CODE}), ())

_WITH_NEXT = frozenset({"attrs_block", "myst_target"})
"""Lines that belong to the block below them: an attribute line (``{#id .class}``), a MyST target
(``(name)=``, the label of the heading or block below)."""


def segment(doc: ParsedDocument, pieces: Iterable[Sequence[BlockToken]], cfg: ChunkerConfig) -> tuple[Block, ...]:
    """Blocks of the document body, in source order, covering every non-blank line. ``pieces``:
    the body's block tokens, one list per piece (:class:`chunker.parse.BlockTokens`); where they
    are markdown-it-py's whole token stream (``pieces.nested``), blocks keep their outline."""
    return tuple(iter_blocks(doc, pieces, cfg))


def iter_blocks(
    doc: ParsedDocument, pieces: Iterable[Sequence[BlockToken]], cfg: ChunkerConfig, release: bool = False
) -> Iterator[Block]:
    """:func:`segment`'s blocks as they are made, a piece of the parse at a time: a caller that
    drops them as it goes never holds the blocks of the whole document. ``release``: each piece
    is a list of the caller's to empty once its blocks are made (its tokens, ~60 times the piece's
    text, are then freed while the blocks are used), and each block is let go as it is handed on."""
    blocks = _Blocks(doc, cfg)
    covered = doc.body_start_line
    for tokens in pieces:
        blocks.nested = getattr(pieces, "nested", False)
        covered = blocks.piece(tokens, covered)
        if release and isinstance(tokens, list):
            tokens.clear()
        yield from _handed_on(blocks.blocks)
    if blocks.pending is not None:
        covered = blocks.settle(None, covered)
    if covered < blocks.nlines:
        blocks.add_raw(covered, blocks.nlines)
    yield from _handed_on(blocks.blocks)


def _handed_on(made: list[Block]) -> Iterator[Block]:
    """The blocks of ``made`` in order, each removed from it as it is handed on (``made`` ends empty)."""
    made.reverse()
    while made:
        yield made.pop()


_Extent = tuple[int, BlockKind, int, frozenset[str], tuple[int, ...], tuple[str, str] | None]
"""What a top-level token covers: (index of its closing token, kind, end line, inner kinds,
joints, frame)."""


class _Blocks(BlockBuilder):
    """The blocks of one document as its block tokens are read (:class:`BlockBuilder` makes them)."""

    __slots__ = ("definitions", "markups", "nested", "numbered", "outline_left")

    def __init__(self, doc: ParsedDocument, cfg: ChunkerConfig) -> None:
        super().__init__(doc, cfg)
        self.numbered = cfg.numbered_headings
        self.markups: dict[int, int] = {}
        """``numbered_headings``: the markup level of each numbered Markdown heading, by its 1-based line."""
        self.nested = False
        """Whether the tokens of the current piece are the parse's whole stream (nested tokens too)."""
        self.outline_left = budget(len(self.text))
        """How many more tokens the document's outlines may keep (:func:`chunker.outline.budget`)."""
        self.definitions: frozenset[str] | None = None
        """The document's link reference labels, read once a heading holds a ``]`` (most never do)."""

    def piece(self, tokens: Sequence[BlockToken], covered: int) -> int:  # noqa: C901 (the hot loop: no calls per block)
        """Adds the blocks of one piece's top-level tokens (and of the lines no token covers before
        them) from line ``covered`` on; returns the line up to which blocks are made."""
        nlines = self.nlines
        i = 0
        n = len(tokens)
        while i < n:
            token = tokens[i]
            if token.level != 0 or token.nesting == -1 or token.map is None:
                i += 1
                continue
            if token.type in _WITH_NEXT:
                if self.attrs_from is None and token.map[0] >= covered:
                    self.attrs_from = token.map[0]  # the line goes with the block below it
                i += 1
                continue
            plain = token.type == "paragraph_open"
            if token.nesting == 0 and (plain or token.type == "heading_open"):
                # the pulldown-cmark path's top-level paragraph or heading: one token (parse/pulldown.py)
                extent: _Extent = (i, "paragraph" if plain else "heading", token.map[1], _NO_KINDS, (), None)
            elif plain and i + 2 < n and tokens[i + 2].nesting == -1 and tokens[i + 1].type == "inline":
                # a paragraph (open, inline, close: the commonest block), without extent's calls
                extent = (i + 2, "paragraph", token.map[1], _NO_KINDS, (), None)
            else:
                plain = False
                extent = self.extent(tokens, i)
            close, kind, last, inner, joints, frame = extent
            first = token.map[0]
            if first < covered:
                first = covered
            if last < first:
                last = first
            if last > nlines:
                last = nlines
            if plain and last - first > 1 and (parts := self.directive_parts(first, last)):
                for part_first, part_last in parts:
                    covered = self.place_paragraph(part_first, part_last, covered)
                i = close + 1
                continue
            cut_from = first
            covered, first = self.closers(kind, first, last, covered, inner)
            if inner is _JSX_CODE_INSIDE[0] and first != cut_from:
                inner = self.jsx_code(first, last)  # the part after the last cut
            if first >= last or self.label(kind, first, last) or self.banner(kind, first, last):
                i = close + 1
                continue
            if self.pending is not None:
                covered = self.settle(kind, covered)
            begin = first
            if self.attrs_from is not None:
                begin, self.attrs_from = min(first, self.attrs_from), None
            if begin > covered:
                self.add_raw(covered, begin)
            if plain and not self.numbered:
                self.add(kind, first, last, begin=begin)  # what emit does with it, without its calls
            else:
                outline = self.outline(tokens, i, close, kind, begin, last) if self.nested else None
                self.emit(tokens, i, kind, first, last, inner, joints, frame, begin, outline)
            covered = last
            i = close + 1
        return covered

    def directive_parts(self, first: int, last: int) -> list[tuple[int, int]] | None:
        """The line ranges of a paragraph on lines first..last-1 that ends with docfx directive lines opening a
        part (``::: moniker range="=msvc-170"`` right under ``::: moniker-end`` or under text, which CommonMark
        reads on as lines of the paragraph): the lines before them and those lines, each a block of its own, so
        that the opening lines go with what follows them (:func:`chunker.docfx.directive_kind`); None when it
        ends with none or holds nothing else."""
        start = self.starts[last - 1]
        if self.text[start : start + 8].lstrip(" ")[:3] != ":::":
            return None
        cut = last
        while cut > first and directive_kind(doc_line(self.doc, cut - 1)) == "open":
            cut -= 1
        return [(first, cut), (cut, last)] if first < cut < last else None

    def place_paragraph(self, first: int, last: int, covered: int) -> int:
        """Adds a paragraph block of lines first..last-1 as :meth:`piece` adds one (a label or banner waiting
        for the block below, lines waiting given to it); returns the line up to which blocks are made."""
        if self.label("paragraph", first, last) or self.banner("paragraph", first, last):
            return covered
        if self.pending is not None:
            covered = self.settle("paragraph", covered)
        begin = first
        if self.attrs_from is not None:
            begin, self.attrs_from = min(first, self.attrs_from), None
        if begin > covered:
            self.add_raw(covered, begin)
        self.add("paragraph", first, last, begin=begin)
        return last

    def closers(
        self, kind: BlockKind, first: int, last: int, covered: int, inner: frozenset[str] = _NO_KINDS
    ) -> tuple[int, int]:
        """For an HTML block on lines first..last-1 cut between closing and opening lines (:meth:`tag_cuts`),
        adds the blocks before its last cut (each part of a JSX block with code fences, ``inner``, says
        whether it holds one). Returns the line covered and the first line left of the block
        (``covered`` and ``first`` when it is not cut)."""
        cuts = self.tag_cuts(first, last) if kind == "html" and first < last else None
        if not cuts:
            return covered, first
        if self.pending is not None:
            covered = self.settle("html", covered)
        begin = first
        if self.attrs_from is not None:
            begin, self.attrs_from = min(first, self.attrs_from), None
        if begin > covered:
            self.add_raw(covered, begin)
        for cut in cuts:
            part = self.jsx_code(begin, cut) if inner is _JSX_CODE_INSIDE[0] else _NO_KINDS
            self.add("html", first, cut, begin=begin, inner=part)
            first = begin = cut
        return first, first

    def jsx_code(self, first: int, last: int) -> frozenset[str]:
        """The ``inner`` of the part on lines first..last-1 of a JSX block holding code fences: whether it
        holds a fence marker."""
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return _JSX_CODE_INSIDE[0] if has_fence_marker(self.text[self.starts[first] : end]) else _NO_KINDS

    def outline(
        self, tokens: Sequence[BlockToken], i: int, close: int, kind: BlockKind, first: int, last: int
    ) -> Outline | None:
        """The outline of the block of ``tokens[i:close + 1]`` on lines first..last-1, or None: a
        kind that needs none, attribute lines before it (its tokens do not start the block), a
        block too large to be checked or re-opened, or the document's budget spent."""
        if kind in _NO_OUTLINE or first != tokens[i].map[0] or close - i >= self.outline_left:  # type: ignore[index]
            return None
        if self.starts[min(last, self.nlines - 1)] - self.starts[first] > MAX_CHECKED_CHARS:
            return None
        if kind == "heading":
            # a heading is never re-opened, and the rendering check reads its shape off a parse of
            # its line(s) where it needs it (169 of the corpus's 16,780 headings, a few us each;
            # making their outlines cost ~20 ms a run); its tokens still count against the budget,
            # so the blocks after it keep the outlines they had
            self.outline_left -= sum(1 for token in tokens[i : close + 1] if token.type != "inline")
            return None
        outline = make_outline(tokens, i, close + 1, first)
        self.outline_left -= len(outline)
        return outline

    def extent(self, tokens: Sequence[BlockToken], i: int) -> _Extent:
        """What the top-level token ``tokens[i]`` covers (see :data:`_Extent`)."""
        token = tokens[i]
        first, last = token.map  # type: ignore[misc]
        kind = KIND_OF_TOKEN.get(token.type, "raw")
        n = len(tokens)
        if token.nesting != 1:
            close = i
            meta = getattr(token, "meta", None)  # markdown-it-py's tokens (the MDX rules): fences in a JSX block
            inner, joints = _JSX_CODE_INSIDE if meta and meta.get(JSX_CODE) else _NOTHING_INSIDE
        elif i + 2 < n and tokens[i + 1].type == "inline" and tokens[i + 2].nesting == -1:
            close = i + 2  # paragraph, heading: open, inline, close
            inner, joints = _NOTHING_INSIDE
        else:
            close, inner, joints = container_extent(tokens, i, kind, self.starts, self.text)
        frame = None
        if kind == "container":
            doc = self.doc
            marker = CONTAINER_MARKERS.get(token.type)
            if marker and last < self.nlines and marker_run(doc_line(doc, last), marker, least_run(token)):
                last += 1  # the closing line, which the token's map leaves out
            frame = frame_lines(token, first, last, doc)
            title = callout_title(tokens, i, doc) if frame is not None and token.info else ""
            if title and frame is not None:
                frame = (frame[0] + "\n" + title, frame[1])
        elif token.type == "html_block" and opens_details(token.content):
            details = details_end(tokens, i)
            if details is not None:
                return self.details(tokens, i, details, first, max(last, tokens[details].map[1]))  # type: ignore[index]
        return close, kind, last, inner, joints, frame

    def details(self, tokens: Sequence[BlockToken], i: int, close: int, first: int, last: int) -> _Extent:
        """A ``<details>`` element from the HTML block ``tokens[i]`` to the one at ``close``."""
        opening_end = tokens[i].map[1] - 1  # type: ignore[index]
        opening = self.text[self.starts[first] : self.starts[opening_end]] + doc_line(self.doc, opening_end)
        frame = (opening, "</details>")
        inner, joints = inner_of(tokens, i + 1, close), children(tokens, i, close, self.starts)
        return close, "container", last, inner, joints, frame

    def emit(
        self,
        tokens: Sequence[BlockToken],
        i: int,
        kind: BlockKind,
        first: int,
        last: int,
        inner: frozenset[str],
        joints: tuple[int, ...],
        frame: tuple[str, str] | None,
        begin: int,
        outline: Outline | None = None,
    ) -> None:
        """Adds the block of ``tokens[i]`` on lines first..last-1, starting at line ``begin`` (the
        attribute lines before it, or ``first``)."""
        token = tokens[i]
        if kind == "heading":
            if token.nesting == 0:  # the pulldown-cmark path's heading: one token with its text
                raw = token.content
            else:
                raw = tokens[i + 1].content if i + 1 < len(tokens) and tokens[i + 1].type == "inline" else ""
            level, title = int(token.tag[1:]), heading_text(raw, self.labels(raw))
            if self.numbered and footnote_heading(level, title):
                self.add("raw", first, last, begin=begin)  # a footnote's line: text, rendered as the source
                return
            if is_tab_heading(raw):
                level = TAB_LEVEL  # a docfx tab's title (BlockBuilder.enter_tab)
            elif self.numbered:
                markup, level = level, numbered_atx_level(title, level, self.path, self.markups)
                if numbered_markup(title):
                    self.markups[first + 1] = markup
            self.add(kind, first, last, level=level, title=title, inner=inner, begin=begin, outline=outline)
        elif kind == "paragraph" and self.numbered and last - first == 1 and (found := self.numbered_line(first)):
            title = heading_text(found[1], self.labels(found[1]))
            self.add("heading", first, last, level=found[0], title=title, begin=begin)
        elif kind == "code" and token.type == "fence":
            fence = fence_lines(token, self.text, self.starts, first, last, self.doc)
            self.add(kind, first, last, inner=inner, joints=joints, fence=fence, begin=begin)
        else:
            self.add(kind, first, last, inner=inner, joints=joints, frame=frame, begin=begin, outline=outline)

    def labels(self, raw: str) -> frozenset[str]:
        """The labels a shortcut reference in heading line ``raw`` may name (:func:`heading_text`)."""
        if "]" not in raw:
            return frozenset()
        if self.definitions is None:
            self.definitions = definition_labels(self.text)
        return self.definitions

    def numbered_line(self, index: int) -> tuple[int, str] | None:
        """(level, title) when line ``index``, a paragraph of its own, is a numbered heading written as
        a plain or bold line (``numbered_headings``)."""
        line = doc_line(self.doc, index)
        return markdown_numbered_heading(line, self.path) if line.lstrip(" ")[:1] in "*_0123456789" else None
