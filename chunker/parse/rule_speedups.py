"""Speed-ups of single block rules, their answers unchanged: the table's row splitting, the reference
rule's early answer for a line that cannot be a definition, link normalisation for plain URLs, and
the quote rule's scan cut at a lazy line where nothing in the quote can take that line in.

Installed by :func:`chunker.parse.speedups.install` (which reports them by name); each checks its
precondition (markdown-it-py's function is the one it stands for) and leaves the rule alone otherwise.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common import normalize_url
from markdown_it.ruler import Ruler
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import escapedSplit, table
from markdown_it.token import Token

__all__ = ["fast_table", "install_link_normalizer", "reject_references", "split_cells"]

BlockRule = Callable[[StateBlock, int, int, bool], bool]

MARK = "chunker_speed_up"
"""Attribute naming the speed-up a function of ours stands for (:mod:`chunker.parse.speedups`)."""


def _mark(fn: Any, name: str) -> Any:
    setattr(fn, MARK, name)
    return fn


def _rule(ruler: Ruler[Any], name: str) -> Any:
    return next((r.fn for r in ruler.__rules__ if r.name == name), None)


# -- table_split ------------------------------------------------------------------------------------


def split_cells(string: str) -> list[str]:
    """markdown-it's ``escapedSplit`` (a table row's cells): its loop over every character joins the
    text around a ``\\|``; with no backslash in the row every ``|`` splits, which is ``str.split``."""
    return string.split("|") if "\\" not in string else escapedSplit(string)


def fast_table(fn: BlockRule) -> BlockRule:
    """markdown-it's table rule with :func:`split_cells` for ``escapedSplit`` (``fn`` itself unless
    it is that rule)."""
    if getattr(fn, MARK, None) == "table_split":
        return fn
    if not (
        isinstance(fn, types.FunctionType)
        and fn.__code__ is table.__code__
        and fn.__globals__.get("escapedSplit") is escapedSplit
    ):
        return fn
    copy = types.FunctionType(
        fn.__code__, {**fn.__globals__, "escapedSplit": split_cells}, fn.__name__, fn.__defaults__, fn.__closure__
    )
    setattr(copy, MARK, "table_split")
    return copy


def install_table_split(ruler: Ruler[BlockRule]) -> None:
    """The table rule (or the stock rule a wrapper of ours calls, ``__wrapped__``) splits rows with
    :func:`split_cells`. A wrapper made before this runs installs :func:`fast_table` itself."""
    fn = _rule(ruler, "table")
    if fn is not None and fn is table:
        rule = next(r for r in ruler.__rules__ if r.name == "table")
        ruler.at("table", fast_table(fn), {"alt": list(rule.alt)})


def table_split_active(ruler: Ruler[BlockRule]) -> bool:
    fn = _rule(ruler, "table")
    return getattr(getattr(fn, "__wrapped__", fn), MARK, None) == "table_split"


# -- reference_reject -----------------------------------------------------------------------------

_LABEL_RUN = re.compile(r"(?:[^\[\]\\\n]|\\[^\n])*")
"""What markdown-it's ``reference`` rule skips before the ``[`` or ``]`` that decides a label."""

_TEXT_AFTER_DESTINATION = re.compile(r"\]:[ \t]*[^\x00-\x20\x7f\\()<][^\x00-\x20\x7f\\()]*[ \t]+[^ \t\n\"'(]")
"""From a label's ``]``: ``]:``, a destination on the same line (no escape, parenthesis or ``<``: it
ends at the first space or control character) and, after spaces or tabs, a character that cannot
open a title. markdown-it's rule then finds no title and "garbage at the end of the line": no
definition. It gets there only after normalising the destination with ``mdurl`` (the lines of
a changelog such as ``[`lint`]: text`` were ~2 % of the corpus's parse)."""


