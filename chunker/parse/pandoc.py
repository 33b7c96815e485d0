"""Pandoc's fenced divs, as Pandoc (and so Quarto, R Markdown, bookdown) reads them: under ``syntax:
pandoc`` (``.qmd``, ``.Rmd`` and ``.Rmarkdown`` sources under ``auto``).

A div opens with a line of three colons or more and its attributes (``::: {.callout-note}``,
``::: {#fig-x layout-ncol=2}``, ``::: warning``, optionally followed by colons again) and is closed by the
first line of three colons or more alone that no div opened inside it takes: divs nest by their opening
lines, whatever the number of colons. The ``:::`` container rule (markdown-it-container, VitePress,
Docusaurus) closes a container at the first bare line of at least as many colons, so a Quarto page's
``::: {.panel-tabset}`` holding a ``::: {.callout-tip}`` closed at the callout's ``:::`` and its later
tabs (``## Tab`` headings, which are tabs there, not sections) became sections; a ``::: {.a}`` holding a
``:::: {.b}`` closed at the ``::::``. The tokens are the container rule's (``container_block_open`` /
``_close``, the opening line's colons as markup), so the rest of the chunker reads a div as it reads any
``:::`` container. An opening line that no line closes is left to the container rule (which ends it
before the next heading, with its warning).
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

from chunker.parse.container_lines import unfenced_lines

__all__ = ["PANDOC_DIV_RULE", "use_pandoc_divs"]

PANDOC_DIV_RULE = "pandoc_div"

_OPEN = re.compile(r"(:{3,})[ \t]*(?:\{[^\n]*\}|[^\s{}:][^\s{}]*+)[ \t]*(?::+[ \t]*)?")
"""An opening line's text past its indentation: colons, then attributes in braces or one word (a class),
then optionally colons again. The word is possessive: colons right after it are its own (the same language),
where the word and the closing colons split a run of colons n ways, each tried to the end of the line (a
line '::: a' and 100,000 colons took minutes)."""
_CLOSE = re.compile(r":{3,}[ \t]*")
_MATCHES = "chunker.pandoc.matches"
"""``state.env`` key: (the source, {(end line, block indentation): opening line -> closing line or None})."""


def use_pandoc_divs(md: MarkdownIt) -> None:
    """The rule, before the ``:::`` container rule."""
    md.block.ruler.before(
        "container_block", PANDOC_DIV_RULE, _pandoc_div, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


def _matches(state: Any, first: int, end_line: int) -> tuple[dict[int, int | None], int]:
    """Every opening line from ``first`` (an opening line) up to ``end_line`` with its closing line or
    None: a closing line closes the innermost div open, outside code fences, before a line of text
    indented less than the block it is in; the lines read."""
    out: dict[int, int | None] = {first: None}
    stack = [first]
    for line, text in unfenced_lines(state, first, end_line):
        if not text:
            return out, line - first
        if not text.startswith(":::") or state.sCount[line] - state.blkIndent >= 4:
            continue
        if _CLOSE.fullmatch(text):
            if stack:
                out[stack.pop()] = line
        elif _OPEN.fullmatch(text):
            stack.append(line)
            out[line] = None
    return out, end_line - first


def _closing_line(state: Any, start_line: int, end_line: int) -> int | None:
    """The line closing the div opened on ``start_line``, or None. The lines are matched once for every
    opening line from ``start_line`` on (``state.env``, per end line and indentation of the block), so a
    page of many divs is not searched once per div nested in another. An opening line that an earlier search
    of the block did not record is searched anew within a budget per parse (:data:`_RESCANS`)."""
    key = (end_line, state.blkIndent)
    cached = state.env.get(_MATCHES)
    if cached is None or cached[0] is not state.src:
        cached = (state.src, {})
        state.env[_MATCHES] = cached
    matches: dict[int, int | None] | None = cached[1].get(key)
    if matches is None:
        matches = cached[1][key] = _matches(state, start_line, end_line)[0]
    elif start_line not in matches:  # a line the search took for code (or past a line it stopped at)
        left = state.env.get(_RESCANS, _RESCAN_BASE + 2 * len(state.bMarks))
        if left <= 0:
            return None  # the budget is spent: the container rule's, as an opening line nothing closes
        matches, read = _matches(state, start_line, end_line)
        cached[1][key] = matches
        state.env[_RESCANS] = left - read
    return matches.get(start_line)


_RESCANS = "chunker.pandoc.rescans"
"""``state.env`` key: how many lines the searches from an opening line that an earlier search of the same block
did not record may still read, as :data:`chunker.parse.mdc._RESCANS` for MDC components. Such a line lies where
that search took a line for a code fence's opening that the parser reads as none (```` ```x` ````, an indented
```` ``` ````, one in an HTML block); each was searched to the block's end anew, and one the ``:::`` container
rule then reads as text (``::: pkg.module``, ``::: moniker-end``) opens nothing that would bound the next search:
4,000 such pairs took 17 s (n^2/2 lines). What they may read is :data:`_RESCAN_BASE` and twice the page's lines;
once spent, such an opening line is left to the container rule."""
_RESCAN_BASE = 1 << 16


def _pandoc_div(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if not src.startswith(":::", pos):
        return False
    found = _OPEN.fullmatch(src, pos, maximum)
    if found is None:
        return False
    end = _closing_line(state, start_line, end_line)
    if end is None:
        return False  # the container rule's: ended before the next heading, with its warning
    if silent:
        return True
    run = len(found.group(1))
    old_parent, old_line_max = state.parentType, state.lineMax
    state.parentType = "container"
    state.lineMax = end
    token = state.push("container_block_open", "div", 1)
    token.markup = ":" * run
    token.block = True
    token.info = src[pos + run : maximum]
    token.map = [start_line, end]
    state.md.block.tokenize(state, start_line + 1, end)
    close = state.bMarks[end] + state.tShift[end]
    token = state.push("container_block_close", "div", -1)
    token.markup = src[close : state.eMarks[end]].rstrip()
    token.block = True
    state.parentType = old_parent
    state.lineMax = old_line_max
    state.line = end + 1
    return True
