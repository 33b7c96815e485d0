"""Block components of MDC (Markdown Components, the syntax of Nuxt Content): ``::name`` (with
optional ``[label]`` and ``{props}``) on a line of its own, the component's Markdown, then a line
``::``. Nested components take more colons (``:::card`` ... ``:::``, ``::::item`` ... ``::::``) or the
same two, indented or not; a ``::`` line closes the innermost one open at its indentation.

Inside a component, one of more colons is read as MDC reads it (remark-mdc), not by the ``:::``
container rule: only a line of as many colons closes it (``::::`` closes no ``:::card``), and a
component indented past its block reads its lines from its own indentation, as a list item does
(``  :::tabs``, ``    ::::tabs-item``, ``    ```vue``: content indented with its opening line, no
indented code). Read by the container rule, the nested components of Nuxt Content's landing pages
(``::u-page-section`` / ``  :::u-page-grid`` / ``    ::::u-page-feature``) were indented code. A
``:::`` line outside every component is the container rule's, as on VitePress and Docusaurus pages.

The component may begin with its props as YAML between two ``---`` lines. Markdown alone reads
``::card`` followed by ``---`` as a setext heading, and the props up to their closing ``---`` as
another: a card grid of a changelog page became a run of headings named ``::card-group ::card`` and
``icon: i-simple-icons-github title: nuxt/cli ...``, each an orphan heading. Here such a block is a
container (the tokens of the ``:::`` rule, ``container_block_open``/``_close`` with the markup
``::``): its headings open no section, it is kept whole like any container and a piece of an
oversize one re-opens its opening line and closes it. An opening line that no ``::`` line closes
is text, as before (so is a line with text after the name: ``::std::move`` or ``::name text``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt

from chunker.parse.container_lines import unfenced_lines

__all__ = ["MDC_RULE", "mdc_open_at", "mdc_open_checker", "opening_run", "use_mdc_blocks"]

MDC_RULE = "mdc_block"

_OPEN = re.compile(r"::[A-Za-z][\w-]*(?:\[[^\]\n]*\])?(?:\{[^\n]*\})?[ \t]*")
"""An opening line's text (after its indentation): two colons, the component's name, an optional
``[label]`` and ``{props}``."""
_DEEP_OPEN = re.compile(r"(:{3,})[A-Za-z][\w-]*(?:\[[^\]\n]*\])?(?:\{[^\n]*\})?[ \t]*")
"""An opening line of a nested component (``:::card{icon="x"}``, ``::::tabs-item``): three colons or more."""
_CLOSE = re.compile(r"::[ \t]*")
_RUN_CLOSE = re.compile(r"(:{2,})[ \t]*")
_MATCHES = "chunker.mdc.matches"
"""``state.env`` key: (the source, {(end line, block indentation): opening line -> closing line or None})."""
_INSIDE = "chunker.mdc.inside"
"""``state.env`` key: how many components the line being read lies in."""
_LINE = re.compile(r"^[ \t>]*(::[^\n]*)$", re.MULTILINE)


def use_mdc_blocks(md: MarkdownIt) -> None:
    """The rule, before the ``:::`` container rule (which a line of two colons never is)."""
    md.block.ruler.before(
        "container_block", MDC_RULE, _mdc_block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


def _closing_line(state: Any, start_line: int, end_line: int) -> int | None:
    """The line closing the component opened on ``start_line``, or None: for ``::``, the first ``::``
    line at its indentation with no other component opened at that indentation still open; for more
    colons, the first line of as many at its indentation with none of as many opened there still open;
    outside code fences, before a line of text indented less than the block it is in. The lines are
    matched once for every opening line from ``start_line`` on (``state.env``, per end line and
    indentation of the block): a page of many opening lines that nothing closes is not searched to its
    end once per line, nor a component's body once per component nested in it."""
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
            return None  # the budget is spent: text, as an opening line nothing closes
        matches, read = _matches(state, start_line, end_line)
        cached[1][key] = matches
        state.env[_RESCANS] = left - read
    return matches.get(start_line)


_RESCANS = "chunker.mdc.rescans"
"""``state.env`` key: how many lines the searches from an opening line that an earlier search of the same block
did not record may still read. Such a line lies where that search took a line for a code fence's opening that
the parser reads as none (```` ```x` ````, whose info string holds a backtick; ```` ``` ```` indented in a
paragraph or inside an HTML block) and the parser asks the rule about it (a paragraph line: every line is asked
whether it ends the paragraph). Each was searched to the block's end anew: a page alternating ``::a`` and such a
line took n^2/2 lines (2,000 pairs: 4 s, 20,000: minutes). What they may read is :data:`_RESCAN_BASE` and twice
the page's lines; once spent, such an opening line is text, as one that nothing closes."""
_RESCAN_BASE = 1 << 16


