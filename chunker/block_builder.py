"""Blocks from line ranges (the segmenter's second half, :mod:`chunker.segmenter`): a block's lines
with trailing blank lines trimmed, its id, offsets and heading path; the runs of non-blank lines no token
covered (``raw`` blocks, so that no text is lost); and the lines waiting for the block below them
(attribute lines, MyST targets, named anchors; a banner of images before the first heading, and a
template line that opens a block, ``{% ifversion ghes %}``, ``{{< tabs >}}``, or an HTML block of start
tags only, ``<div class="composition-api">``, before a heading); docfx tab headings in the heading path
(:meth:`BlockBuilder.enter_tab`).
"""

from __future__ import annotations

import re

from chunker.component_headings import heading_of
from chunker.config import ChunkerConfig
from chunker.docfx import directive_lines
from chunker.fences import fence_after, has_fence_marker
from chunker.models import TAB_LEVEL, Block, BlockKind, Heading
from chunker.outline import Outline
from chunker.parse import ParsedDocument
from chunker.scopes import END_TAGS as _END_TAGS
from chunker.scopes import START_TAGS as _START_TAGS
from chunker.scopes import Scopes

__all__ = ["BlockBuilder"]

_NON_SPACE = re.compile(r"\S")
"""A character :meth:`BlockBuilder.line_blank` does not take for blank (``\\s`` is ``str.isspace``)."""


_ANCHOR = r"<a\s[^<>]*?\b(?:name|id)[ \t]*=[^<>]*?(?:/>|>[ \t]*</a[ \t]*>)"
_ANCHORS = re.compile(rf"[ \t]*{_ANCHOR}(?:[ \t]*{_ANCHOR})*(?:[ \t]*\n[ \t]*{_ANCHOR}(?:[ \t]*{_ANCHOR})*)*\s*", re.I)
"""A paragraph or HTML block of named anchors only (``<a name="install"></a>``, ``<a id="x"/>``): the
label of the block below it (the heading it precedes, mostly), which belongs with that block like a
MyST target: left before the cut, its name (the next heading's slug, a release's number) would be
text of the chunk before."""
_IMAGE = r"(?:\[[ \t]*)?!\[[^\[\]\n]*\]\([^()\s]*(?:[ \t]+\"[^\"\n]*\")?\)(?:[ \t]*\]\([^()\s]*\))?"
_IMAGES = re.compile(rf"[ \t]*{_IMAGE}(?:\s*{_IMAGE})*\s*")
"""A paragraph of Markdown images only (``![TOML Logo](logos/toml-200.png)``), linked or not (badges:
``[![CI](badge.svg)](https://ci...)``): a logo or banner above the title belongs with its section."""
_TAG_NAME = re.compile(r"\{%-?[ \t]*(\w*)")
_ONE_LINE_COMMENT = re.compile(r"\{%-?[ \t]*comment[ \t]*-?%\}[^\n]*?\{%-?[ \t]*endcomment[ \t]*-?%\}")
_SHORTCODE = re.compile(r"\{\{[<%][ \t]*(/?)[ \t]*([\w.-]+(?:/[\w.-]+)*)")
"""A Hugo shortcode's start: whether it closes (group 1) and its name."""
_BETWEEN = re.compile(r"^[ \t]*(?:</[A-Z][\w.:-]*[ \t]*>[ \t]*)+\n(?=[ \t]*<[A-Z])", re.MULTILINE)
"""A line of a component's end tags only (``</Tab>``) that a component's start tag follows on the next line."""
_START_TAGS_LINE = re.compile(r"[ \t]*(?:<[A-Z][\w.:-]*(?:\s(?:[^<>/\"']|\"[^\"<>]*\"|'[^'<>]*')*)?>[ \t]*)+(?:\n|$)")
"""A line of a component's start tags only (``<Tab title="ChatGPT">``)."""
_ANCHORS_SPAN = 600
"""A longer paragraph is not tested for :data:`_ANCHORS` (which then stays cheap on any input)."""


