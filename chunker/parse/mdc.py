"""Block components of MDC (Markdown Components, the syntax of Nuxt Content): ``::name`` (with
optional ``[label]`` and ``{props}``) on a line of its own, the component's Markdown, then a line
``::``. Nested components take more colons (``:::card``, read by the ``:::`` container rule) or the
same two, indented or not; a ``::`` line closes the innermost one open at its indentation.

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

__all__ = ["MDC_RULE", "mdc_open_at", "mdc_open_checker", "use_mdc_blocks"]

MDC_RULE = "mdc_block"

_OPEN = re.compile(r"::[A-Za-z][\w-]*(?:\[[^\]\n]*\])?(?:\{[^\n]*\})?[ \t]*")
"""An opening line's text (after its indentation): two colons, the component's name, an optional
``[label]`` and ``{props}``."""
_CLOSE = re.compile(r"::[ \t]*")
_FENCE = re.compile(r"(`{3,}|~{3,})")
_MATCHES = "chunker.mdc.matches"
"""``state.env`` key: (the source, (end line, block indentation), opening line -> closing line or None)."""
_LINE = re.compile(r"^[ \t>]*(::[^\n]*)$", re.MULTILINE)


def use_mdc_blocks(md: MarkdownIt) -> None:
    md.block.ruler.before("fence", MDC_RULE, _mdc_block, {"alt": ["paragraph", "reference", "blockquote", "list"]})


def _closing_line(state: Any, start_line: int, end_line: int) -> int | None:
    """The line of the ``::`` that closes the component opened on ``start_line``, or None: the
    first ``::`` line at its indentation with no other component opened at that indentation still
    open, outside code fences, before a line of text indented less than the block it is in. The
    lines are matched once for every opening line from ``start_line`` on (``state.env``): a page of
    many opening lines that nothing closes is not searched to its end once per line."""
    key = (end_line, state.blkIndent)
    cached = state.env.get(_MATCHES)
    if cached is not None and cached[0] is state.src and cached[1] == key and start_line in cached[2]:
        return cached[2][start_line]  # type: ignore[no-any-return]
    matches = _matches(state, start_line, end_line)
    state.env[_MATCHES] = (state.src, key, matches)
    return matches.get(start_line)


def _matches(state: Any, first: int, end_line: int) -> dict[int, int | None]:
    """Every opening line from ``first`` (an opening line) on, with its closing line or None."""
    src = state.src
    out: dict[int, int | None] = {first: None}
    open_at: dict[int, list[int]] = {state.sCount[first]: [first]}  # opening lines still open, per indentation
    fence = ""  # the marker run of a code fence open at this line
    for line in range(first + 1, end_line):
        start = state.bMarks[line] + state.tShift[line]
        last = state.eMarks[line]
        if start >= last:
            continue
        if state.sCount[line] < state.blkIndent:
            break
        text = src[start:last]
        opened = _FENCE.match(text)
        if opened is not None:
            run = opened.group(1)
            if not fence:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence) and not text[len(run) :].strip():
                fence = ""
            continue
        if fence or not text.startswith("::"):
            continue
        stack = open_at.setdefault(state.sCount[line], [])
        if _CLOSE.fullmatch(text):
            if stack:
                out[stack.pop()] = line
        elif _OPEN.fullmatch(text):
            stack.append(line)
            out[line] = None
    return out


def _mdc_block(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if not src.startswith("::", pos) or src.startswith(":::", pos) or not _OPEN.fullmatch(src, pos, maximum):
        return False
    end = _closing_line(state, start_line, end_line)
    if end is None:
        return False
    if silent:
        return True
    old_parent, old_line_max = state.parentType, state.lineMax
    state.parentType = "container"
    state.lineMax = end
    token = state.push("container_block_open", "div", 1)
    token.markup = "::"
    token.block = True
    token.info = src[pos + 2 : maximum]
    token.map = [start_line, end]
    state.md.block.tokenize(state, start_line + 1, end)
    token = state.push("container_block_close", "div", -1)
    token.markup = "::"
    token.block = True
    state.parentType = old_parent
    state.lineMax = old_line_max
    state.line = end + 1
    return True


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
