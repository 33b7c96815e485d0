"""Code blocks written as template tags of static site generators, read as code: Jekyll's Liquid
``{% highlight ruby %}`` ... ``{% endhighlight %}``, Hexo's ``{% codeblock lang:js %}`` ... ``{% endcodeblock %}``,
a Nunjucks block assignment ``{% set codeBlock %}`` ... ``{% endset %}`` (captured text, code in Eleventy's docs)
and Hugo's shortcodes ``{{< highlight go >}}``
... ``{{< /highlight >}}`` (also ``{{% %}}``), ``{{< code >}}``, ``{{< code-toggle >}}`` and any paired
shortcode that names a language (``{{< tab header="yaml" lang="yaml" >}}`` of Docsy's tab panes) unless
it says its text is Markdown: written with ``%`` delimiters (``{{% tab lang="toml" %}}``, whose body Hugo
renders as Markdown: a fenced block, prose, images) or with ``text=true`` (Docsy's text tabs, whose
``lang`` may be a natural language: ``lang="en"``). A Docsy ``{{< tab >}}`` without ``lang`` (``{{< tab
"Java" >}}``, ``{{< tab toml >}}``) is code too inside a ``{{< tabpane >}}`` without ``text=true``: Docsy
shows a tab's text as code unless the tab or its pane says ``text=true``.

A line of Liquid/Jinja tags only (``{% ifversion ghes %}``, ``{% endif %}``, ``{% data reusables.x %}``,
``{% note %}``) is a block of its own (an ``html_block`` token of the rule :data:`TEMPLATE_LINE_RULE`),
interrupting a paragraph: the site runs its templates before
Markdown, and such a line becomes a blank line (a control tag) or the blocks it includes. Read as
paragraph text, it glued what follows to it: a numbered list under ``{% ifversion ghes %}`` (``2. At the
top ...``: a list starting at 2 interrupts no paragraph) was one paragraph, cut inside its sentences.
So is a line of paired Hugo shortcodes only, each a closing one (``{{% /tab %}}``) or an opening one
the page closes (``{{% tab name="Linux" %}}``, ``{{< tabs >}}``, ``{{< note >}}``): Hugo renders the
element there. Read as paragraph text, a tab's closing tag and the next tab's opening one were one
paragraph, which a cut left at the start of a chunk. A shortcode the page does not close
(``{{< glossary_tooltip text="Pod" >}}``, ``{{< figure >}}``) renders inline and stays text.

The site renders their lines as code (Liquid runs before Markdown; a ``{{< >}}`` shortcode gets its
inner text raw), while Markdown alone reads a ``# comment`` line in them as a heading, which opened a
section in the middle of an example and put the rest of the page under it. Such a block is a
``fence`` token: its opening tag line is the opening fence, its closing tag line the closing marker
(the token's ``markup``), so a piece of an oversize one re-opens and closes it with its tags
(:mod:`chunker.frames`, :func:`chunker.pack.repeats.closing_text`). An opening tag no closing tag
follows is text, as before; so is a self-closing one (``{{< code-toggle config=server />}}``, which
renders the site's settings and has no inner text).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import partial
from typing import Any

from markdown_it import MarkdownIt

from chunker.fences import fence_open_at
from chunker.template_tags import fence_view

__all__ = [
    "TEMPLATE_CODE_RULE",
    "TEMPLATE_FENCES_RULE",
    "TEMPLATE_LINE_RULE",
    "fence_lines_read",
    "is_template_fence",
    "open_at",
    "open_checker",
    "page_env",
    "use_template_code",
]

TEMPLATE_CODE_RULE = "template_code"
TEMPLATE_LINE_RULE = "template_line"
TEMPLATE_FENCES_RULE = "template_fences"
_TAGS_ONLY = re.compile(
    r"(?:(?>\{%-?[ \t]*comment[ \t]*-?%\}(?:[^{\n]|\{(?!%))*\{%-?[ \t]*endcomment[ \t]*-?%\}"
    r"|\{%(?:[^%\n]|%(?!\}))*%\})[ \t]*)+"
)
"""A line of Liquid/Jinja tags only (after its indentation), a comment on one line with its text
(``{% comment %}Example name: Base{% endcomment %}``) counting as tags; a tag ends at the first ``%}``.
The group is atomic: a comment read as one tag is never tried again as two (``{% comment %}{% endcomment
%}`` 26 times before a word took minutes to refuse, each pair read both ways)."""

_SHORTCODES_ONLY = re.compile(
    r"(?:\{\{([<%])[ \t]*(/?)[ \t]*([\w.-]+(?:/[\w.-]+)*)(?:[ \t][^{}\n]*)?(?<!/)(?:>\}\}|%\}\})[ \t]*)+"
)
"""A line of Hugo shortcodes only (after its indentation), none self-closing; a ``{{< >}}`` one closes with
``>}}``, a ``{{% %}}`` one with ``%}}`` (checked per tag by :func:`_paired_shortcodes`)."""
_SHORTCODE = re.compile(r"\{\{([<%])[ \t]*(/?)[ \t]*([\w.-]+(?:/[\w.-]+)*)[^{}\n]*?([>%])\}\}")
_SHORTCODE_CLOSE = re.compile(r"\{\{[<%][ \t]*/[ \t]*([\w.-]+(?:/[\w.-]+)*)")
_CLOSED = "chunker.template_line.closed"
"""``state.env`` key: (the source, the names of the shortcodes it closes), found once per source."""
_PAGE_CLOSED = "chunker.template_line.page"
"""``env`` key: the names of the shortcodes the whole page closes, given to the parse of a part of it
(:func:`page_env`)."""

_LIQUID_OPEN = re.compile(r"\{%-?[ \t]*highlight(?:[ \t]+([^\s%]+))?[^\n%]*-?%\}[ \t]*")
_CODEBLOCK_OPEN = re.compile(r"\{%-?[ \t]*codeblock\b(?:[^\n%]*?\blang:([^\s%]+))?[^\n%]*-?%\}[ \t]*")
"""Hexo's code tag plugin, ``{% codeblock [title] [lang:objc] [url] %}`` ... ``{% endcodeblock %}``."""
_CODEBLOCK_CLOSE = re.compile(r"\{%-?[ \t]*endcodeblock[ \t]*-?%\}[ \t]*")
_SET_OPEN = re.compile(r"\{%-?[ \t]*set[ \t]+[A-Za-z_][\w.]*[ \t]*-?%\}[ \t]*(?:\{%-?[ \t]*raw[ \t]*-?%\}[ \t]*)?")
"""A Nunjucks/Jinja block assignment, ``{% set codeBlock %}`` ... ``{% endset %}`` (no ``=``: it captures the text
between its tags, which renders nowhere there; Eleventy's docs write every code example so, then output it with
``{{ codeBlock | highlight("js") | safe }}``), its body in ``{% raw %}`` or not. Read as Markdown, a front matter
example's ``---`` made a setext heading and a ``# comment`` an ATX one, each a section of its own."""
_SET_CLOSE = re.compile(r"(?:\{%-?[ \t]*endraw[ \t]*-?%\}[ \t]*)?\{%-?[ \t]*endset[ \t]*-?%\}[ \t]*")
_HUGO_OPEN = re.compile(r"\{\{(<|%)[ \t]*([\w-]+)([^\n]*?)(>|%)\}\}[ \t]*")
_HUGO_CODE = frozenset({"highlight", "code", "code-toggle"})
"""Shortcodes whose inner text is code; any other paired one is when it names a language (``lang=``,
as a Docsy ``{{< tab header="yaml" lang="yaml" >}}``) with ``<`` delimiters and no ``text=true``."""
_LANG = re.compile(r"""\blang=(?:"([^"]*)"|'([^']*)'|([^\s"'>%]+))""")
_TEXT = re.compile(r"""\btext=(?:"true"|'true'|true)(?![^\s>%])""")
_PANE_TAG = re.compile(r"\{\{<[ \t]*(/?)tabpane\b([^\n]*?)>\}\}")
"""A Docsy ``{{< tabpane ... >}}`` opening (group 1 empty, its parameters in group 2) or closing tag."""
_LIQUID_CLOSE = re.compile(r"\{%-?[ \t]*endhighlight[ \t]*-?%\}[ \t]*")
_PANES = "chunker.template_code.panes"
"""``state.env`` key: (the source, the offsets of its tabpane tags, whether each opens a pane of code)."""
_NO_CLOSE = "chunker.template_code.no_close"
"""``state.env`` key: per closing pattern (and the range parsed: its end line and indentation), the
first line from which no closing line follows: a document of many unclosed tags is scanned once,
not once per tag."""


