"""``chunker batch``: the same chunks for very many documents, from a folder or an object store,
on a local process pool or on Ray Data, incremental against a manifest.

Needs pyarrow (``pip install 'chunker[batch]'``; Ray: ``'chunker[ray]'``). Output under ``--out``:
``chunks/part-*.parquet`` (or ``.jsonl``: the export records) and ``documents/manifest.parquet``,
one row per document, written last. Read the current chunks with :func:`read_chunks`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BatchOptions", "read_chunk_records", "read_chunks", "run_batch"]


def __getattr__(name: str) -> Any:
    # Lazy: importing the package must not import pyarrow (the CLI's help lists `batch`).
    if name in ("BatchOptions", "run_batch"):
        from chunker.batch import run

        return getattr(run, name)
    if name in ("read_chunks", "read_chunk_records"):
        from chunker.batch import store

        return getattr(store, name)
    raise AttributeError(name)