def opening_run(text: str) -> int:
    """The colons of a component's opening line (``text`` past its indentation), 0 for none."""
    if _OPEN.fullmatch(text):
        return 2
    found = _DEEP_OPEN.fullmatch(text)
    return len(found.group(1)) if found is not None else 0


def _matches(state: Any, first: int, end_line: int) -> tuple[dict[int, int | None], int]:
    """Every opening line from ``first`` (an opening line) on, with its closing line or None; the lines read."""
    src = state.src
    out: dict[int, int | None] = {first: None}
    start = state.bMarks[first] + state.tShift[first]
    run = opening_run(src[start : state.eMarks[first]])
    open_at: dict[tuple[int, int], list[int]] = {(run, state.sCount[first]): [first]}  # per run, indentation
    for line, text in unfenced_lines(state, first, end_line):
        if not text:
            return out, line - first
        if not text.startswith("::"):
            continue
        closing = _RUN_CLOSE.fullmatch(text)
        if closing is not None:
            stack = open_at.get((len(closing.group(1)), state.sCount[line]))
            if stack:
                out[stack.pop()] = line
        elif run := opening_run(text):
            open_at.setdefault((run, state.sCount[line]), []).append(line)
            out[line] = None
    return out, end_line - first


def _mdc_block(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if not src.startswith("::", pos):
        return False
    if src.startswith(":::", pos):
        if not state.env.get(_INSIDE):
            return False  # outside every component: the ``:::`` container rule's
        found = _DEEP_OPEN.fullmatch(src, pos, maximum)
        if found is None:
            return False
        run = len(found.group(1))
    elif _OPEN.fullmatch(src, pos, maximum):
        run = 2
    else:
        return False
    end = _closing_line(state, start_line, end_line)
    if end is None:
        return False
    if silent:
        return True
    old_parent, old_line_max, old_indent = state.parentType, state.lineMax, state.blkIndent
    state.parentType = "container"
    state.lineMax = end
    indent = state.sCount[start_line]
    if indent > old_indent and _indented_with(state, start_line + 1, end, indent):
        state.blkIndent = indent
    token = state.push("container_block_open", "div", 1)
    token.markup = ":" * run
    token.block = True
    token.info = src[pos + run : maximum]
    token.map = [start_line, end]
    state.env[_INSIDE] = state.env.get(_INSIDE, 0) + 1
    state.md.block.tokenize(state, start_line + 1, end)
    state.env[_INSIDE] -= 1
    token = state.push("container_block_close", "div", -1)
    token.markup = ":" * run
    token.block = True
    state.parentType = old_parent
    state.lineMax = old_line_max
    state.blkIndent = old_indent
    state.line = end + 1
    return True


def _indented_with(state: Any, first: int, end: int, indent: int) -> bool:
    """Whether every line of text from ``first`` up to ``end`` is indented ``indent`` columns or more: a
    component's lines are then read from its own indentation (one less indented would end the body there)."""
    return all(
        state.bMarks[k] + state.tShift[k] >= state.eMarks[k] or state.sCount[k] >= indent for k in range(first, end)
    )


def mdc_open_at(text: str, end: int) -> bool:
    """Whether a component opened in ``text`` before offset ``end`` may still be open there (an
    opening line with fewer ``::`` lines than opening lines after it before ``end``): a heading
    line at ``end`` may then be inside it in the whole document, so a piecewise parse may not cut
    there (:mod:`chunker.parse.pieces`, :mod:`chunker.parse.mixed`). Conservative: indentation and
    code fences aside. ``end`` is a line start."""
    return mdc_open_checker(text)(end)


def mdc_open_checker(text: str) -> Callable[[int], bool]:
    """:func:`mdc_open_at` of ``text`` at any line start: one scan of its ``::`` lines, then a
    bisection per offset (asked at every heading of a piece, it scanned the piece once per heading)."""
    if "::" not in text:
        return lambda end: False
    starts: list[int] = []
    still_open: list[bool] = []  # after each ``::`` line
    open_count = 0
    for match in _LINE.finditer(text):
        line = match.group(1)
        if _OPEN.fullmatch(line) and not line.startswith(":::"):
            open_count += 1
        elif open_count and _CLOSE.fullmatch(line):
            open_count -= 1
        starts.append(match.start())
        still_open.append(open_count > 0)

    def at(end: int) -> bool:
        k = bisect_left(starts, end) - 1  # the last ``::`` line before ``end``
        return k >= 0 and still_open[k]

    return at
