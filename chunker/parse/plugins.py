"""The block syntax beyond CommonMark that chunker parses: mdit-py-plugins, installed in one place
(the parser, the token-identity checks and the tests build the same parser from here).

- ``dollarmath``: ``$$`` math blocks;
- ``container``: ``:::name title`` ... ``:::`` blocks of VitePress, Docusaurus and markdown-it-container
  (any name), accepted only when a closing ``:::`` line comes before the next ATX heading: an unclosed
  one would swallow the rest of the document, headings included;
- ``container`` again, with the marker ``/``: ``/// name | title`` ... ``///`` blocks of PyMdown Extensions
  (``pymdownx.blocks``: admonitions, tabs, details in MkDocs sites), accepted on the same terms; the name
  must be a word followed by nothing or by ``|`` and a title, so that a ``/// comment`` line of prose is no
  block;
- ``admon``: ``!!! type "title"``, ``??? type``, ``???+ type`` admonitions with an indented body;
- ``footnote``: footnote definitions ``[^label]: text`` with indented further blocks, left in place
  (not moved to the end of the token stream: blocks follow the source);
- ``deflist``: definition lists (a term line, then ``: definition`` or ``~ definition`` lines);
- ``attrs`` (block rule only): a line ``{.class #id key=value}`` that applies to the block below it
  (not a Liquid/Jinja ``{% tag %}`` line, which stays what CommonMark reads);
  its token is kept (``attrs_block``) rather than folded into that block's attributes, so that the
  segmenter can keep the line with its block.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

__all__ = ["ATTRS_RESOLVE_RULE", "CONTAINER_MARKERS", "CONTAINER_RULE", "SLASH_CONTAINER_RULE", "use_block_plugins"]

CONTAINER_RULE = "container_block"
"""Name of the ``:::`` container rule (tokens ``container_block_open``/``_close``)."""
SLASH_CONTAINER_RULE = "container_blocks"
"""Name of the ``///`` container rule (tokens ``container_blocks_open``/``_close``)."""
CONTAINER_MARKERS = {f"{CONTAINER_RULE}_open": ":", f"{SLASH_CONTAINER_RULE}_open": "/"}
"""The marker character of each container's opening token: its closing line is a run of it."""

_BLOCK_NAME = re.compile(r"\s*[A-Za-z][\w-]*\s*(?:\|.*)?")


ATTRS_BLOCK_RULE = "attr"
"""Name of the attrs plugin's block rule (token ``attrs_block``)."""

ATTRS_RESOLVE_RULE = "attr"
"""The attrs plugin's core rule that moves an ``attrs_block``'s attributes to the next block and
drops the token: disabled, the segmenter reads the token."""


def use_block_plugins(md: MarkdownIt) -> MarkdownIt:
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.attrs import attrs_block_plugin
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin

    md.use(dollarmath_plugin)
    container_plugin(md, CONTAINER_RULE.removeprefix("container_"), validate=_any_name)
    _closed_only(md, CONTAINER_RULE, ":")
    container_plugin(md, SLASH_CONTAINER_RULE.removeprefix("container_"), marker="/", validate=_block_name)
    _closed_only(md, SLASH_CONTAINER_RULE, "/")
    md.use(admon_plugin)
    md.use(footnote_plugin, inline=False, move_to_end=False)
    md.use(deflist_plugin)
    md.use(attrs_block_plugin)
    _no_liquid(md)
    md.core.ruler.disable(ATTRS_RESOLVE_RULE)
    return md


def _no_liquid(md: MarkdownIt) -> None:
    """The attrs block rule, refusing a line that starts with ``{%``: a Liquid or Jinja tag
    (``{% endcapture %}``), which the attrs parser would read as a comment, not an attribute line."""
    from markdown_it.rules_block.state_block import StateBlock

    rule = next(r for r in md.block.ruler.__rules__ if r.name == ATTRS_BLOCK_RULE)
    original = rule.fn

    def attr(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if state.src.startswith("{%", pos):
            return False
        return bool(original(state, start_line, end_line, silent))

    md.block.ruler.at(ATTRS_BLOCK_RULE, attr)


def _any_name(params: str, *args: Any) -> bool:
    """Any name (``tip``, ``warning``, ``details``, ``code-group``...), but a name: a bare ``:::`` closes."""
    return bool(params.strip())


def _block_name(params: str, *args: Any) -> bool:
    """A block name (``note``, ``tab``, ``details``...), alone or followed by ``| title``."""
    return _BLOCK_NAME.fullmatch(params) is not None


def _closed_only(md: MarkdownIt, name: str, marker: str) -> None:
    """The container rule ``name``, refusing an opening line that no closing line of at least as
    many ``marker`` characters follows before the next ATX heading (or the end)."""
    from markdown_it.rules_block.state_block import StateBlock

    rule = next(r for r in md.block.ruler.__rules__ if r.name == name)
    original = rule.fn

    def container(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if pos >= len(src) or src[pos] != marker:
            return False
        run = len(src[pos : state.eMarks[start_line]]) - len(src[pos : state.eMarks[start_line]].lstrip(marker))
        if run < 3:
            return False
        fence = ""  # the marker run of a code fence open at this line
        for line in range(start_line + 1, end_line):
            text = src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
            if text[:3] in ("```", "~~~"):
                run_of_fence = text[: len(text) - len(text.lstrip(text[0]))]
                if not fence:
                    fence = run_of_fence
                elif run_of_fence.startswith(fence) and run_of_fence == text:
                    fence = ""
                continue
            if fence:
                continue
            if len(text) >= run and text == marker * len(text):
                return bool(original(state, start_line, end_line, silent))
            if text.startswith("#") and state.sCount[line] < 4:
                return False
        return False

    md.block.ruler.at(name, container, {"alt": ["paragraph", "reference", "blockquote", "list"]})