def is_template_fence(opening: str) -> bool:
    """Whether a code block's opening line is a template tag (not a backtick or tilde fence)."""
    return opening.lstrip(" \t>").startswith("{")


_TAG_LINE = re.compile(
    r"^[ \t>]*(\{%-?[ \t]*(?:(?:end)?(?:highlight|codeblock|set)|endraw)\b[^\n]*|\{\{[<%][^\n]*)$",
    re.MULTILINE,
)


def open_at(text: str, end: int) -> bool:
    """Whether a template code block opened in ``text`` before offset ``end`` is still open there
    (no closing tag between): a heading line at ``end`` may then be code in the whole document, so
    a piecewise parse may not cut there (:mod:`chunker.parse.pieces`, :mod:`chunker.parse.mixed`).
    Conservative: nesting aside, any opening line counts. ``end`` is a line start."""
    return open_checker(text)(end)


def open_checker(text: str) -> Callable[[int], bool]:
    """:func:`open_at` of ``text`` at any line start: its tag lines scanned once, then a bisection
    per offset (a piecewise parse asks it at every heading of a piece, from the last one back: a
    page of tab tags that nothing closes, each before a heading, was scanned once per heading)."""
    if "{%" not in text and "{{" not in text:
        return _never
    starts: list[int] = []
    still_open: list[bool] = []  # after each tag line
    closing: re.Pattern[str] | None = None
    quotes = 0  # the '>' markers before the open block's tag: a closing tag in another quote is its text
    pane = False  # inside a Docsy tab pane of code
    for match in _TAG_LINE.finditer(text):
        line = match.group(1)
        for tag in _PANE_TAG.finditer(line):
            pane = not tag.group(1) and _TEXT.search(tag.group(2)) is None
        depth = text.count(">", match.start(), match.start(1))
        if closing is None:
            found = _opening(line, partial(bool, pane))
            closing = found[0] if found is not None else None
            quotes = depth
        elif depth == quotes and closing.fullmatch(line):
            closing = None
        starts.append(match.start())
        still_open.append(closing is not None)

    def at(end: int) -> bool:
        k = bisect_left(starts, end) - 1  # the last tag line before ``end``
        return k >= 0 and still_open[k]

    return at


