"""The block parser: markdown-it-py with tables and the plugins of :mod:`chunker.parse.plugins`, sped up.

Chunking needs block structure only, and the inline parser is where pathological input costs
seconds and gigabytes. Chunk text is always cut from the source by line maps, never rebuilt from
token content, so whatever the parser skips (reference definitions, text past the nesting limit)
stays in the source and the segmenter keeps it.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.parse import speedups

__all__ = ["MIN_NESTING", "build_parser", "markdown_parser", "tokenize"]

MIN_NESTING = 8
"""The nesting limit is halved, down to this, while the parser's recursion runs out."""


@lru_cache(maxsize=8)
def markdown_parser(max_nesting: int, mdx: bool = False) -> MarkdownIt:
    """The block parser (:func:`build_parser`), cached: building it costs more than parsing a small file."""
    return build_parser(max_nesting, mdx)


def build_parser(max_nesting: int, mdx: bool = False) -> MarkdownIt:
    """A new block parser with every speed-up installed. Frontmatter
    is found by :mod:`chunker.parse.frontmatter` (one rule for Markdown and plain text), not by
    markdown-it's front_matter plugin, whose closing rule differs. A speed-up that cannot be
    installed (another markdown-it-py version than the pinned ones) is named in a warning: the
    tokens are the same, the parse is slower."""
    from chunker.parse.plugins import use_block_plugins

    md = use_block_plugins(MarkdownIt("commonmark", {"maxNesting": max_nesting}).enable("table"))
    if mdx:
        from chunker.parse.mdx import mdx_plugin

        md.use(mdx_plugin)
    md.core.ruler.disable(["inline", "text_join"])  # text_join only joins inline children
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


def tokenize(text: str, cfg: ChunkerConfig) -> tuple[list[Token], int]:
    """Block tokens of ``text`` and the nesting limit that was used: ``cfg.max_nesting``, or lower
    if the parser's recursion runs out (halved down to :data:`MIN_NESTING`)."""
    nesting = cfg.max_nesting
    while True:
        try:
            return markdown_parser(nesting, cfg.syntax == "mdx").parse(text), nesting
        except RecursionError:
            if nesting <= MIN_NESTING:
                raise
            nesting = max(MIN_NESTING, nesting // 2)
