"""Documents with plugin syntax on the pulldown-cmark path: markdown-it-py only around those lines.

pulldown-cmark does not parse the block plugins of :mod:`chunker.parse.plugins` (admonitions,
``:::`` and ``///`` containers, footnote definitions, definition lists, attribute lines) as
markdown-it-py does. A document with such a line used to be parsed by markdown-it-py whole; the
73 German laws of the shared corpus each open with a definition list (their dates), so the fast
path parsed 46 % of the corpus's bytes with markdown-it-py. Now only the sections around those
lines are: the document is cut at top-level ATX headings, and each stretch from the heading before
a plugin line to a heading after it is parsed by markdown-it-py, the rest keeps pulldown-cmark's
tokens.

Why a cut there gives the tokens of the whole-document parse (the argument of
:func:`chunker.parse.pieces._split_index`): a top-level ATX heading line ends every block above it
except those that search on for an end marker, and of those only ``$$`` math can fail where its end
lies past the cut (a document with ``$$`` is parsed whole, :class:`chunker.parse.PulldownTokens`).
A cut is made only at a line that is a top-level ATX heading in both parses: in pulldown-cmark's
parse of the whole body and in markdown-it-py's parse of the stretch up to and including that line,
with no ``:::`` or ``///`` container left unclosed before it in the stretch (one that a closing line
past the heading would close in the whole document, the heading inside it).
Between a cut and the next plugin line there is no plugin syntax, where both parsers give the same
blocks (``bench/parser_diff.py``, ``tests/test_pulldown.py``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from chunker.config import ChunkerConfig
from chunker.parse.containers import unclosed_at
from chunker.parse.details import dangling_details
from chunker.parse.document import ParsedDocument
from chunker.parse.markdown import tokenize
from chunker.parse.mdc import mdc_open_at
from chunker.parse.templates import open_at, page_env
from chunker.parse.token import BlockToken

__all__ = ["mixed_pieces"]

TRIES = 4
"""Headings tried as the end of one markdown-it-py stretch (a heading inside a ``:::`` container is
top-level for pulldown-cmark only) before the rest of the document is parsed in one go."""


def mixed_pieces(
    doc: ParsedDocument, cfg: ChunkerConfig, fast: Sequence[BlockToken], plugin_lines: Sequence[int]
) -> list[Sequence[BlockToken]] | None:
    """The body's tokens as pieces for the segmenter: slices of ``fast`` (pulldown-cmark's tokens of
    the whole body, maps in document lines) and markdown-it-py's tokens of the stretches around
    ``plugin_lines`` (sorted 0-based document lines). None when a stretch reached the nesting
    limit (the caller then parses the whole body with markdown-it-py, which reports it)."""
    tops = [i for i, t in enumerate(fast) if t.level == 0 and t.nesting != -1 and t.map is not None]
    top_lines = [fast[i].map[0] for i in tops]  # type: ignore[index]
    heads = [
        fast[i].map[0]  # type: ignore[index]
        for i in tops
        if fast[i].type == "heading_open" and fast[i].markup.startswith("#")
    ]

    def fast_slice(first: int, stop: int | None) -> Sequence[BlockToken]:
        """pulldown-cmark's tokens of the top-level blocks starting on lines first..stop-1."""
        begin = bisect.bisect_left(top_lines, first)
        end = len(tops) if stop is None else bisect.bisect_left(top_lines, stop)
        if begin >= end:
            return []
        return fast[tops[begin] : tops[end] if end < len(tops) else len(fast)]

    pieces: list[Sequence[BlockToken]] = []
    env = page_env(doc.text)
    covered = doc.body_start_line
    k = 0
    while k < len(plugin_lines):
        line = plugin_lines[k]
        before = bisect.bisect_right(heads, line) - 1
        start = heads[before] if before >= 0 and heads[before] > covered else covered
        if start > covered and dangling_details(fast_slice(covered, start)) is not None:
            start = covered  # a <details> open before the heading may close after it, the heading inside
        pieces.append(fast_slice(covered, start))
        stretch = _stretch(doc, cfg, start, heads[before + 1 :], env)
        if stretch is None:
            return None
        tokens, covered = stretch
        pieces.append(tokens)
        if covered >= len(doc.line_starts):
            return pieces
        k = bisect.bisect_left(plugin_lines, covered, k)
    pieces.append(fast_slice(covered, None))
    return pieces


def _stretch(
    doc: ParsedDocument, cfg: ChunkerConfig, start: int, after: Sequence[int], env: Callable[[], dict[str, Any] | None]
) -> tuple[list[BlockToken], int] | None:
    """markdown-it-py's tokens of the lines from ``start`` up to the first of the headings ``after``
    that it also parses as a top-level ATX heading with no container left unclosed before it (which
    a closing line past the heading may close, :func:`chunker.parse.containers.unclosed_at`); the rest of
    the document when none of the first :data:`TRIES` is one; and the line it ends at; None at the
    nesting limit."""
    text, starts = doc.text, doc.line_starts
    lead, offset = (start, 0) if start == doc.body_start_line else (0, start)
    for end in after[:TRIES]:
        # up to and including the first line with text after the heading: followed by a ``:`` line
        # (blank lines between allowed), a heading line is a definition list's term (markdown-it-py's
        # deflist takes any line as a term), no heading
        following = _next_text_line(text, starts, end + 1)
        stop = starts[following + 1] if following + 1 < len(starts) else len(text)
        tokens = _parse("\n" * lead + text[starts[start] : stop], cfg, env)
        if tokens is None:
            return None
        cut = _heading_at(tokens, end - offset)
        if (
            cut is not None
            and unclosed_at(tokens[:cut]) is None
            and dangling_details(tokens, cut) is None
            and not open_at(text[starts[start] : starts[end]], starts[end] - starts[start])
            and not mdc_open_at(text[starts[start] : starts[end]], starts[end] - starts[start])
        ):
            return _shifted(tokens[:cut], offset), end
    tokens = _parse("\n" * lead + text[starts[start] :], cfg, env)
    return None if tokens is None else (_shifted(tokens, offset), len(starts))


def _next_text_line(text: str, starts: Sequence[int], line: int) -> int:
    """The first line from ``line`` on that is not blank (the last line if none is)."""
    while line < len(starts) - 1:
        stop = starts[line + 1]
        if text[starts[line] : stop].strip():
            break
        line += 1
    return line


def _parse(piece: str, cfg: ChunkerConfig, env: Callable[[], dict[str, Any] | None]) -> list[BlockToken] | None:
    """markdown-it-py's block tokens of ``piece``; None where the nesting limit was reached or
    lowered (its warning comes from the whole-document parse)."""
    tokens, used = tokenize(piece, cfg, env)
    if used != cfg.max_nesting or any(t.level >= used - 1 for t in tokens if t.map is not None):
        return None
    out: list[BlockToken] = list(tokens)
    return out


def _heading_at(tokens: Sequence[BlockToken], line: int) -> int | None:
    """Index of the top-level ATX heading's opening on ``line``, if the parse has one there."""
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1 or token.map is None:
            continue
        if token.map[0] >= line:
            ok = token.type == "heading_open" and token.markup.startswith("#") and token.map[0] == line
            return index if ok else None
    return None


def _shifted(tokens: list[BlockToken], offset: int) -> list[BlockToken]:
    if offset:
        for token in tokens:
            if token.map is not None:
                token.map = [token.map[0] + offset, token.map[1] + offset]  # type: ignore[misc]
    return tokens