def _never(end: int) -> bool:
    return False


def _in_code_pane(state: Any, pos: int) -> bool:
    """Whether offset ``pos`` lies inside a Docsy ``{{< tabpane >}}`` without ``text=true``: the last
    tabpane tag before it opens one. The tags are found once per source (``state.env``), so a page
    of many tab lines is not searched back once per line."""
    panes: tuple[str, list[int], list[bool]] | None = state.env.get(_PANES)
    if panes is None or panes[0] is not state.src:
        tags = list(_PANE_TAG.finditer(state.src))
        code = [not t.group(1) and _TEXT.search(t.group(2)) is None for t in tags]
        panes = (state.src, [t.start() for t in tags], code)
        state.env[_PANES] = panes
    k = bisect_right(panes[1], pos) - 1
    return k >= 0 and panes[2][k]


def use_template_code(md: MarkdownIt) -> None:
    interrupts = ["paragraph", "reference", "blockquote", "list"]
    md.block.ruler.before("fence", TEMPLATE_CODE_RULE, _template_code, {"alt": interrupts})
    md.block.ruler.after(TEMPLATE_CODE_RULE, TEMPLATE_LINE_RULE, _template_line, {"alt": interrupts})
    md.core.ruler.after("normalize", TEMPLATE_FENCES_RULE, _template_fences)