def reject_references(ruler: Ruler[BlockRule]) -> None:
    """``reference`` answers False at once for a line that cannot start a definition (no ``[``,
    a label that ends without ``]:``, or a destination followed by text on its line)."""
    original = _rule(ruler, "reference")
    if original is None or getattr(original, MARK, None) == "reference_reject":
        return

    def reference(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        end = state.eMarks[start_line]
        if pos < end:
            if src[pos] != "[":
                return False
            stop = _LABEL_RUN.match(src, pos + 1, end).end()  # type: ignore[union-attr]
            if stop < end:
                char = src[stop]
                if char == "[" or (char == "]" and (stop + 1 >= end or src[stop + 1] != ":")):
                    return False
                if _TEXT_AFTER_DESTINATION.match(src, stop, end) is not None:
                    return False
        return bool(original(state, start_line, end_line, silent))

    ruler.at("reference", _mark(reference, "reference_reject"), {"alt": []})


# -- plain_links ------------------------------------------------------------------------------------

_PLAIN_LINK = re.compile(
    r"https?://[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*(?:[/?#][A-Za-z0-9\-._~/?#=&+,;:!*'()$@]*)?"
    r"|(?!//)[A-Za-z0-9\-._~/?#=&+,;!*'()$]+"
)
"""Destinations that markdown-it's ``normalizeLink`` gives back unchanged: an http(s) URL with a
lower-case ASCII host (no port, no user) and a path, query and fragment of characters ``mdurl``
neither encodes nor parses apart, or such a relative path with no ``:`` (no scheme) that does not
start with ``//`` (no host). ``mdurl`` keeps the host (ASCII labels of up to 63 characters, 255 in
all), the path, query and fragment as they are, and encodes none of these characters."""
_PLAIN_LINK_MAX = 255

_LINK_SAMPLES = ("https://github.com/a/b/pull/12#x", "https://a-b.c.io/x/y.html?q=1&r=(2)#f:g@h", "../d/e.md#f",
                 "?q=a;b", "x.png", "#anchor", "mailto:a@b.c", "HTTPS://A.B/", "//a.b/c", "a b", "ä",
                 "%41")  # fmt: skip


def _normalize_link(url: str) -> str:
    if len(url) <= _PLAIN_LINK_MAX and _PLAIN_LINK.fullmatch(url) is not None:
        return url
    return normalize_url.normalizeLink(url)


def install_link_normalizer(md: MarkdownIt) -> None:
    """``md.normalizeLink`` answers a plain destination (:data:`_PLAIN_LINK`) without ``mdurl``'s
    parse, format and encoding (the reference rule normalises every definition's destination:
    ~3 % of the corpus's parse); installed only if it agrees with markdown-it's on samples."""
    if type(md).normalizeLink is not MarkdownIt.normalizeLink or "normalizeLink" in vars(md):
        return
    if all(_normalize_link(url) == normalize_url.normalizeLink(url) for url in _LINK_SAMPLES):
        md.normalizeLink = _mark(_normalize_link, "plain_links")  # type: ignore[method-assign]


def plain_links_active(md: MarkdownIt) -> bool:
    return getattr(vars(md).get("normalizeLink"), MARK, None) == "plain_links"


# -- quote_lazy_cut ---------------------------------------------------------------------------------

_CUT_FIRST = ("#", "`", "~", ":")
"""What the content of each line of a quote :func:`cut_lazy_quotes` cuts starts with: the rules
that may be asked about such a line before the heading, fence or container rule (the table and
indented-code rules, whose answers depend on this line and the next) or that take it when those
rules do not (MDC's, setext headings, definition lists, paragraphs) make tokens the cut does not keep."""


def _cut_blocks_only(tokens: list[Token]) -> bool:
    """Whether ``tokens`` (a quote's) are those of ATX headings, fences and containers only: each of
    these rules reads no line past its own but to find its end, and stops there at the first
    non-empty line indented less than the block (a lazy line: its ``sCount`` is -1) or at the end
    line it is given, whichever comes first."""
    for token in tokens:
        kind = token.type
        if kind.startswith("heading_"):
            if not token.markup.startswith("#"):
                return False  # a setext heading's rule reads on over lazy lines
        elif kind not in ("inline", "fence", "blockquote_open", "blockquote_close") and not kind.startswith(
            "container_"
        ):
            return False
    return True


def cut_lazy_quotes(ruler: Ruler[BlockRule]) -> None:
    """markdown-it's quote rule scans every following ``>`` line and lazy line (one no terminator
    interrupts) up to the next blank line before it tokenizes its content, and that content ends
    at the first lazy line unless a paragraph takes the line in. A quote of ATX headings, fences
    and containers followed by a lazy line (``> # H`` / ``text``, repeated: each quote scanned the
    rest of the page, quadratic) ends at that line: the rule is asked with the end line there (it
    scans nothing past it), and its answer stands when the quote holds only such blocks
    (:func:`_cut_blocks_only`); any other content is parsed again by markdown-it's rule as it is."""
    original = _rule(ruler, "blockquote")
    if original is None or getattr(original, MARK, None) == "quote_lazy_cut":
        return
    alt = next(r.alt for r in ruler.__rules__ if r.name == "blockquote")

    def blockquote(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent or state.level + 1 >= state.md.options.maxNesting:
            # (at the nesting limit the quote's content is not parsed: it runs to the scan's end)
            return bool(original(state, start_line, end_line, silent))
        src, b_marks, t_shift, e_marks, s_count = state.src, state.bMarks, state.tShift, state.eMarks, state.sCount
        indent, line = state.blkIndent, start_line
        while True:  # the quote's lines, each '>' and then one of _CUT_FIRST, up to the lazy one
            pos = b_marks[line] + t_shift[line]
            if line > start_line:
                if pos >= e_marks[line]:
                    return bool(original(state, start_line, end_line, silent))  # a blank line ends it
                if src[pos] != ">" or s_count[line] < indent:
                    break
            pos += 2 if src[pos + 1 : pos + 2] == " " else 1
            if src[pos : pos + 1] not in _CUT_FIRST:
                return bool(original(state, start_line, end_line, silent))
            line += 1
            if line >= end_line:
                return bool(original(state, start_line, end_line, silent))
        tokens = state.tokens
        first = len(tokens)
        if not original(state, start_line, line, silent):
            return False  # the rule rejects the first line whatever follows
        if state.line == line and _cut_blocks_only(tokens[first:]):
            return True
        del tokens[first:]  # the level is back where it was: the quote's tokens are balanced
        return bool(original(state, start_line, end_line, silent))

    ruler.at("blockquote", _mark(blockquote, "quote_lazy_cut"), {"alt": list(alt)})
