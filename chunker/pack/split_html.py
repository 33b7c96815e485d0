"""Oversize HTML and JSX blocks, split between their children like a list between its items.

An HTML block (CommonMark: it runs to the next blank line) or an MDX JSX block that holds many
elements (a ``<CardGrid>`` of ``<LinkCard />``, ``<Tabs>`` of ``<TabItem>``, a ``<table>`` of rows, a
grid of ``<div>`` cards) is cut at the start of a line only, never inside one (a tag, a URL): best
before a child of the element(s) its first lines open, then before a grandchild, then before deeper
elements or text lines; never before a closing tag. Every piece after the first re-opens the
elements its first line lies in (their start tags, outermost first, one per line, as far as
:data:`REOPEN_SHARE` allows) and every piece before the last closes the elements open where it ends
(``</CardGrid>``), both declared as added text: each piece parses as one HTML block, as its lines
do in the source (a cut whose re-opened tags alone would not start an HTML block is not made). A
line (or a child without a line to cut at) over budget is one overflow piece with a warning.

Elements side by side at the block's top (rows of a table whose ``<table>`` line is in an earlier
block, ``<div class="row">`` after ``<div class="row">``) are cut between first, with nothing to
re-open, at a line that starts an HTML block running to the piece's end (not ``<pre>``, ``<script>``,
``<!--``: those end at their own closing text). Closing tags at the top that close elements opened
before the block, and elements still open at its end (Python-Markdown's md_in_html, MkDocs: a cell's
Markdown goes on after a blank line, which ends a CommonMark HTML block), are as in the source.

A block of a ``<script>``, ``<pre>``, ``<style>`` or ``<textarea>`` runs past blank lines to its
closing tag (CommonMark type 1): its lines are cut between like code (a script's or style's lines
after a blank line first), each piece re-opening and closing the element.

The nesting comes from the standard library's :class:`html.parser.HTMLParser`. Kept whole, as
before, with an overflow warning: another block with a blank line (an MDX block whose braces, template
literal or code fence span one), a block whose tags do not nest (a closing tag of an element that is
not open inside an open one, a ``<script>`` never closed, a JSX attribute with ``>`` that ends a tag
early), and one with no line left to cut at.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Callable
from html.parser import HTMLParser

from chunker.models import Block
from chunker.pack.budget import SectionSpace
from chunker.pack.strength import CODE_LINE, JOINT, NESTED_ITEM, WORD, Strength, Unit
from chunker.policy import gated

__all__ = ["html_frame", "split_html"]

_VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
)
"""Elements without a closing tag."""
_ENDS_AT_CLOSING_TAG = frozenset(["script", "style", "pre", "textarea"])
"""Elements whose start tag at a line's start begins a CommonMark HTML block that ends at their
closing tag, not at a blank line: re-opened first in a piece, the piece's lines after that closing
tag would render as Markdown where the source has them in one HTML block. So no cut is made inside
one that text follows in the block (``</script>`` then a Liquid line); where it ends the block, its
pieces end with it and render as their source."""
_NAME = re.compile(r"<([A-Za-z][\w.:-]*)")
_ENDS_ELSEWHERE = re.compile(r"<(?:(?:script|pre|style|textarea)(?:[\s>]|$)|[!?])", re.IGNORECASE)
"""A line starting one of the HTML blocks that end at their own closing text, not at a blank line
(CommonMark types 1-5): no piece starts there, its lines after that text would be Markdown."""
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_RAW_START = re.compile(r" {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)", re.IGNORECASE)
"""The start of an HTML block that runs to its element's closing tag, blank lines and all (CommonMark
type 1: VitePress's ``<script setup>`` holding a page's data)."""
_RAW_END = re.compile(r"</(?:script|pre|style|textarea)>", re.IGNORECASE)
"""What ends a block of CommonMark's type 1, whichever of the four elements began it."""
MAX_HTML_CHARS = 1 << 18
"""A block longer than this is not parsed for its children (kept whole)."""
START_TAG_READS = 2
"""The parser's searches for the ends of a block's start tags may read this many times its text: each reads its
own tag once in a block whose tags end (1 x), to the end of the text for each tag that nothing ends."""
REOPEN_SHARE = 4
"""A piece re-opens (and closes) at most max_chars / REOPEN_SHARE characters of enclosing tags: the
outermost elements, as many as fit; a cut under an outermost element longer than that is not made."""


