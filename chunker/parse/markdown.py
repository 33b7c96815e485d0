"""The block parser: markdown-it-py with tables and the plugins of :mod:`chunker.parse.plugins`, sped up.

Chunking needs block structure only, and the inline parser is where pathological input costs
seconds and gigabytes. Chunk text is always cut from the source by line maps, never rebuilt from
token content, so whatever the parser skips (reference definitions, text past the nesting limit)
stays in the source and the segmenter keeps it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.parse import rule_speedups, speedups

__all__ = ["MIN_NESTING", "build_parser", "markdown_parser", "syntax_parser", "tokenize", "without_cells"]

MIN_NESTING = 8
"""The nesting limit is halved, down to this, while the parser's recursion runs out."""


@lru_cache(maxsize=8)
def markdown_parser(max_nesting: int, mdx: bool = False, body_rows: bool = True, pandoc: bool = False) -> MarkdownIt:
    """The block parser (:func:`build_parser`), cached: building it costs more than parsing a small file."""
    return build_parser(max_nesting, mdx, body_rows, pandoc)


def syntax_parser(max_nesting: int, cfg: ChunkerConfig, body_rows: bool = True) -> MarkdownIt:
    """The block parser of ``cfg.syntax`` (:func:`markdown_parser`)."""
    return markdown_parser(max_nesting, cfg.syntax == "mdx", body_rows, cfg.syntax == "pandoc")


def build_parser(max_nesting: int, mdx: bool = False, body_rows: bool = True, pandoc: bool = False) -> MarkdownIt:
    """A new block parser with every speed-up installed. ``body_rows`` false: a top-level table
    keeps no row tokens in its body (:func:`_drop_table_cells`). Frontmatter
    is found by :mod:`chunker.parse.frontmatter` (one rule for Markdown and plain text), not by
    markdown-it's front_matter plugin, whose closing rule differs. A speed-up that cannot be
    installed (another markdown-it-py version than the pinned ones) is named in a warning: the
    tokens are the same, the parse is slower. ``pandoc``: Pandoc's fenced divs (:mod:`chunker.parse.pandoc`)."""
    from chunker.parse.plugins import use_block_plugins

    md = use_block_plugins(MarkdownIt("commonmark", {"maxNesting": max_nesting}).enable("table"))
    if mdx:
        from chunker.parse.mdx import mdx_plugin

        md.use(mdx_plugin)
    if pandoc:
        from chunker.parse.pandoc import use_pandoc_divs

        md.use(use_pandoc_divs)
    md.core.ruler.disable(["inline", "text_join"])  # text_join only joins inline children
    _drop_table_cells(md, body_rows)
    missing = [name for name in speedups.SPEED_UPS if name not in speedups.install(md)]
    if missing:
        from importlib.metadata import version

        warnings.warn(
            f"chunker: markdown-it-py {version('markdown-it-py')} / mdit-py-plugins {version('mdit-py-plugins')}: "
            f"speed-ups not installed: {', '.join(missing)} (same chunks, slower parse; the tested versions are "
            "pinned in pyproject.toml)",
            RuntimeWarning,
            stacklevel=2,
        )
    return md


_CELL_TOKENS = frozenset({"th_open", "th_close", "td_open", "td_close", "inline"})
"""Tokens of a table's cells: nothing reads them (chunks are cut at rows, from the source)."""
_ROW_TOKENS = frozenset({"tr_open", "tr_close"})


_CELL_DEPTH = {"th_open": 1, "td_open": 1, "th_close": -1, "td_close": -1}


def without_cells(tokens: Sequence[Token]) -> list[Token]:
    """Stock markdown-it-py's tokens without those of table cells, which :func:`markdown_parser`
    makes but does not keep: what its tokens are compared with (tests, ``bench/token_identity.py``)."""
    out: list[Token] = []
    depth = 0
    for token in tokens:
        if token.type in _CELL_DEPTH:
            depth += _CELL_DEPTH[token.type]
        elif not depth:
            out.append(token)
    return out


def _drop_table_cells(md: MarkdownIt, body_rows: bool = True) -> None:
    """markdown-it's table rule, with its cell tokens never stored (the rule fills in one scratch
    token for all of them): they were ~70 bytes of tokens per byte of a wide table (a 1 MB table of
    60 columns, 180,000 cell tokens: 78 MB); the table, section and row tokens with their line maps
    stay. With ``body_rows`` false a
    top-level table's body rows are not stored either: each is one line of the ``tbody`` token's
    map (the rule makes a row of every line), and two row tokens (~690 bytes) per row of one
    line were 20 times the text of a long narrow table. Tables nested in other blocks keep them
    (block outlines and the rendering check read nested tokens)."""
    ruler = md.block.ruler
    rule = next(r for r in ruler.__rules__ if r.name == "table")
    table = rule_speedups.fast_table(rule.fn)  # rows split by str.split where they can be

    def table_rows_only(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if silent:
            return table(state, start_line, end_line, silent)
        # The rule's own first tests, before the push wrapper is made: the line below must exist and
        # start with '|', '-' or ':' (the rule is tried at every block start; most are no table).
        below = start_line + 1
        if below >= end_line:
            return False
        pos = state.bMarks[below] + state.tShift[below]
        if pos >= state.eMarks[below] or state.src[pos] not in "|-:":
            return False
        push = state.push
        drop_rows = not body_rows and state.level == 0
        in_body = False
        scratch = Token("", "", 0)  # what the rule fills in for a token nothing keeps

        def push_row_tokens(ttype: str, tag: str, nesting: Literal[-1, 0, 1]) -> Token:
            nonlocal in_body
            if ttype in _CELL_TOKENS or (in_body and ttype in _ROW_TOKENS):
                return scratch
            if drop_rows and ttype == "tbody_open":
                in_body = True
            return push(ttype, tag, nesting)

        state.push = push_row_tokens  # type: ignore[method-assign]
        try:
            return table(state, start_line, end_line, silent)
        finally:
            del state.push  # the class's method again

    table_rows_only.__wrapped__ = table  # type: ignore[attr-defined]
    ruler.at("table", table_rows_only, {"alt": list(rule.alt)})


def tokenize(text: str, cfg: ChunkerConfig, env: Callable[[], dict[str, Any] | None] = dict) -> tuple[list[Token], int]:
    """Block tokens of ``text`` and the nesting limit that was used: ``cfg.max_nesting``, or lower
    if the parser's recursion runs out (halved down to :data:`MIN_NESTING`). A top-level table
    has no row tokens in its body (the segmenter takes its rows from the ``tbody`` map). ``env``
    gives each parse its environment: a part of a page is parsed with the page's
    (:func:`chunker.parse.templates.page_env`)."""
    nesting = cfg.max_nesting
    while True:
        try:
            return syntax_parser(nesting, cfg, body_rows=False).parse(text, env()), nesting
        except RecursionError:
            if nesting <= MIN_NESTING:
                raise
            nesting = max(MIN_NESTING, nesting // 2)
