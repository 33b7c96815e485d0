"""chunker: Markdown documents into retrieval chunks, predictably, losslessly and fast."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"
SCHEMA_VERSION = 4
"""Bumped whenever an output changes shape: chunks.json, meta.json, report.json, or the columns of ``chunker
batch``'s chunk rows and manifest (4: the manifest's ``chunks_sha256``). Other chunks from the same options need no
bump since the fingerprint holds the code that makes them (:func:`chunker.code_digest.code_digest`)."""

__all__ = [
    "SCHEMA_VERSION",
    "ChunkerConfig",
    "ChunkerError",
    "ChunkingResult",
    "DocumentOutcome",
    "Settings",
    "__version__",
    "chunk_markdown",
    "chunk_source",
    "load_settings",
]

if TYPE_CHECKING:
    from chunker.config import ChunkerConfig
    from chunker.core import DocumentOutcome, chunk_source
    from chunker.errors import ChunkerError
    from chunker.models import ChunkingResult
    from chunker.pipeline import chunk_markdown
    from chunker.settings import Settings, load_settings

_LAZY = {
    "ChunkerConfig": "chunker.config",
    "Settings": "chunker.settings",
    "load_settings": "chunker.settings",
    "ChunkingResult": "chunker.models",
    "ChunkerError": "chunker.errors",
    "chunk_markdown": "chunker.pipeline",
    "chunk_source": "chunker.core",
    "DocumentOutcome": "chunker.core",
}


def __getattr__(name: str) -> object:
    # Lazy: `chunker --help` must not import markdown-it-py.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(module), name)