class _Tags(HTMLParser):
    """Element starts and the nesting depth at each line start of an HTML text, and the outermost
    open elements whose tags fit in ``limit`` characters (linear in the text, however deep)."""

    def __init__(self, lines: list[str], limit: int) -> None:
        super().__init__(convert_charrefs=False)
        self.lines = lines
        self.indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines]
        self.limit = limit
        self.stack: list[tuple[str, str, str, str]] = []
        """Open elements: (lowercase name, name as written, indentation of its line when the
        start tag begins it, the start tag as written)."""
        self.costs: list[int] = []
        """Characters the start and closing tags of ``stack[:k + 1]`` take together."""
        self.open_names: dict[str, int] = {}
        self.starts: dict[int, tuple[int, int]] = {}
        """First element start of each 0-based line: (column, depth before it)."""
        self.depth_at: dict[int, int] = {}
        """Depth after the last tag event on each line that has one (0-based)."""
        self.opened: dict[int, list[tuple[str, str, str, str]]] = {}
        """The outermost open elements within ``limit`` after the last tag event of each line."""
        self.inside: set[int] = set()
        """Lines (0-based) that start inside a tag spanning several lines."""
        self.broken = False
        self.raw_open: list[int] = []
        """Lines where the open elements of :data:`_ENDS_AT_CLOSING_TAG` start, innermost last."""
        self.followed: set[int] = set()
        """Lines inside such an element that text follows in the block (no cut there)."""
        self.reads = START_TAG_READS * sum(len(line) + 1 for line in lines)
        """Characters the start-tag searches may still read (:meth:`check_for_whole_start_tag`)."""

    def check_for_whole_start_tag(self, i: int) -> int:
        """The parser's search for the end of the start tag at ``i``, within :attr:`reads`: a start tag that
        nothing ends before the end of the input is read to the end, and the parser goes on at the next ``<``
        and reads to the end again (``<div`` on every line of a block: n^2). Once the searches have read
        :data:`START_TAG_READS` times the text, the block is not cut (kept whole, as a malformed one)."""
        end: int = super().check_for_whole_start_tag(i)
        self.reads -= (end if end >= 0 else len(self.rawdata)) - i
        if self.reads < 0:
            raise ValueError("start tags read past their budget")
        return end

    def _start(self, tag: str, closes: bool) -> None:
        line, column = self.getpos()
        line -= 1
        text = self.get_starttag_text() or ""
        self.starts.setdefault(line, (column, len(self.stack)))
        self.inside.update(range(line + 1, line + 1 + text.count("\n")))
        if not closes and tag in _ENDS_AT_CLOSING_TAG:
            self.raw_open.append(line)
        if not closes and tag not in _VOID:
            match = _NAME.match(text)
            written = match.group(1) if match else tag
            indent = self.indents[line] if column == len(self.indents[line]) else ""
            self.stack.append((tag, written, indent, text))
            cost = 2 * len(indent) + len(text) + len(written) + 5
            self.costs.append((self.costs[-1] if self.costs else 0) + cost)
            self.open_names[tag] = self.open_names.get(tag, 0) + 1
        self._mark(line)

    def _mark(self, line: int) -> None:
        self.depth_at[line] = len(self.stack)
        self.opened[line] = self.stack[: bisect_right(self.costs, self.limit)]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, True)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or (not self.stack and tag not in _ENDS_AT_CLOSING_TAG):
            return  # at the top: it closes an element opened before the block (a blank line between)
        if not self.open_names.get(tag):
            self.broken = True
            return
        line, column = self.getpos()
        while self.stack:
            name = self.stack.pop()[0]
            self.costs.pop()
            self.open_names[name] -= 1
            if name in _ENDS_AT_CLOSING_TAG:
                self._close_raw(self.raw_open.pop(), line - 1, column)
            if name == tag:
                break
        self._mark(line - 1)

    def _close_raw(self, first: int, last: int, column: int) -> None:
        """An element of :data:`_ENDS_AT_CLOSING_TAG` on lines first..last: its inner lines go to
        :attr:`followed` when text follows its closing tag in the block."""
        tail = self.lines[last][column:]
        after_tag = tail[tail.find(">") + 1 :] if ">" in tail else ""
        if after_tag.strip() or any(line.strip() for line in self.lines[last + 1 :]):
            self.followed.update(range(first + 1, last + 1))


