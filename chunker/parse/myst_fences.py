"""MyST directive fences whose body is Markdown: ```` ```{note} ````, ```` ```{admonition} Title ````,
```` ````{tip} ````, ```` ```{dropdown} ````, ```` ```{tab-item} Linux ```` (Sphinx + MyST-Parser, Jupyter Book,
mystmd).

CommonMark reads any fence as code; MyST reads the body of these directives as Markdown and renders it
as the admonition, dropdown or tab it names (a code directive's body, ```` ```{code-block} python ````,
```` ```{literalinclude} ````, stays code, and so does a fence of a directive not named here). Read as code,
such a body was packed, embedded and cut as code: split between lines, re-opening the fence, with no item
leads and none of the cleanups of what is embedded. This rule reads it as a container, as the ``:::``
container rule reads MyST's colon fence (``:::{note}``): tokens ``myst_fence_open`` / ``_close`` around the
body's own blocks, the opening line's backticks as markup and its closing line as the closing token's
markup, so the rest of the chunker reads it as any container closed by a line of its marker (frames,
pieces re-opening it with its title line, item leads).

Only a fence of backticks whose closing line the fence rule would find (the same line: the first of at
least as many backticks alone, before a line indented less than the block it is in); one never closed stays
code, as CommonMark reads it. A heading inside one is part of it and opens no section, as in a ``:::``
container (mystmd's dropdown notes open with one).
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

__all__ = ["MYST_FENCE_RULE", "markdown_directive", "use_myst_fences"]

MYST_FENCE_RULE = "myst_fence"
"""Name of the rule (tokens ``myst_fence_open`` / ``myst_fence_close``)."""

_NAMES = (
    r"admonition|attention|caution|danger|error|hint|important|note|seealso|tip|warning|todo|"
    r"dropdown|tab-set|tab-item|card|grid|grid-item|grid-item-card|topic|sidebar|margin|aside|epigraph|"
    r"pull-quote|highlights|versionadded|versionchanged|deprecated|versionremoved|div|exercise|solution|proof|"
    r"theorem|lemma|definition|remark|example|prf:[a-z]+"
)
"""Directives whose body MyST parses as Markdown and renders in place: admonitions (docutils' and
``{admonition} Title``), sphinx-design's dropdowns, tabs and cards, topics, sidebars and margins, version
notes, sphinx-exercise's and sphinx-proof's blocks."""
_OPEN = re.compile(r"(`{3,})[ \t]*\{(?:" + _NAMES + r")\}(?:[ \t][^`\n]*)?", re.IGNORECASE)
"""An opening line's text past its indentation: backticks, the directive's name in braces, its argument."""
_LINE = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,})[ \t]*\{(?:" + _NAMES + r")\}", re.IGNORECASE)


def markdown_directive(line: str) -> bool:
    """Whether ``line`` (with its indentation, quote and list markers) opens a directive fence whose body is
    Markdown (``  ```{note}``): what is embedded reads its body as Markdown, not as code."""
    return _LINE.match(line) is not None


def use_myst_fences(md: MarkdownIt) -> None:
    """The rule, before the fence rule."""
    md.block.ruler.before(
        "fence", MYST_FENCE_RULE, _myst_fence, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


def _closing_line(state: Any, start_line: int, end_line: int, run: int) -> int | None:
    """The line closing the fence of ``run`` backticks opened on ``start_line``, as the fence rule finds it
    (whatever the body's own fences), or None when none does."""
    src = state.src
    for line in range(start_line + 1, end_line):
        start = state.bMarks[line] + state.tShift[line]
        last = state.eMarks[line]
        if start >= last:
            continue
        if state.sCount[line] < state.blkIndent:
            return None  # the fence ends here, unclosed
        fenced = state.sCount[line] - state.blkIndent < 4 and src.startswith("`" * run, start)
        if fenced and not src[start:last].lstrip("`").strip():
            return line
    return None


def _myst_fence(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if not src.startswith("```", pos):
        return False
    found = _OPEN.fullmatch(src, pos, maximum)
    if found is None:
        return False
    run = len(found.group(1))
    end = _closing_line(state, start_line, end_line, run)
    if end is None:
        return False  # the fence rule's: code
    if silent:
        return True
    old_parent, old_line_max = state.parentType, state.lineMax
    state.parentType = "container"
    state.lineMax = end
    token = state.push("myst_fence_open", "div", 1)
    token.markup = "`" * run
    token.block = True
    token.info = src[pos + run : maximum]
    token.map = [start_line, end]
    state.md.block.tokenize(state, start_line + 1, end)
    close = state.bMarks[end] + state.tShift[end]
    token = state.push("myst_fence_close", "div", -1)
    token.markup = src[close : state.eMarks[end]].rstrip()
    token.block = True
    state.parentType = old_parent
    state.lineMax = old_line_max
    state.line = end + 1
    return True
