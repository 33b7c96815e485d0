"""MDX block syntax as markdown-it block rules: ESM lines and JSX blocks are blocks of their own.

In an ``.mdx`` source (or with ``syntax: mdx``):

- ``import`` / ``export`` statements at the top level (column 0) are one block each, up to the next
  blank line outside braces, brackets and template literals;
- a JSX block, a line starting with a component tag (``<Tabs>``, ``</Tabs>``, ``<Aside type="tip">``,
  ``<Foo />``, a fragment ``<>``) or an expression (``{/* comment */}``), runs up to the next blank
  line outside braces, template literals and code fences; an expression ends sooner, at the line
  where its braces close (``{/* prettier-ignore */}`` right above a code fence: the fence is a
  block of its own, as MDX reads it).

Both are ``html_block`` tokens (kind ``html``: atomic, kept whole, their text in the chunk as the
source has it). They interrupt a paragraph, so they never glue to prose. A ``#`` line in a template
literal (``code={`...`}``), a quoted prop or a code fence inside a component stays text; a heading line
right below a line of the block where no tag, prop or fence is left open ends the block: MDX reads it
as a heading, the child of an element still open (``<Steps>`` then ``### Install``, ``<TabItem
value="npm">`` then ``## Setup``, Mintlify's ``<Update label="...">`` then ``## Title``) or a block after
elements that all closed, as it reads one after a blank line. Text between a component's tags separated
by blank lines (an ``<Aside>`` body) is ordinary Markdown, as MDX reads it. Braces that never balance end
the block at its first blank line, so an unbalanced ``{`` cannot swallow the rest of the document.

One element holding a heading alone is a heading: a line of start tags, an ATX heading, a line
closing them (``<div id="add-a-file">``, ``  ## Add a file``, ``</div>``: how Mintlify's translated
pages keep their English anchors, 5,429 headings on 673 pages) is one heading token of the three
lines, as MDX reads the element's child. Read as one HTML block, such a page had no section but its
title.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block.heading import heading
from markdown_it.rules_block.state_block import StateBlock

from chunker.models import JSX_CODE
from chunker.parse.esm import ESM

__all__ = ["mdx_plugin"]

_JSX = re.compile(r"<(?:[A-Z][\w.:-]*|>|/[A-Z][\w.:-]*>?|/>)|\{")
_STATEMENT_END = re.compile(r"""(?:[;'"`})\]]|\w)\s*(?://.*)?$""")
"""A line that can end an import or export statement (not one ending in ``,``, ``{``, ``=``, ``(``...)."""
_FENCE = re.compile(r"(`{3,}|~{3,})")


def _fence_opened(text: str) -> str:
    """The run of backticks or tildes that opens a code fence on ``text`` (a line without its
    indent), else ``""``: a backtick run with another backtick after it on the line opens none (CommonMark
    forbids a backtick in a backtick fence's info string: ```` ``` npx x ``` ```` is a code span)."""
    opened = _FENCE.match(text)
    if opened is None:
        return ""
    run = opened.group(1)
    return "" if run[0] == "`" and "`" in text[opened.end() :] else run


_INTERRUPTS = ["paragraph", "reference", "blockquote", "list"]


def mdx_plugin(md: MarkdownIt) -> None:
    md.block.ruler.before("table", WRAPPED_HEADING_RULE, _wrapped_heading_rule, {"alt": _INTERRUPTS})
    md.block.ruler.before("table", "mdx_esm", _esm_rule, {"alt": _INTERRUPTS})
    md.block.ruler.before("table", "mdx_jsx", _any_indent(_jsx_rule), {"alt": _INTERRUPTS})
    # MDX has no indented code (micromark's ``codeIndented`` is off in MDX): a line indented by 4 or more is
    # what it would be at no indent, as a component's children usually are (``<Accordion>`` then four
    # spaces, a paragraph, a fence, ``<Files>``). Read as code, prose and components of such a body were one
    # code block, its fences text in it.
    md.disable("code")
    for rule in md.block.ruler.__rules__:
        if rule.name in ("fence", "heading"):
            md.block.ruler.at(rule.name, _any_indent(rule.fn), {"alt": list(rule.alt)})


def _any_indent(rule: Callable[[StateBlock, int, int, bool], bool]) -> Callable[[StateBlock, int, int, bool], bool]:
    """``rule`` also at a line indented by 4 or more past the block's, read from the line's indentation (MDX's
    fences, headings and JSX, which no indented code rule takes first)."""

    def at_any_indent(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if state.sCount[start] - state.blkIndent < 4:
            return rule(state, start, end, silent)
        indent = state.blkIndent
        state.blkIndent = state.sCount[start]
        try:
            return rule(state, start, end, silent)
        finally:
            state.blkIndent = indent

    return at_any_indent


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _esm_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.sCount[start] != 0 or state.blkIndent != 0 or state.level != 0:
        return False
    if not ESM.match(_line(state, start)):
        return False
    return _block(state, start, end, silent, esm=True)


WRAPPED_HEADING_RULE = "mdx_wrapped_heading"
_START_TAG = re.compile(r"<([A-Za-z][\w.:-]*)(\s[^<>]*)?>[ \t]*")
_END_TAG = re.compile(r"</([A-Za-z][\w.:-]*)[ \t]*>[ \t]*")


def _tag_names(pattern: re.Pattern[str], text: str) -> list[str] | None:
    """The names of the tags ``text`` is made of, all matching ``pattern``, or None (another character,
    a self-closing start tag)."""
    names: list[str] = []
    pos = 0
    while pos < len(text):
        found = pattern.match(text, pos)
        if found is None or (found.lastindex == 2 and (found.group(2) or "").rstrip().endswith("/")):
            return None
        names.append(found.group(1))
        pos = found.end()
    return names or None


def _wrapped_heading_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A line of start tags, an ATX heading, a line of the end tags closing them (``<div id="usage">``,
    ``  ## Usage``, ``</div>``): one heading token of the three lines, its text the heading's."""
    if start + 3 > end or any(state.sCount[k] - state.blkIndent >= 4 for k in range(start, start + 3)):
        return False
    if any(state.sCount[k] < state.blkIndent for k in (start + 1, start + 2)):
        return False
    opening = _line(state, start)
    if not opening.startswith("<") or not _HEADING.match(_line(state, start + 1)):
        return False
    names = _tag_names(_START_TAG, opening)
    if names is None or _tag_names(_END_TAG, _line(state, start + 2)) != names[::-1]:
        return False
    if silent:
        return True
    count = len(state.tokens)
    if not heading(state, start + 1, end, False):
        return False
    for token in state.tokens[count:]:
        if token.map is not None:
            token.map = [start, start + 3]
    state.line = start + 3
    return True


def _jsx_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    if not _JSX.match(_line(state, start)):
        return False
    return _block(state, start, end, silent)


def _block(state: StateBlock, start: int, end: int, silent: bool, esm: bool = False) -> bool:
    if silent:
        return True
    fences: list[int] = []
    last = _last_line(state, start, end, esm, fences)
    token = state.push("html_block", "", 0)
    token.map = [start, last + 1]
    if fences and fences[0] <= last:
        token.meta[JSX_CODE] = True  # a code fence MDX reads as code: the chunks holding it have has_code
    token.content = state.getLines(start, last + 1, state.blkIndent, True)
    state.line = last + 1
    return True


def _last_line(state: StateBlock, start: int, end: int, esm: bool, fences: list[int]) -> int:
    """The block's last line (the lines opening its code fences put into ``fences``): the line before
    the first blank line met outside braces, template literals and code fences (or, when they never
    balance, before the first blank line). ESM ends
    sooner: after a line at depth 0 that ends a statement, unless another statement follows. A line
    indented less than the list item the block lies in ends the item, and the block with it (as
    CommonMark's HTML blocks end): a fence in it the item never closes does not read on into the
    next item."""
    depth = 0
    template = False
    fence = ""
    first_blank: int | None = None
    expression = not esm and _line(state, start).startswith("{")
    elements: _Elements | None = None
    left = state.env.get(_READ_ON, _READ_ON_BASE + 2 * len(state.src))  # the parse's budget (:data:`_READ_ON`)
    line = start
    while line < end:
        text = _line(state, line)
        if first_blank is not None and _spent(state, line, first_blank, left) >= left:
            return first_blank - 1  # braces left open, as if they never balanced
        if not text.strip():
            if first_blank is None:
                first_blank = line
            if depth == 0 and not template and not fence:
                _spent(state, line, first_blank, left)
                return line - 1
            line += 1
            continue
        if state.sCount[line] < state.blkIndent:
            end = line  # the list item the block lies in ends before this line: so does the block
            break
        if fence:
            opened = _FENCE.match(text)
            if (
                opened
                and opened.group(1)[0] == fence[0]
                and len(opened.group(1)) >= len(fence)
                and not text.strip()[len(opened.group(1)) :].strip()
            ):
                fence = ""
        elif depth == 0 and not template and (run := _fence_opened(text)):
            fence = run
            fences.append(line)
        else:
            depth, template = _scan(text, depth, template)
            if expression and depth == 0 and not template and text.rstrip().endswith("}"):
                _spent(state, line, first_blank, left)
                return line  # an expression ends at its closing brace: the next line is a block of its own
            if esm and depth == 0 and not template and _STATEMENT_END.search(text):
                following = _line(state, line + 1) if line + 1 < end else ""
                if not ESM.match(following):
                    _spent(state, line, first_blank, left)
                    return line
        if (
            not esm
            and not fence
            and depth == 0
            and not template
            and line + 1 < end
            and state.sCount[line + 1] - state.blkIndent < 4
            and (elements := elements or _Elements(state, start)).own_block_after(line, _line(state, line + 1))
        ):
            _spent(state, line, first_blank, left)
            return line  # the next line is a block of its own, as MDX reads it (a heading, text after the elements)
        line += 1
    _spent(state, line, first_blank, left)
    if (depth or template or fence) and first_blank is not None:
        return first_blank - 1
    return end - 1


_READ_ON = "chunker.mdx.read_on"
"""``state.env`` key: how many characters the scans of :func:`_last_line` may still read past a block's first
blank line (braces, a template literal or a fence left open there). A block whose braces never balance is read
to the end of the range before it ends at its first blank line, so a page of such blocks (``<Foo a={`` or
``{`` over each paragraph, which MDX itself refuses) was read once per block: 2,000 of them took 50 s. Reading
on that ends in a block is bounded by the source's length; what the parse may spend past that is
:data:`_READ_ON_BASE` and one more source length, so a valid page (whose braces all balance) and one with a
brace left open or two read as before; once spent, a block whose braces are open at its first blank line ends
there."""
_READ_ON_BASE = 1 << 16


def _spent(state: StateBlock, line: int, first_blank: int | None, left: int) -> int:
    """The characters a scan read past its first blank line up to ``line``, taken off the parse's budget
    (:data:`_READ_ON`, ``left`` of it when the scan began)."""
    if first_blank is None:
        return 0
    read_on = state.bMarks[min(line, len(state.bMarks) - 1)] - state.bMarks[first_blank]
    state.env[_READ_ON] = max(0, left - read_on)
    return read_on


_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
_TAG_START = re.compile(r"<(/?)([A-Za-z][\w.:-]*|(?=>))")
_VOID = frozenset(
    ("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr")
)
"""HTML elements that have no end tag."""


class _Elements:
    """The tags a JSX block's lines hold, read on as far as asked (:meth:`at_rest_through`): one pass over
    the block at most, and none unless a heading line follows a line at brace depth 0."""

    __slots__ = ("braces", "closing", "fence", "next", "open", "quote", "state", "tag", "tags")

    def __init__(self, state: StateBlock, start: int) -> None:
        self.state = state
        self.next = start
        self.fence = ""
        self.tag = False
        self.braces = 0
        self.quote = ""
        self.open = 0
        """Elements opened and not closed yet (a void HTML element such as ``<br>`` never closes)."""
        self.tags = 0
        """Tags read."""
        self.closing = False
        """The tag being read is an end tag."""

    def own_block_after(self, line: int, following: str) -> bool:
        """Whether MDX reads ``following``, the text of the line after ``line`` (not indented code), as a
        block of its own: a heading below a line where no tag, prop or fence is left open (a child of the
        elements still open, or a block after them), or a line of text (no tag, no expression) after the
        block's elements all closed (``</Section>`` then ``You might have noticed...``: a paragraph after
        the element, where CommonMark reads on to the blank line)."""
        if _HEADING.match(following):
            return self.at_rest_through(line)
        if not following.strip() or following[0] in "<{":
            return False
        return self.at_rest_through(line) and self.tags > 0 and self.open <= 0

    def at_rest_through(self, last: int) -> bool:
        """Whether the lines up to ``last`` leave no tag, quote or brace of props open and no code fence:
        MDX then reads the next line as a block of its own (a child of the elements still open, or a
        block after them)."""
        while self.next <= last:
            self._read(_line(self.state, self.next))
            self.next += 1
        return not self.tag and not self.fence

    def _fenced(self, text: str) -> bool:
        """Whether the line is a fence line or code (outside a tag): no tags read in it."""
        if self.fence:
            opened = _FENCE.match(text)
            if opened and opened.group(1)[0] == self.fence[0] and len(opened.group(1)) >= len(self.fence):
                self.fence = ""
            return True
        self.fence = _fence_opened(text)
        return bool(self.fence)

    def _read(self, text: str) -> None:
        if not self.tag and self._fenced(text):
            return
        pos = 0
        while pos < len(text):
            if not self.tag:
                found = _TAG_START.search(text, pos)
                if found is None:
                    return
                self.tag, self.braces, self.quote = True, 0, ""
                self.closing = found.group(1) == "/"
                self.tags += 1
                if self.closing:
                    self.open -= 1
                elif found.group(2).lower() not in _VOID:
                    self.open += 1
                pos = found.end()
                continue
            char = text[pos]
            pos += 1
            if self.quote:
                if char == self.quote:
                    self.quote = ""
            elif char in "\"'`":
                self.quote = char
            elif char == "{":
                self.braces += 1
            elif char == "}":
                self.braces -= 1
            elif char == ">" and self.braces <= 0:
                self.tag = False
                if not self.closing and text[pos - 2 : pos - 1] == "/":
                    self.open -= 1  # a self-closing tag (``<Foo />``) opens no element


def _scan(text: str, depth: int, template: bool) -> tuple[int, bool]:
    """Brace depth and template-literal state after ``text``: braces count outside template
    literals, backticks only inside braces (prose backticks are inline code)."""
    for char in text:
        if template:
            if char == "`":
                template = False
        elif char in "{([":
            depth += 1
        elif char in "})]":
            depth = max(0, depth - 1)
        elif char == "`" and depth > 0:
            template = True
    return depth, template
