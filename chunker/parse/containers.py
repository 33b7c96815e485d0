"""The container block rules of :mod:`chunker.parse.plugins` (mdit-py-plugins' ``container``), bounded.

- ``:::name title`` ... ``:::`` blocks of VitePress, Docusaurus, MyST's colon fences (``:::{note}``) and
  markdown-it-container (any name). A heading inside one is part of it (the example of a
  ``:::{myst-example}``, a section of a ``::: details``): it opens no section. An unclosed one would
  swallow the rest of the document, headings included, so a container never closed ends before the next
  heading, ATX or setext (or at the end of the input); so does one whose closing line comes only after a heading and
  another opening line of at least as many markers (the closing line is that container's). Such a
  container's opening token has ``meta["unclosed"]`` (:func:`unclosed_at`);
- the marker ``/``: ``/// name | title`` ... ``///`` blocks of PyMdown Extensions (``pymdownx.blocks``:
  admonitions, tabs, details in MkDocs sites), ended on the same terms; the name must be a word followed
  by nothing or by ``|`` and a title, so that a ``/// comment`` line of prose is no block;
- a ``:::`` line naming a dotted identifier (``::: package.module.Object``, or a name with ``_``), or one
  name over an indented option line (``::: mkdocs-click`` then ``    :module: mkdocs.__main__``), that no
  ``:::`` line closes is mkdocstrings' (or another plugin's) directive (the API reference of the object,
  with indented options below), a line of text, not a container; so are docfx's directives that no
  ``:::`` line closes (Microsoft Learn: ``:::code source="..." range="1-9":::``, ``:::image ...:::``,
  ``::: zone pivot="x"`` ... ``::: zone-end``); so is a ``::: name`` line of one identifier that is no
  container name of the sites, which no ``:::`` line closes and under which only blank lines come before
  the next ``:::`` line, heading or the end: mkdocstrings' directive for a top-level module (``::: textual``,
  a page of an API reference).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_block.state_block import StateBlock

__all__ = ["CONTAINER_MARKERS", "CONTAINER_RULE", "SLASH_CONTAINER_RULE", "unclosed_at", "use_container"]

CONTAINER_RULE = "container_block"
"""Name of the ``:::`` container rule (tokens ``container_block_open``/``_close``)."""
SLASH_CONTAINER_RULE = "container_blocks"
"""Name of the ``///`` container rule (tokens ``container_blocks_open``/``_close``)."""
CONTAINER_MARKERS = {f"{CONTAINER_RULE}_open": ":", f"{SLASH_CONTAINER_RULE}_open": "/", "myst_fence_open": "`"}
"""The marker character of each container's opening token: its closing line is a run of it."""

_AUTODOC = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z]\w*_\w*")
"""mkdocstrings' ``::: identifier``: a dotted path, or a name with an underscore (``pydantic_core``),
which no container name of VitePress, Docusaurus or MyST has."""
_DOCFX = re.compile(
    r"[A-Za-z][\w-]*(?:\s.*)?:::|(?:zone|moniker)(?:-end|\s.*)?|(?:image|code|video)[ \t]+[\w-]+=[\"'].*"
)
"""docfx's (Microsoft Learn) ``:::`` directives: one-line ones ending in ``:::`` (``:::code language="csharp"
source="..." range="1-9":::``, ``:::image ... :::``, ``:::row:::``), and ``::: zone pivot="..."`` and ``::: moniker
range="..."``, which a ``::: zone-end`` line closes: left open by a bare ``:::``, they are text; so is an image's,
a code sample's or a video's line of attributes that does not end in ``:::`` (``:::image type="complex"
source="..." alt-text="..."`` over its long description and ``:::image-end:::``)."""
_MODULE = re.compile(r"[A-Za-z_]\w*")
"""One identifier (``textual``): a top-level module's name as mkdocstrings' ``::: name`` gives it."""
_CONTAINER_NAME = re.compile(
    r"info|tip|warning|danger|details|raw|note|caution|important|success|secondary|abstract|summary|tldr|todo|"
    r"hint|check|done|question|help|faq|failure|fail|missing|bug|example|quote|cite|attention|error|seealso|"
    r"admonition|dropdown|tabs?|cards?|grid|figure|sidebar|topic|margin|aside|callout|spoiler|hidden|center|"
    r"left|right|columns?|row|block|div",
    re.IGNORECASE,
)
"""Names of ``:::`` containers of VitePress, Docusaurus, MyST and admonition sets: a ``::: name``
line of one is a container however empty, never a module's directive."""
_BLOCK_NAME = re.compile(r"\s*[A-Za-z][\w-]*\s*(?:\|.*)?")
_ATX = re.compile(r"#{1,6}(?:[ \t]|$)")
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*")
"""A setext heading's underline (past its indentation)."""
_OTHER_BLOCK = re.compile(
    r"[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|[>|<]|\[\^|[:~](?:[ \t]|$)|!!!|\?\?\?|===|[-*_](?:[ \t]*[-*_]){2,}[ \t]*$"
)
"""The start of a line that opens a block an underline below it makes no setext heading of: a list
item, a quote, a table, HTML, a footnote, a definition, an admonition or tab, a thematic break."""


