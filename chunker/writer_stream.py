"""Write a document's artifacts with the first one streamed: written as its parts come, never held
whole (``chunks.json`` of a large document is tens of times its source), hashed on the way.

The same guarantees as :func:`chunker.writer.write_document`: every file is staged in a temporary file
next to its place and renamed over the old one only when all are staged, ``report.json`` last; on any
failure the previous set stays and no temporary file is left.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from chunker.folder_locks import ensure_folder, folder_lock
from chunker.writer import (
    REPORT_NAME,
    Durability,
    _check_name,
    _fsync_dir,
    _remove_stale_tmp,
    _stage_all,
    _stage_and_commit,
    close_staged,
    discard_staged,
    open_staged,
)

if TYPE_CHECKING:
    from chunker.core import Part
    from chunker.stat_cache import Entry
    from chunker.writer_batch import SyncBatch

__all__ = ["Finish", "write_streamed"]


Finish = Callable[[str, int], tuple[bool, Mapping[str, bytes]]]
"""Given the sha256 and size of the streamed artifact: whether to keep it (rename it over the old
one) and the other artifacts to write (report.json last)."""
Record = Callable[["Entry | None"], None]
"""Told the stat of the streamed artifact right after its rename (:func:`chunker.stat_cache.witnessed`)."""


def write_streamed(
    folder: Path,
    name: str,
    parts: Iterable[Part],
    finish: Finish,
    display: str,
    timeout: float = 30.0,
    *,
    durability: Durability = "full",
    run_locked: bool = False,
    batch: SyncBatch | None = None,
    record: Record | None = None,
) -> bool:
    """:func:`write_document` for a set whose first artifact ``name`` is written as its ``parts``
    come (never held whole): it is staged first, then ``finish`` (its sha256 and size) says
    whether it is kept and gives the other artifacts, which are staged after it. Nothing is
    renamed before everything is staged; returns whether anything was written. ``batch`` (with
    ``run_locked``): staged unsynced, renamed at the batch's flush (:mod:`chunker.writer_batch`).
    ``record``: the stat cache wants the streamed artifact's stat after its rename (when it is kept):
    given it then, or with ``batch`` the batch keeps it at its flush (:attr:`SyncBatch.renamed`)."""
    _check_name(name, display)
    sync = durability == "full"
    if run_locked:
        ensure_folder(folder, display)
        return _stream_and_commit(folder, name, parts, finish, display, sync and batch is None, batch, record)
    with folder_lock(folder, display, timeout):
        _remove_stale_tmp(folder)
        wrote = _stream_and_commit(folder, name, parts, finish, display, sync, None, record)
        if wrote and durability != "none":
            _fsync_dir(folder)
        return wrote


def _stream_and_commit(
    folder: Path,
    name: str,
    parts: Iterable[Part],
    finish: Finish,
    display: str,
    sync: bool,
    batch: SyncBatch | None = None,
    record: Record | None = None,
) -> bool:
    path = folder / name
    where = f"{display}/{name}"
    fd, tmp, sha256, size = _stage_parts(path, parts, where)  # left open: synced below if kept
    try:
        keep, others = finish(sha256, size)
        for other in others:
            _check_name(other, display)
    except BaseException:
        discard_staged(fd, tmp)
        raise
    seen = None
    if not keep:
        discard_staged(fd, tmp)
    else:
        if record is not None:
            from chunker.stat_cache import witness

            seen = witness(fd, sha256)  # after the last write: the mtime a later write would move
        close_staged(fd, tmp, where, sync)
    order = [n for n in others if n != REPORT_NAME] + ([REPORT_NAME] if REPORT_NAME in others else [])
    staged = [(tmp, path, where)] if keep else []
    if batch is None:
        _stage_and_commit(folder, others, order, display, sync, staged)
        if keep and record is not None:
            from chunker.stat_cache import witnessed

            record(None if seen is None else witnessed(path, seen))
    else:
        _stage_all(folder, others, order, display, False, staged)
        batch.add(folder, staged, (size if keep else 0) + sum(len(others[n]) for n in order), seen)
    return keep or bool(others)


def _stage_parts(path: Path, parts: Iterable[Part], where: str) -> tuple[int, str, str, int]:
    """Write ``parts`` one after the other to a new temporary file next to ``path``, hashing them
    as they go; return its descriptor, still open (:func:`~chunker.writer.open_staged`), its name,
    and the sha256 and size of its bytes."""
    digest = hashlib.sha256()
    size = 0

    def hashed() -> Iterator[Part]:
        nonlocal size
        for part in parts:
            digest.update(part)
            size += len(part)
            yield part

    fd, tmp = open_staged(path, hashed(), where)
    return fd, tmp, digest.hexdigest(), size