@dataclasses.dataclass(frozen=True, slots=True)
class _Cut:
    line: int
    """Index of the line (in the block) a piece starts with."""
    strength: Strength
    reopen: str
    """The start tags of the elements open at the line, outermost first, one per line."""
    closing: str
    """Their closing tags, innermost first, one per line (for the piece before the cut)."""


def _cuts(text: str, limit: int) -> list[_Cut]:
    """Where a block's text may be cut and what its pieces re-open and close; none when it may
    not be cut (see the module's docstring)."""
    if len(text) > MAX_HTML_CHARS or (_BLANK_LINE.search(text) and not _RAW_START.match(text)):
        return []  # a blank line ends an HTML block, but not one of a <script>, <pre>, <style>, <textarea>
    lines = text.split("\n")
    tags = _Tags(lines, limit)
    try:
        tags.feed(text)
        tags.close()
    except (AssertionError, ValueError):  # a malformed declaration the parser refuses
        return []
    if tags.broken or (tags.stack and not _left_open(tags.stack)):
        return []
    depth, depths = 0, []  # depth at each line start
    stack: list[tuple[str, str, str, str]] = []
    stacks = []  # the open elements at each line start
    for k in range(len(lines)):
        depths.append(depth)
        stacks.append(stack)
        depth = tags.depth_at.get(k, depth)
        stack = tags.opened.get(k, stack)
    inside = tags.inside
    ends_early = _early_ends(lines, stacks)
    opening_end = next((k for k in range(1, len(lines)) if depths[k] >= 1 and k not in inside), None)
    base = depths[opening_end] if opening_end is not None else 1
    cuts: list[_Cut] = []
    for k in range(1, len(lines)):
        line = lines[k]
        stripped = line.lstrip(" \t")
        if not stripped or stripped.startswith("</") or k in inside:
            continue
        start = tags.starts.get(k)
        element = start is not None and start[0] == len(line) - len(stripped) and start[1] == depths[k]
        if depths[k] == 0:
            if element and not _ENDS_ELSEWHERE.match(stripped):  # an element at the top: nothing to re-open
                cuts.append(_Cut(k, JOINT, "", ""))
            continue
        if opening_end is None or k <= opening_end or depths[k] < base:
            continue
        if element and depths[k] == base:
            strength = JOINT
        elif element and depths[k] == base + 1:
            strength = NESTED_ITEM
        elif not element and stacks[k] and stacks[k][-1][0] in ("script", "style"):  # code: cut like code
            strength = JOINT if not lines[k - 1].strip() else CODE_LINE
        else:
            strength = CODE_LINE if element else WORD
        kept = stacks[k]
        if not kept or (kept[0][0] in _ENDS_AT_CLOSING_TAG and (k in tags.followed or ends_early(k, kept[0]))):
            continue
        reopen = "".join(indent + tag + "\n" for _, _, indent, tag in kept)
        closing = "".join(f"\n{indent}</{written}>" for _, written, indent, _ in reversed(kept))
        cuts.append(_Cut(k, strength, reopen, closing))
    if any(not cut.reopen for cut in cuts):  # siblings at the top: cut between them before inside one
        weaker = {JOINT: NESTED_ITEM, NESTED_ITEM: CODE_LINE}
        cuts = [c if not c.reopen else dataclasses.replace(c, strength=weaker.get(c.strength, WORD)) for c in cuts]
    return cuts