def use_container(md: MarkdownIt, rule: str) -> None:
    """The container rule ``rule`` (:data:`CONTAINER_RULE` or :data:`SLASH_CONTAINER_RULE`), bounded."""
    from mdit_py_plugins.container import container_plugin

    marker = CONTAINER_MARKERS[f"{rule}_open"]
    valid = _any_name if marker == ":" else _block_name
    container_plugin(md, rule.removeprefix("container_"), marker=marker, validate=valid)
    _bounded(md, rule, marker, valid)


def _any_name(params: str, *args: Any) -> bool:
    """Any name (``tip``, ``warning``, ``details``, ``code-group``...), but a name: a bare ``:::`` closes."""
    return bool(params.strip())


def _block_name(params: str, *args: Any) -> bool:
    """A block name (``note``, ``tab``, ``details``...), alone or followed by ``| title``."""
    return _BLOCK_NAME.fullmatch(params) is not None


def unclosed_at(tokens: Sequence[Any]) -> int | None:
    """Index of the first container opening in ``tokens`` that was never closed (it ends before a
    heading or at the end of the input), or None. In a piece of a document cut at a heading, such
    a container may be closed past the cut: the piece's tokens from there on are not the document's."""
    for index, token in enumerate(tokens):
        if token.nesting == 1 and token.meta and token.meta.get("unclosed") and token.type in CONTAINER_MARKERS:
            return index
    return None