def fence_lines_read(src: str) -> str:
    """``src`` with its fence lines as the site reads them once its templates ran (each line keeps its length, so
    line maps and offsets hold): a fence line with a Liquid/Jinja tag on it without the tag
    (:func:`chunker.template_tags.fence_view`), padded with spaces; a line of tags only inside a fence, left of
    the fence's column, blank (``{% indented_data_reference x spaces=4 %}`` at column 0 inside a fence in a list
    item: the site puts the included text there, indented; Markdown alone ended the item and the fence at it).
    ``src`` itself when no line changes: a page without ``{%`` or without a fence run is not scanned."""
    if "{%" not in src or ("```" not in src and "~~~" not in src):
        return src
    parts: list[str] = []
    done = 0
    pos = src.find("{%")
    while pos >= 0:
        start = src.rfind("\n", 0, pos) + 1
        end = src.find("\n", pos)
        if end < 0:
            end = len(src)
        line = src[start:end]
        read = fence_view(line)
        if read is line and _TAGS_ONLY.fullmatch(line, len(line) - len(line.lstrip(" \t"))) is not None:
            opened = fence_open_at(src, start)
            if opened is not None and len(line) - len(line.lstrip(" \t")) < fence_view(opened[1]).find(opened[0]):
                read = ""
        if read is not line:
            parts += [src[done:start], read.ljust(len(line))]
            done = end
        pos = src.find("{%", end)
    if not parts:
        return src
    parts.append(src[done:])
    return "".join(parts)


def page_env(page: str) -> Callable[[], dict[str, Any] | None]:
    """A fresh ``env`` for each parse of a part of ``page`` (a block, a piece, a chunk): it names the
    shortcodes the whole page closes, so that a line ``{{< admonition type="note" >}}`` whose closing
    line lies outside the part is a block of its own there too, as in the page's parse (each part
    read alone saw no closing line and made the line paragraph text: the rendering check of a piece
    holding one but not the other found the line changed, ``rendering-changed``). None when the page
    has no shortcode. A new dict each time: the rules keep per-source caches in it."""
    last = _LAST_PAGE[0]
    if last is not None and last[0] is page:
        return last[1]
    env: Callable[[], dict[str, Any] | None] = _no_env
    if "{{<" in page or "{{%" in page:
        names = _closed_names(page)

        def env() -> dict[str, Any] | None:
            return {_PAGE_CLOSED: names}

    _LAST_PAGE[0] = (page, env)
    return env


_LAST_PAGE: list[tuple[str, Callable[[], dict[str, Any] | None]] | None] = [None]
"""The page :func:`page_env` was last asked for and its answer: the packer asks once per section (a page of
2,000 sections, each scanned whole, took 28 % longer)."""


def _no_env() -> None:
    return None


def _closed_names(src: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in _SHORTCODE_CLOSE.finditer(src))


def _template_fences(state: Any) -> None:
    """The core rule that gives the block parse :func:`fence_lines_read` of the source."""
    state.src = fence_lines_read(state.src)


