"""Stage 1: source text -> the document (lines, frontmatter) and its block tokens.

- :mod:`~chunker.parse.frontmatter`: the one frontmatter detector, for Markdown and plain text;
- :mod:`~chunker.parse.document`: :class:`ParsedDocument` and :func:`read_document`;
- :mod:`~chunker.parse.markdown`: the markdown-it-py block parser;
- :mod:`~chunker.parse.pieces`: :class:`BlockTokens`, the parse of a large body piece by piece;
- :mod:`~chunker.parse.speedups`: the speed-ups of the block parse and their :func:`install`.
"""

from __future__ import annotations

from chunker.parse.document import ParsedDocument, read_document
from chunker.parse.markdown import markdown_parser
from chunker.parse.pieces import PIECE_CHARS, BlockTokens

__all__ = ["PIECE_CHARS", "BlockTokens", "ParsedDocument", "markdown_parser", "read_document"]