def _early_ends(lines: list[str], stacks: list[list[tuple[str, str, str, str]]]) -> Callable[[int, object], bool]:
    """Whether ``element`` (open at line ``k``), re-opened first in a piece starting there, would begin
    an HTML block that ends before its own closing tag: CommonMark ends a ``<script>``, ``<pre>``,
    ``<style>`` or ``<textarea>`` block at the first line holding any of their closing tags (a stray
    ``</pre>`` in a script's text). The next such line from each line on is found once."""
    following: list[int] = [len(lines)] * (len(lines) + 1)
    for j in range(len(lines) - 1, -1, -1):
        following[j] = j if _RAW_END.search(lines[j]) else following[j + 1]

    def early(k: int, element: object) -> bool:
        j = following[k]
        return j + 1 < len(stacks) and any(open_element is element for open_element in stacks[j + 1])

    return early


def _left_open(stack: list[tuple[str, str, str, str]]) -> bool:
    """Whether the elements still open at the block's end may stay open in its pieces as in the
    source (an element whose Markdown content goes on after a blank line, ``<td markdown="block">``
    of Python-Markdown's md_in_html): not one whose HTML block ends at its closing tag."""
    return not any(name in _ENDS_AT_CLOSING_TAG for name, _, _, _ in stack)


def html_frame(space: SectionSpace, block: Block) -> tuple[Block, list[tuple[int, Strength]]] | None:
    """The block with a frame (so that its pieces re-open), and the offsets where it may be cut,
    with what a piece re-opens and closes there recorded in ``space``; None when it is kept whole
    (see the module's docstring)."""
    cuts = _cuts(block.content, space.cfg.max_chars // REOPEN_SHARE)
    starts = [block.start_offset]
    pos = block.start_offset
    for _ in range(block.content.count("\n")):
        pos = space.source.index("\n", pos) + 1
        starts.append(pos)
    opens_html: dict[str, bool] = {}
    out: list[tuple[int, Strength]] = []
    lines = block.content.split("\n") if cuts else []
    for cut in cuts:
        probe = cut.reopen or lines[cut.line] + "\n"  # at the top: the piece's own first line
        first = probe.split("\n", 1)[0]
        if first not in opens_html:
            tokens = [t for t in space.lines.parse_text(probe) if t.level == 0 and t.map is not None]
            opens_html[first] = len(tokens) == 1 and tokens[0].type == "html_block"
        if not opens_html[first]:
            continue  # the re-opened tags alone would not be an HTML block: no piece starts here
        offset = starts[cut.line]
        space.reopen_memo[(block.start_offset, offset)] = cut.reopen
        space.html_closings[(block.start_offset, offset - 1)] = cut.closing
        out.append((offset, cut.strength))
    if not out:
        return None
    framed = dataclasses.replace(block, frame=(block.content.split("\n", 1)[0], ""), joints=tuple(c for c, _ in out))
    return framed, out


def split_html(
    space: SectionSpace, out: list[Unit], block: Block, strength: Strength, cuts: list[tuple[int, Strength]]
) -> None:
    """Pieces of ``block`` (framed by :func:`html_frame`) between ``cuts``; a piece over budget
    (one line, or a child with no line to cut at) is kept whole as an overflow piece."""
    bounds = [block.start_offset, *(c for c, _ in cuts), block.end_offset + 1]
    strengths = [strength, *(s for _, s in cuts)]
    for k in range(len(strengths)):
        start, end = bounds[k], bounds[k + 1] - 1
        first, last = k == 0, k == len(strengths) - 1
        unit = Unit(start=start, end=end, block=block, strength=strengths[k], first=first, last=last)
        out.append(unit)
        size = space.span(start, end) + space.added_at_start(unit) + space.added_at_end(unit)
        if size > space.budget:
            line = space.lines.line_at(start, block)
            space.notes.append(
                gated(
                    "overflow",
                    f"{block.kind} block at line {block.start_line}: its part from line {line} "
                    f"({space.span(start, end)} characters) has no line to cut at within max_chars "
                    f"({space.cfg.max_chars}) and is kept whole as an overflow chunk",
                    line=line,
                )
            )