def _bounded(md: MarkdownIt, name: str, marker: str, valid: Callable[[str], bool]) -> None:
    """The container rule ``name``, ending a container never closed before the next heading
    (see the module's docstring) and marking its opening token ``meta["unclosed"]``."""

    rule = next(r for r in md.block.ruler.__rules__ if r.name == name)
    original = rule.fn

    def container(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if pos >= len(src) or src[pos] != marker:
            return False
        opening = src[pos : state.eMarks[start_line]]
        run = len(opening) - len(opening.lstrip(marker))
        if run < 3:
            return False
        params = opening[run:].strip()
        directive = marker == ":" and _text_directive(params, _next_line(state, start_line))
        if directive and not _may_close(state, start_line, end_line):
            return False  # a directive line that nothing closes: text (not searched to the end anew)
        end = _unclosed_end(state, start_line, end_line, marker, run, valid)
        if end is not None and marker == ":" and _directive(state, start_line, end, params):
            return False  # mkdocstrings' or docfx's directive line, not a container
        if end is None or silent:
            return _past_empty_tail(original, state, start_line, end_line, silent)
        first = len(state.tokens)
        found = _past_empty_tail(original, state, start_line, end, silent)
        if found and first < len(state.tokens):
            state.tokens[first].meta["unclosed"] = True
        return found

    md.block.ruler.at(name, container, {"alt": ["paragraph", "reference", "blockquote", "list"]})


def _directive(state: StateBlock, start_line: int, end: int, params: str) -> bool:
    """Whether the unclosed ``:::`` line ``start_line`` with ``params``, whose container would end
    before ``end``, is a plugin's directive: :func:`_text_directive`, or :func:`_module_directive`."""
    return _text_directive(params, _next_line(state, start_line)) or _module_directive(state, start_line, end, params)


def _module_directive(state: StateBlock, start_line: int, end: int, params: str) -> bool:
    """Whether an unclosed ``::: name`` line is mkdocstrings' directive for a top-level module
    (``::: textual``, the whole of a page of an API reference): one identifier that is no container
    name of the sites (:data:`_CONTAINER_NAME`), and the container would hold nothing but blank lines
    before its end or the next ``:::`` line (another directive: ``::: textual.app``). A container
    with a body, or of a known name, stays one, and its warning with it."""
    if _MODULE.fullmatch(params) is None or _CONTAINER_NAME.fullmatch(params) is not None:
        return False
    src = state.src
    for line in range(start_line + 1, end):
        first = state.bMarks[line] + state.tShift[line]
        if first < state.eMarks[line]:
            return src.startswith(":::", first)
    return True


_BARE_COLONS = re.compile(r"^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t>]+)*:{3,}[ \t]*$", re.MULTILINE)
"""A line that may close a ``:::`` container in some block it lies in: colons alone past quote markers, list
markers and indentation (a superset of the lines :func:`_unclosed_end` reads as closing)."""
_CLOSERS = "chunker.containers.closers"
"""``state.env`` key: (the source, the end offsets of its :data:`_BARE_COLONS` lines, in order)."""


def _may_close(state: StateBlock, start_line: int, end_line: int) -> bool:
    """Whether a line after ``start_line`` and before ``end_line`` may close a ``:::`` container. A directive
    line (docfx's ``::: moniker range="x"``, mkdocstrings' ``::: pkg.Name``) that nothing closes is text, and
    was searched to the end of its block for a closing line, every such line anew: a page of 10,000 of them
    took a minute (n^2/2 lines). The lines that may close one are found once per source."""
    cached = state.env.get(_CLOSERS)
    if cached is None or cached[0] is not state.src:
        cached = (state.src, [found.end() for found in _BARE_COLONS.finditer(state.src)])
        state.env[_CLOSERS] = cached
    ends: list[int] = cached[1]
    if end_line <= start_line + 1:
        return False
    at = bisect_right(ends, state.eMarks[start_line])
    return at < len(ends) and ends[at] <= state.eMarks[end_line - 1]


def _text_directive(params: str, following: str = "") -> bool:
    """Whether an unclosed ``:::`` line with ``params`` (and ``following``, the line after it) is a
    directive of a site's plugin: mkdocstrings' or docfx's, or a one-word name over indented options
    (mkdocs-click's ``::: mkdocs-click`` then ``    :module: mkdocs.__main__``)."""
    if _AUTODOC.fullmatch(params) is not None or _DOCFX.fullmatch(params) is not None:
        return True
    return _OPTION_LINE.match(following) is not None and _BLOCK_NAME.fullmatch(params) is not None


_OPTION_LINE = re.compile(r"(?: {4,}|\t)(?::[\w-]+:|[\w-]+:)(?:[ \t]|$)")
"""An indented option line of a directive (``    :module: x``, ``    options:``)."""


def _next_line(state: StateBlock, line: int) -> str:
    """The text of the line after ``line`` (its indentation kept), "" at the end."""
    if line + 1 >= state.lineMax:
        return ""
    return state.src[state.bMarks[line + 1] : state.eMarks[line + 1]]


def _past_empty_tail(original: Any, state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    """mdit-py-plugins' container rule, asked up to ``end_line``. Its search for the closing line
    reads the first character of each line, past the end of the text on a last line that a quote's
    ``>`` leaves empty (``> :::note`` / ``>``: an IndexError); markdown-it's JavaScript rule reads
    no marker there and goes on to the end. So the rule is asked up to that line, and a container
    it leaves open there (its map reaching that line) takes the empty line in, as the JavaScript
    rule's does; one closed on the line before does not (a piece of a quote ending with ``> :::`` and
    ``>`` parsed otherwise than the document, where more lines follow)."""
    tail = end_line - 1
    if silent or tail <= start_line or state.bMarks[tail] + state.tShift[tail] < len(state.src):
        return bool(original(state, start_line, end_line, silent))
    first = len(state.tokens)
    found = bool(original(state, start_line, tail, silent))
    if found and state.line == tail and first < len(state.tokens) and state.tokens[first].map[1] == tail:
        state.tokens[first].map = [start_line, end_line]
        state.line = end_line
    return found


def _unclosed_end(
    state: Any, start_line: int, end_line: int, marker: str, run: int, valid: Callable[[str], bool]
) -> int | None:
    """None when the container opened on ``start_line`` with ``run`` markers is closed; else the
    line it ends before: the first heading after it, ATX or setext (the first line of the paragraph
    an underline ends), ``end_line`` when none. Closed means: a
    line of at least ``run`` markers alone follows (where the container rule closes it, in a code
    fence too), and no heading comes before it that is followed by another opening line of at least
    ``run`` markers (then the closing line is that container's, and this one was left open).
    Headings and opening lines inside code fences are none. The scan stops at that rival opening line:
    whatever follows, this container ends before the heading (many sibling containers left open, each
    before a heading, are scanned in linear time), and at an outdented line (the end of the list
    item or quote the container is in: many unclosed containers in list items were quadratic)."""
    src = state.src
    fence = ""  # the marker run of a code fence open at this line
    heading: int | None = None
    paragraph: int | None = None  # first line of the run of text lines so far (-1: a run of another block)
    for line in range(start_line + 1, end_line):
        text = src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if text and state.sCount[line] < state.blkIndent:
            # outdented (past the list item, or a quote's lazy line): the container rule ends the
            # container here whatever follows, so nothing past it can close it
            return heading if heading is not None else line
        if text.startswith(marker) and state.sCount[line] - state.blkIndent < 4:
            markers = len(text) - len(text.lstrip(marker))
            if markers >= run and markers == len(text):
                return None  # closed (an opening line after a heading would have returned first)
            if markers >= run and heading is not None and not fence and valid(text[markers:]):
                return heading  # left open before the heading, whether or not a closing line follows
            paragraph = None
            continue
        if text[:3] in ("```", "~~~"):
            run_of_fence = text[: len(text) - len(text.lstrip(text[0]))]
            if not fence:
                fence = run_of_fence
            elif run_of_fence.startswith(fence) and run_of_fence == text:
                fence = ""
            paragraph = None
        elif fence or not text:
            paragraph = None
        elif heading is None and state.sCount[line] < 4 and _ATX.match(text):
            heading = line
        elif paragraph is None:
            plain = state.sCount[line] - state.blkIndent < 4 and _OTHER_BLOCK.match(text) is None
            paragraph = line if plain else -1
        elif heading is None and paragraph >= 0 and _SETEXT.fullmatch(text) and state.sCount[line] < 4:
            heading = paragraph  # a setext heading: the paragraph its underline ends
    return heading if heading is not None else end_line