def _template_line(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    """A line of template tags only, or of paired shortcodes only: an ``html_block`` token (see the module)."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not src.startswith("{", pos):
        return False
    if src.startswith("{{", pos):
        if not _paired_shortcodes(state, pos, state.eMarks[start_line]):
            return False
    elif not src.startswith("{%", pos) or _TAGS_ONLY.fullmatch(src, pos, state.eMarks[start_line]) is None:
        return False
    if silent:
        return True
    line = start_line + 1  # one line a block: a closing line stays above, an opening one goes below
    token = state.push("html_block", "", 0)
    token.content = state.getLines(start_line, line, state.blkIndent, True)
    token.map = [start_line, line]
    state.line = line
    return True


def _paired_shortcodes(state: Any, pos: int, end: int) -> bool:
    """Whether ``src[pos:end]`` is a line of Hugo shortcodes only, each closing or opening one the page
    closes (the names the page closes found once per source, ``state.env``, or given for the page
    of which ``src`` is a part: :func:`page_env`)."""
    src = state.src
    if _SHORTCODES_ONLY.fullmatch(src, pos, end) is None:
        return False
    names: frozenset[str] | None = state.env.get(_PAGE_CLOSED)  # a part of a page: the page's
    if names is None:
        closed: tuple[str, frozenset[str]] | None = state.env.get(_CLOSED)
        if closed is None or closed[0] is not src:
            closed = (src, _closed_names(src))
            state.env[_CLOSED] = closed
        names = closed[1]
    for tag in _SHORTCODE.finditer(src, pos, end):
        if (tag.group(1) == "<") != (tag.group(4) == ">"):
            return False  # ``{{< x %}}``: no shortcode
        if not tag.group(2) and tag.group(3) not in names:
            return False  # an opening shortcode the page never closes renders inline: text
    return True


def _opening(line: str, in_code_pane: Callable[[], bool]) -> tuple[re.Pattern[str], str] | None:
    """(the pattern of the closing line, the language) of a template code opening line, or None;
    ``in_code_pane`` tells whether the line lies in a Docsy tab pane of code (asked only of a tab)."""
    if line.startswith("{%"):
        liquid = _LIQUID_OPEN.fullmatch(line)
        if liquid is not None:
            return _LIQUID_CLOSE, liquid.group(1) or ""
        codeblock = _CODEBLOCK_OPEN.fullmatch(line)
        if codeblock is not None:
            return _CODEBLOCK_CLOSE, codeblock.group(1) or ""
        return (_SET_CLOSE, "") if _SET_OPEN.fullmatch(line) is not None else None
    hugo = _HUGO_OPEN.fullmatch(line)
    if hugo is None or (hugo.group(1) == "<") != (hugo.group(4) == ">"):
        return None
    shortcode, params = hugo.group(2), hugo.group(3)
    if params.rstrip().endswith("/"):
        return None  # self-closing (``{{< code-toggle config=server />}}``): no inner text, nothing to close
    lang = _LANG.search(params)
    if shortcode not in _HUGO_CODE and (lang is None or hugo.group(1) == "%" or _TEXT.search(params)):
        pane_tab = shortcode == "tab" and hugo.group(1) == "<"
        if not (pane_tab and _TEXT.search(params) is None and in_code_pane()):
            return None  # a shortcode whose text is Markdown (Docsy's text tabs), or no code at all
    name = re.escape(shortcode)
    closing = re.compile(r"\{\{(?:<[ \t]*/[ \t]*" + name + r"[ \t]*>|%[ \t]*/[ \t]*" + name + r"[ \t]*%)\}\}[ \t]*")
    if lang is not None:
        language = next(g for g in lang.groups() if g is not None)
    else:
        language = params.split()[0] if shortcode == "highlight" and params.split() else ""
    return closing, language.strip("\"'")


def _template_code(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if pos >= len(src) or src[pos] != "{":
        return False
    found = _opening(src[pos : state.eMarks[start_line]], lambda: _in_code_pane(state, pos))
    if found is None:
        return False
    closing, language = found
    no_close: dict[tuple[str, int, int], int] = state.env.setdefault(_NO_CLOSE, {})
    key = (closing.pattern, end_line, state.blkIndent)
    if start_line >= no_close.get(key, end_line + 1):
        return False
    end = None
    for line in range(start_line + 1, end_line):
        first = state.bMarks[line] + state.tShift[line]
        if first < state.eMarks[line] and state.sCount[line] < state.blkIndent:
            return False  # a line outside the container this block is in
        if closing.fullmatch(src, first, state.eMarks[line]):
            end = line
            break
    if end is None:
        no_close[key] = min(start_line, no_close.get(key, start_line))
        return False
    if silent:
        return True
    token = state.push("fence", "code", 0)
    token.info = language
    token.markup = src[state.bMarks[end] + state.tShift[end] : state.eMarks[end]].strip()
    token.content = state.getLines(start_line + 1, end, state.sCount[start_line], True)
    token.map = [start_line, end + 1]
    state.line = end + 1
    return True
