"""chunker: Markdown documents into retrieval chunks, predictably, losslessly and fast."""

from __future__ import annotations

__version__ = "0.1.0"
SCHEMA_VERSION = 2
"""Bumped whenever chunks.json changes shape or the same options would give other chunks."""

__all__ = ["SCHEMA_VERSION", "__version__", "chunk_markdown"]


def __getattr__(name: str) -> object:
    # Lazy: `chunker --help` must not import markdown-it-py.
    if name == "chunk_markdown":
        from chunker.pipeline import chunk_markdown

        return chunk_markdown
    raise AttributeError(name)
