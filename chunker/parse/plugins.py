"""The block syntax beyond CommonMark that chunker parses: mdit-py-plugins, installed in one place
(the parser, the token-identity checks and the tests build the same parser from here).

- ``dollarmath``: ``$$`` math blocks;
- ``container``: ``:::name title`` ... ``:::`` blocks of VitePress, Docusaurus and markdown-it-container
  (any name), accepted only when a closing ``:::`` line comes before the next ATX heading: an unclosed
  one would swallow the rest of the document, headings included;
- ``admon``: ``!!! type "title"``, ``??? type``, ``???+ type`` admonitions with an indented body.
"""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt

__all__ = ["CONTAINER_RULE", "use_block_plugins"]

CONTAINER_RULE = "container_block"
"""Name of the container rule (tokens ``container_block_open``/``_close``)."""


def use_block_plugins(md: MarkdownIt) -> MarkdownIt:
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.container import container_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md.use(dollarmath_plugin)
    container_plugin(md, CONTAINER_RULE.removeprefix("container_"), validate=_any_name)
    _closed_only(md)
    md.use(admon_plugin)
    return md


def _any_name(params: str, *args: Any) -> bool:
    """Any name (``tip``, ``warning``, ``details``, ``code-group``...), but a name: a bare ``:::`` closes."""
    return bool(params.strip())


def _closed_only(md: MarkdownIt) -> None:
    """The container rule, refusing an opening line that no closing line of at least as many
    colons follows before the next ATX heading (or the end)."""
    from markdown_it.rules_block.state_block import StateBlock

    rule = next(r for r in md.block.ruler.__rules__ if r.name == CONTAINER_RULE)
    original = rule.fn

    def container(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if pos >= len(src) or src[pos] != ":":
            return False
        run = len(src[pos : state.eMarks[start_line]]) - len(src[pos : state.eMarks[start_line]].lstrip(":"))
        if run < 3:
            return False
        fence = ""  # the marker run of a code fence open at this line
        for line in range(start_line + 1, end_line):
            text = src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
            if text[:3] in ("```", "~~~"):
                marker = text[: len(text) - len(text.lstrip(text[0]))]
                if not fence:
                    fence = marker
                elif marker.startswith(fence) and marker == text:
                    fence = ""
                continue
            if fence:
                continue
            if len(text) >= run and text == ":" * len(text):
                return bool(original(state, start_line, end_line, silent))
            if text.startswith("#") and state.sCount[line] < 4:
                return False
        return False

    md.block.ruler.at(CONTAINER_RULE, container, {"alt": ["paragraph", "reference", "blockquote", "list"]})