class BlockBuilder:
    """The blocks of one document as they are added, and the heading path they sit under."""

    __slots__ = (
        "after",
        "atomic_kinds",
        "attrs_from",
        "blocks",
        "count",
        "doc",
        "heads",
        "last_end",
        "last_kind",
        "nlines",
        "parts",
        "parts_tags",
        "path",
        "pending",
        "scopes",
        "shared_path",
        "starts",
        "tab_floor",
        "tab_level",
        "text",
    )

    def __init__(self, doc: ParsedDocument, cfg: ChunkerConfig) -> None:
        self.doc = doc
        self.text = doc.text
        self.starts = doc.line_starts
        self.nlines = len(self.starts)
        self.atomic_kinds = frozenset(cfg.atomic_types)
        self.heads = cfg.component_headings
        """Components whose opening tag alone is a heading (``component_headings``)."""
        self.blocks: list[Block] = []
        """The blocks made and not yet handed on."""
        self.count = 0
        """How many blocks were made (the last one's number)."""
        self.path: list[Heading] = []
        self.shared_path: tuple[Heading, ...] = ()
        """The current heading path as one tuple, shared by every block under the same heading."""
        self.last_end = doc.line_end(self.nlines - 1) if self.nlines else 0
        self.attrs_from: int | None = None
        """First line of the attribute lines (``{.class}``) or MyST targets (``(name)=``) waiting for
        the block they apply to."""
        self.pending: tuple[int, int, BlockKind] | None = None
        """Lines waiting for the next block (:meth:`banner`), and their kind."""
        self.parts: list[int] = []
        """The first lines of the blocks of start tags among the lines waiting, and of the block after each:
        over another block than a heading they are the blocks they were (template lines together)."""
        self.parts_tags = False
        """Whether the last block waiting is one of start tags."""
        self.tab_level = 0
        """The heading path level of the open docfx tab group's tabs (0: no group open)."""
        self.tab_floor = cfg.section_level if isinstance(cfg.section_level, int) else 0
        """A tab's level in the heading path is below this one (``section_level``): a tab opens no section."""
        self.last_kind: BlockKind | None = None  # the kind of the last block added that closes no element
        self.after: tuple[Heading, ...] | None = None
        """After lines that close elements: the heading path of the block after them (:meth:`leave`)."""
        self.scopes = Scopes(self.text)
        """The elements open whose opening line was read, and the path each opened under (:mod:`chunker.scopes`)."""

    def label(self, kind: BlockKind, first: int, last: int) -> bool:
        """Whether lines first..last-1 are a paragraph or HTML block of named anchors only
        (:data:`_ANCHORS`); if so, they are kept for the block below them."""
        if kind != "paragraph" and kind != "html":
            return False
        text, start = self.text, self.starts[first]
        if text[start : start + 4].lstrip(" \t")[:2].lower() != "<a":
            return False
        end = self.starts[last] - 1 if last < self.nlines else self.last_end
        if end - start > _ANCHORS_SPAN or _ANCHORS.fullmatch(text, start, end) is None:
            return False
        if self.attrs_from is None:
            self.attrs_from = first
        return True

    def tag_cuts(self, first: int, last: int) -> list[int]:
        """The lines where an HTML block on lines first..last-1 is cut into blocks: after lines of end tags
        only that a line of start tags follows, outside code fences. Where the block starts with its end tags
        (``</TabItem>`` / ``<TabItem value="ios">``: one JSX block in MDX, one HTML block in CommonMark, with no
        blank line between) the rest must be start tags only, of any element; inside it, the tags must be a
        component's (``</Tab>`` / ``<Tab title="ChatGPT">`` between Mintlify's tabs, which a JSX block holds
        with their text when no blank line parts them; ``</tr>`` / ``<tr>`` of an HTML table stay). The
        closing lines end what the block before holds, the opening ones open what follows: cut between them,
        a tab's closing tag began the chunk of the next tab (658 chunks of React Native's docs)."""
        text, start = self.text, self.starts[first]
        end = self.starts[last] - 1 if last < self.nlines else self.last_end
        found = text.find("</", start, end)
        if found < 0:
            return []
        cuts: list[int] = []
        if found - start < 8 and not text[start:found].strip(" \t"):
            closing = _END_TAGS.match(text, start, end)
            if (
                closing is not None
                and closing.end() < end
                and text[closing.end() - 1] == "\n"
                and end - start <= _ANCHORS_SPAN
                and _START_TAGS.fullmatch(text, closing.end(), end) is not None
            ):
                return [first + text.count("\n", start, closing.end())]
        if text.find("\n", found, end) < 0:
            return cuts
        fenced = has_fence_marker(text[start:end])
        for between in _BETWEEN.finditer(text, start, end):
            cut = between.end()
            if _START_TAGS_LINE.match(text, cut, end) is None:
                continue
            if fenced and fence_after(text[start:cut]) is not None:
                continue  # lines of a code fence inside the block
            cuts.append(first + text.count("\n", start, cut))
        return cuts

    def banner(self, kind: BlockKind, first: int, last: int) -> bool:
        """Whether lines first..last-1 wait for the next block: the document's first block, a
        paragraph of images only (a logo, badges: :data:`_IMAGES`), docfx directive lines that open a part
        (``::: moniker range=">=msvc-160"``, ``::: zone pivot="x"``: :func:`chunker.docfx.directive_lines`),
        a template line that only opens
        a block (:meth:`opens_only`: ``{% ifversion ghes %}``), or an HTML block of start tags only
        (:data:`_START_TAGS`: VitePress pages wrap sections in ``<div class="composition-api">``). A heading
        takes them (they open its section: alone, a logo before the title was a chunk of its own, and
        ``{% ifversion ghes %}`` or ``<div class="composition-api">`` over a heading ended the chunk before
        it), any other block does not (:meth:`settle`).
        Decided on the next block, not on the next token, so that the blocks do not depend on where
        the parse was cut into pieces."""
        waiting = self.pending
        if self.attrs_from is not None and (waiting is None or waiting[2] != "html" or kind != "html"):
            return False  # (template lines that open blocks wait together)
        text, start = self.text, self.starts[first]
        end = self.starts[last] - 1 if last < self.nlines else self.last_end
        if end - start > _ANCHORS_SPAN:
            return False
        if kind == "paragraph":
            if ":::" in text[start : start + 8]:
                if directive_lines(text[start:end]) != "open":
                    return False
            elif self.count or _IMAGES.fullmatch(text, start, end) is None:
                return False
        elif kind != "html" or not self.opening(start, end):
            return False
        tags = text[start : start + 4].lstrip(" \t")[:1] == "<"
        if waiting is None:
            self.attrs_from, self.pending = first, (first, last, kind)
            self.parts.clear()
        else:
            self.pending = (waiting[0], last, kind)
            if tags or self.parts_tags:
                self.parts.append(first)
        self.parts_tags = tags
        return True

    def opening(self, start: int, end: int) -> bool:
        """Whether the HTML block ``text[start:end]`` only opens: template lines (:meth:`opens_only`) or,
        under a heading, start tags (:data:`_START_TAGS`; before the first heading they are filler, which
        goes with the first section unless ``skip_pre_heading`` leaves it out)."""
        head = self.text[start : start + 4].lstrip(" \t")[:2]
        if head == "{%":
            return self.opens_only(start, end)
        if head == "{{":
            return self.opens_shortcodes(start, end)
        if not self.path or head[:1] != "<" or head in ("</", "<!", "<?"):
            return False
        if self.heads and heading_of(self.heads, self.text[start:end]) is not None:
            return False  # a heading of its own (component_headings)
        return _START_TAGS.fullmatch(self.text, start, end) is not None

    def opens_only(self, start: int, end: int) -> bool:
        """Whether the template line ``text[start:end]`` (an HTML block of the template line rule,
        :mod:`chunker.parse.templates`) only opens blocks: ``{% ifversion ghes %}``, ``{% if x %}``, or
        a tag the document closes (``{% note %}`` of ``{% endnote %}``, ``{% raw %}``), one-line
        comments aside (a line of them alone, ``{% comment %}Example name: Base{% endcomment %}``,
        labels what follows)."""
        line = self.text[start:end]
        names = _TAG_NAME.findall(_ONE_LINE_COMMENT.sub("", line))
        if not names:
            return line != ""
        closed = self.scopes.closed_tags()
        return all((name.startswith("if") or name in closed) and not name.startswith("end") for name in names)

    def opens_shortcodes(self, start: int, end: int) -> bool:
        """Whether the line of paired shortcodes ``text[start:end]`` (an HTML block of the template line
        rule) only opens them: ``{{< tabs >}}``, ``{{% tab name="Linux" %}}``, names the document closes."""
        tags = _SHORTCODE.findall(self.text, start, end)
        if not tags or any(closing for closing, _ in tags):
            return False
        codes = self.scopes.closed_shortcodes()
        return all(name in codes for _, name in tags)

    def settle(self, kind: BlockKind | None, covered: int) -> int:
        """The lines waiting (:meth:`banner`) given to the block of ``kind`` after them when that is a
        heading, else made the blocks they were (template lines waiting together one); returns the line
        covered so far."""
        assert self.pending is not None
        first, last, own = self.pending
        self.pending = None
        if kind == "heading":
            return covered
        if self.attrs_from == first:
            self.attrs_from = None
        if first > covered:  # lines no token covered before them (a link reference definition)
            self.add_raw(covered, first)
        for cut in (*self.parts, last):  # each block of start tags a block of its own
            self.add(own, first, cut)
            first = cut
        return last

    def line_blank(self, index: int) -> bool:
        starts, text = self.starts, self.text
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < self.nlines else self.last_end
        # the last character first: most lines are not blank, and then no slice is made
        return start >= end or (text[end - 1].isspace() and text[start:end].isspace())

    def add(
        self,
        kind: BlockKind,
        first: int,
        last: int,
        *,
        level: int = 0,
        title: str = "",
        inner: frozenset[str] = frozenset(),
        joints: tuple[int, ...] = (),
        fence: tuple[str, str] | None = None,
        frame: tuple[str, str] | None = None,
        begin: int | None = None,
        outline: Outline | None = None,
    ) -> None:
        """Add lines first..last-1 (0-based), trailing blank lines trimmed; the block starts at
        line ``begin`` when given (attribute lines before its first line)."""
        while last - 1 > first and self.line_blank(last - 1):
            last -= 1
        if begin is None:
            begin = first
        if outline is not None:
            outline.end = last - begin
        starts = self.starts
        start = starts[begin]
        end = starts[last] - 1 if last < self.nlines else self.last_end
        if kind == "html" and self.heads and begin == first and last - first == 1:
            found = heading_of(self.heads, self.text[start:end])
            if found is not None:
                kind, (level, title) = "heading", found
        self.scope(kind, start, end)
        if kind == "heading":
            if begin < first:  # start tags or template lines waiting over it: they open under the path above it
                self.scopes.opening_lines(start, starts[first], self.shared_path)
            if level == TAB_LEVEL:
                self.enter_tab(title, first)
            elif not self.tab_level:
                self.enter_heading(level, title, first)
            elif level < self.tab_level:
                self.tab_level = 0  # a heading above the tabs ends their group
                self.enter_heading(level, title, first)
            else:  # a heading inside a tab stays in it, as docfx renders it: one level below the tab
                self.enter_heading(min(6, level + 1), title, first)
        elif kind == "thematic_break" and self.tab_level:
            self.end_tabs()
        self.count += 1
        self.blocks.append(
            Block(
                id="blk_" + str(self.count).zfill(4),
                kind=kind,
                start_offset=start,
                end_offset=end,
                start_line=begin + 1,
                end_line=last,
                header_path=self.shared_path,
                atomic=kind in self.atomic_kinds or kind == "container",
                source=self.text,
                heading_level=level,
                inner=inner,
                joints=tuple(j for j in joints if start < j < end) if joints else (),
                fence=fence,
                frame=frame,
                outline=outline,
            )
        )

    def scope(self, kind: BlockKind, start: int, end: int) -> None:
        """Reads a block for the elements it opens or closes (:mod:`chunker.scopes`; the block after closing lines:
        :meth:`leave`); an element closing right after a heading wraps it (``<div id="x">`` / ``## T`` / ``</div>``)."""
        if kind == "html":
            outer = self.scopes.read(start, end, self.shared_path if self.after is None else self.after)
            if outer is not None and (self.after is not None or self.last_kind != "heading"):
                self.after = outer
                return
            if outer is None and self.after is not None:
                self.leave()
        elif self.after is not None:
            self.leave()
        self.last_kind = kind

    def leave(self) -> None:
        """The path after lines closing elements (:attr:`after`): where the outermost of them opened; a docfx
        tab group open inside them ends with them."""
        outer, self.after = self.after, None
        assert outer is not None
        if outer is self.shared_path:
            return
        self.path = list(outer)
        self.shared_path = outer
        if self.tab_level and not any(h.level >= self.tab_level for h in outer):
            self.tab_level = 0

    def enter_heading(self, level: int, title: str, first: int) -> None:
        """The heading path with the heading of ``level`` on line ``first`` (0-based) at its end."""
        path = self.path
        while path and path[-1].level >= level:
            path.pop()
        if title:
            path.append(Heading(level, title, first + 1))
        else:  # named from its position: the parent's name (or the line) and the line
            where = f"{path[-1].text}, line {first + 1}" if path else f"line {first + 1}"
            path.append(Heading(level, f"({where})", first + 1, untitled=True))
        self.shared_path = tuple(path)

    def enter_tab(self, title: str, first: int) -> None:
        """The heading path with the docfx tab titled ``title`` on line ``first`` (0-based) at its end. The tabs
        of a group (``# [Bash](#tab/bash)`` ... ``# [PowerShell](#tab/powershell)`` ... ``---``) are written as
        headings of any level, mostly H1s under an H2, but docfx renders them as tabs of the part they sit in: each
        is read one level below the heading above the group (and below ``section_level``, at most 6), so it names
        the chunks of its tab in their heading path and context line, and the section and the headings above
        stay the page's. The group ends at a thematic break (``---``, as docfx ends it) or a heading above it; a
        heading at the tabs' level or below stays in its tab (docfx puts every block up to the next tab heading in
        the tab: ``### Endpoint suffixes`` under ``### [Public Cloud](#tab/azure-cloud)``), one level deeper."""
        if not self.tab_level:
            parent = self.path[-1].level if self.path else 0
            self.tab_level = min(6, max(parent, self.tab_floor) + 1)
        self.enter_heading(self.tab_level, title, first)

    def end_tabs(self) -> None:
        """The heading path without the tabs of the group a thematic break ends (and headings inside them)."""
        path = self.path
        while path and path[-1].level >= self.tab_level:
            path.pop()
        self.tab_level = 0
        self.shared_path = tuple(path)

    def add_raw(self, first: int, last: int) -> None:
        """Non-blank runs of lines first..last-1 that no token covered."""
        if first >= last:
            return
        end = self.starts[last] if last < self.nlines else self.last_end
        if _NON_SPACE.search(self.text, self.starts[first], end) is None:
            return  # blank lines only (the lines between blocks): one search instead of a test per line
        run_start: int | None = None
        for index in range(first, last):
            if self.line_blank(index):
                if run_start is not None:
                    self.add("raw", run_start, index)
                    run_start = None
            elif run_start is None:
                run_start = index
        if run_start is not None:
            self.add("raw", run_start, last)
