"""The block syntax beyond CommonMark that chunker parses: mdit-py-plugins, installed in one place
(the parser, the token-identity checks and the tests build the same parser from here).

- ``dollarmath``: ``$$`` math blocks; not a line that starts with an inline anchor of Elastic's docs-builder,
  ``$$$name$$$`` (:data:`chunker.inline.INLINE_ANCHOR`), which marks a place in the text and is no display math;
- code blocks written as template tags (Jekyll's ``{% highlight %}``, Hugo's ``{{< highlight >}}``,
  ``{{< code >}}``, ``{{< code-toggle >}}``): fenced code (:mod:`chunker.parse.templates`);
- ``container``: ``:::name title`` ... ``:::`` blocks (VitePress, Docusaurus, MyST's colon fences,
  markdown-it-container), a container never closed ending before the next heading, and mkdocstrings'
  and docfx's ``:::`` directive lines read as text (:mod:`chunker.parse.containers`);
- MDC block components (``::name{props}`` ... ``::``, Nuxt Content): ``container_block`` tokens with the
  markup ``::`` (:mod:`chunker.parse.mdc`);
- ``container`` again, with the marker ``/``: ``/// name | title`` ... ``///`` blocks of PyMdown
  Extensions, ended on the same terms (:mod:`chunker.parse.containers`);
- ``admon``: ``!!! type "title"``, ``??? type``, ``???+ type`` admonitions with an indented body. The
  plugin ends one at two blank lines in a row; Python-Markdown (MkDocs), whose syntax this is, goes on
  while the next line of text is indented into the body: code in an admonition often holds two blank
  lines (PEP 8 between definitions), and the rest of the example was read as code outside it. Blank lines
  followed by a line indented into the body are part of it here too (:func:`_through_blanks`);
- content tabs of pymdownx.tabbed (``=== "Title"``, ``===+``, ``===!`` with an indented body, MkDocs
  Material): the admon rule with these markers (:func:`_content_tabs`), the same tokens;
- ``footnote``: footnote definitions ``[^label]: text`` with indented further blocks, left in place
  (not moved to the end of the token stream: blocks follow the source);
- ``deflist``: definition lists (a term line, then ``: definition`` or ``~ definition`` lines);
- ``myst_blocks``: MyST's target lines ``(name)=`` (the label of the block below, a heading mostly),
  ``+++`` block breaks and ``%`` comment lines (tokens ``myst_target``, ``myst_block_break``,
  ``myst_line_comment``);
- ``attrs`` (block rule only): a line ``{.class #id key=value}`` that applies to the block below it
  (not a Liquid/Jinja ``{% tag %}`` line, which stays what CommonMark reads);
  its token is kept (``attrs_block``) rather than folded into that block's attributes, so that the
  segmenter can keep the line with its block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

from chunker.inline import INLINE_ANCHOR
from chunker.parse.containers import CONTAINER_RULE, SLASH_CONTAINER_RULE, use_container
from chunker.parse.mdc import use_mdc_blocks
from chunker.parse.myst_fences import use_myst_fences
from chunker.parse.templates import use_template_code

if TYPE_CHECKING:
    from markdown_it.rules_block.state_block import StateBlock

__all__ = ["ATTRS_RESOLVE_RULE", "CONTENT_TAB_RULE", "use_block_plugins"]


MYST_COMMENT_RULE = "myst_line_comment"
"""Name of the MyST ``%`` comment line rule (mdit-py-plugins' ``myst_blocks``)."""
ATTRS_BLOCK_RULE = "attr"
"""Name of the attrs plugin's block rule (token ``attrs_block``)."""

ATTRS_RESOLVE_RULE = "attr"
"""The attrs plugin's core rule that moves an ``attrs_block``'s attributes to the next block and
drops the token: disabled, the segmenter reads the token."""


def use_block_plugins(md: MarkdownIt) -> MarkdownIt:
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.attrs import attrs_block_plugin
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.myst_blocks import myst_block_plugin

    md.use(dollarmath_plugin)
    _no_anchor_math(md)
    use_template_code(md)
    use_container(md, CONTAINER_RULE)
    use_mdc_blocks(md)
    use_myst_fences(md)
    use_container(md, SLASH_CONTAINER_RULE)
    md.use(admon_plugin)
    _content_tabs(md)
    _through_blanks(md, "admonition", ("!!!", "???", "???+"))
    _through_blanks(md, CONTENT_TAB_RULE, _TAB_MARKERS)
    md.use(footnote_plugin, inline=False, move_to_end=False)
    md.use(deflist_plugin)
    _deflist_marker_first(md)
    md.use(myst_block_plugin)
    _bounded_line_comment(md)
    md.use(attrs_block_plugin)
    _no_liquid(md)
    md.core.ruler.disable(ATTRS_RESOLVE_RULE)
    return md


def _bounded_line_comment(md: MarkdownIt) -> None:
    """mdit-py-plugins' MyST ``%`` comment rule, reading no character past the end of the text (its
    ``src[pos]`` of the next line raised IndexError at a blank quote line ending the text)."""
    from mdit_py_plugins.utils import is_code_block

    def line_comment(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if is_code_block(state, start_line):
            return False
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if not state.src.startswith("%", pos):
            return False
        if silent:
            return True
        token = state.push(MYST_COMMENT_RULE, "", 0)
        token.attrSet("class", "myst-line-comment")
        token.content = state.src[pos + 1 : state.eMarks[start_line]].rstrip()
        token.markup = "%"
        line = start_line + 1
        while line < end_line:
            pos = state.bMarks[line] + state.tShift[line]
            if not state.src.startswith("%", pos):
                break
            token.content += "\n" + state.src[pos + 1 : state.eMarks[line]].rstrip()
            line += 1
        state.line = line
        token.map = [start_line, line]
        return True

    rule = next(r for r in md.block.ruler.__rules__ if r.name == MYST_COMMENT_RULE)
    md.block.ruler.at(MYST_COMMENT_RULE, line_comment, {"alt": list(rule.alt)})


MATH_BLOCK_RULE = "math_block"


def _no_anchor_math(md: MarkdownIt) -> None:
    """dollarmath's block rule, refusing a line that starts with an inline anchor (:data:`INLINE_ANCHOR`): to
    dollarmath a line ``$$$name$$$`` was a math block (989 in elastic/docs-content, a tree with no formula)."""
    rule = next(r for r in md.block.ruler.__rules__ if r.name == MATH_BLOCK_RULE)
    original = rule.fn

    def math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if state.src.startswith("$$$", pos) and INLINE_ANCHOR.match(state.src, pos, state.eMarks[start_line]):
            return False
        return bool(original(state, start_line, end_line, silent))

    md.block.ruler.at(MATH_BLOCK_RULE, math_block, {"alt": rule.alt})


def _no_liquid(md: MarkdownIt) -> None:
    """The attrs block rule, refusing a line that starts with ``{%``: a Liquid or Jinja tag
    (``{% endcapture %}``), which the attrs parser would read as a comment, not an attribute line."""

    rule = next(r for r in md.block.ruler.__rules__ if r.name == ATTRS_BLOCK_RULE)
    original = rule.fn

    def attr(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if state.src.startswith("{%", pos):
            return False
        return bool(original(state, start_line, end_line, silent))

    md.block.ruler.at(ATTRS_BLOCK_RULE, attr)


CONTENT_TAB_RULE = "content_tab"
"""Name of the content tab rule (tokens ``admonition_open``/``_close`` with the markup ``===``)."""
_TAB_MARKERS = ("===", "===+", "===!")
_TAB_LINE = re.compile(r'===[+!]?[ \t]+"')
"""The start of a content tab's line: its marker and the quote of its title."""


def _content_tabs(md: MarkdownIt) -> None:
    """pymdownx.tabbed's content tabs (``=== "Title"``, ``===+``, ``===!``, an indented body): the
    admon plugin's own rule with the tab markers, so a tab is a container with its title line as an
    admonition is (kept whole, its title re-opened in every piece of it). Unlike an admonition it
    interrupts no paragraph (a tab starts a block after a blank line, as in Python-Markdown)."""
    import types

    from mdit_py_plugins.admon.index import admonition

    names = {
        **admonition.__globals__,
        "MARKERS": _TAB_MARKERS,
        "MARKER_CHARS": {"="},
        "MAX_MARKER_LEN": max(len(m) for m in _TAB_MARKERS),
    }
    rule = types.FunctionType(admonition.__code__, names, CONTENT_TAB_RULE, admonition.__defaults__)

    def content_tab(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if _TAB_LINE.match(state.src, pos, state.eMarks[start_line]) is None:
            return False  # a tab's title is quoted: a line of ``====`` is text
        return bool(rule(state, start_line, end_line, silent))

    md.block.ruler.after("admonition", CONTENT_TAB_RULE, content_tab, {"alt": []})


def _through_blanks(md: MarkdownIt, name: str, markers: Sequence[str]) -> None:
    """The admon rule ``name`` (admonitions, content tabs), going on past two or more blank lines
    where the next line of text is indented into its body, as in Python-Markdown (the module's
    docstring). The plugin counts a line as blank when its indentation is below the body's; for its
    call, each such run of blank lines is given the body's indentation (the state of blank lines that
    hold the body's spaces, which the plugin keeps), and restored after it."""

    rule = next(r for r in md.block.ruler.__rules__ if r.name == name)
    original = rule.fn
    longest = sorted(markers, key=len, reverse=True)

    def through_blanks(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent:
            return bool(original(state, start_line, end_line, silent))
        src, b_marks, t_shift, e_marks, s_count = state.src, state.bMarks, state.tShift, state.eMarks, state.sCount
        start = b_marks[start_line] + t_shift[start_line]
        marker = next((m for m in longest if src.startswith(m, start)), None)
        if marker is None:
            return False
        after = start + len(marker)
        spaces = len(src[after : e_marks[start_line]]) - len(src[after : e_marks[start_line]].lstrip(" "))
        body = state.blkIndent + 3 + spaces  # the plugin's body indentation (marker length counts as 3)
        raised: list[tuple[int, int]] = []
        run: list[int] = []
        for line in range(start_line + 1, end_line):
            if b_marks[line] + t_shift[line] >= e_marks[line]:
                run.append(line)
                continue
            if s_count[line] < body:
                break
            if len(run) >= 2 and s_count[run[0]] < body:
                raised.extend((blank, s_count[blank]) for blank in run)
            run = []
        for blank, _ in raised:
            s_count[blank] = body
        try:
            return bool(original(state, start_line, end_line, silent))
        finally:
            for blank, count in raised:
                s_count[blank] = count

    md.block.ruler.at(name, through_blanks, {"alt": list(rule.alt)})


def _deflist_marker_first(md: MarkdownIt) -> None:
    """The deflist rule, answering False at once where it would after its own calls: it is tried at
    every block start (and, as a terminator, on every paragraph line), but a definition list needs
    a ``:`` or ``~`` line right below the term (or below one blank line), and a terminator check
    succeeds only inside a definition (``ddIndent`` set). The rule runs as before where it may accept."""

    rule = next(r for r in md.block.ruler.__rules__ if r.name == "deflist")
    original = rule.fn

    def deflist(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent:
            return state.ddIndent >= 0 and bool(original(state, start_line, end_line, silent))
        below = start_line + 1
        if below >= end_line:
            return False
        b_marks, t_shift, e_marks = state.bMarks, state.tShift, state.eMarks
        pos = b_marks[below] + t_shift[below]
        if pos >= e_marks[below]:  # a blank line: the definition may follow it
            below += 1
            if below >= end_line:
                return False
            pos = b_marks[below] + t_shift[below]
        if pos >= e_marks[below] or state.src[pos] not in ":~":
            return False
        return bool(original(state, start_line, end_line, silent))

    md.block.ruler.at("deflist", deflist, {"alt": list(rule.alt)})
