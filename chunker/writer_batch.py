"""The ``full`` durability of a run for one sync per batch of documents instead of one per file.

``full`` puts every artifact on disk before its rename, so that after a power loss each file is
the old or the new one, never empty. Done file by file that is an fsync per artifact: a journal
commit and a cache flush of the disk each, three per document (~0.3 ms of CPU apiece on a
virtual disk, and waits). A :class:`SyncBatch` holds the staged files of several documents
(written and closed, not yet synced, not yet renamed); :meth:`SyncBatch.flush` makes them all
durable at once (one ``syncfs`` of the output file system where it reports write errors, Linux
5.8 and later; else an fsync of each file) and only then renames them, document by document in
the order they were added, ``report.json`` last as ever. So the order on disk is the one
``full`` promises: data, then rename.

What a kill leaves does not change: the renames are atomic and happen after staging, so a run
killed before or during a flush leaves each artifact old or new, and the temporary files of the
documents not yet renamed, which the next run removes (:mod:`chunker.leftovers`). Only the time a
document's new artifacts appear moves: at the flush after it, not as its chunking ends. A rename
that fails at the flush fails its document (:meth:`SyncBatch.flush` returns the error).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chunker import writer
from chunker.errors import OutputError
from chunker.folder_locks import O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW
from chunker.folder_locks import error as _error
from chunker.writer import unlink_quietly

if TYPE_CHECKING:
    from chunker.stat_cache import Entry, Witness

__all__ = ["Held", "Staged", "SyncBatch"]

Staged = Sequence[tuple[str, "Path | str", str]]
"""A document's staged files in the order they are renamed: (temporary name, artifact path, name
shown in messages)."""
Held = list[tuple[str, Sequence[tuple[str, str, str]], int, "Witness | None"]]
"""Documents staged by a worker for its parent's batch: (folder, staged files, their bytes, the
first file's :data:`~chunker.stat_cache.Witness` when the stat cache wants its stat), paths as
text (what crosses from a worker is unpickled in the run's process: a Path costs a parse)."""

MAX_FILES = 384
"""Files held before a flush: 128 documents of three artifacts."""
MAX_BYTES = 32 << 20
"""Bytes held before a flush: the kernel's dirty pages of the batch stay few."""
MIN_SYNCFS_FILES = 48
"""Fewer files are synced one by one: a ``syncfs`` writes back every dirty file of the file
system, other programs' too, which only pays for many of the batch's own."""


class SyncBatch:
    """Staged artifacts of the documents of a run, renamed only after one sync (:meth:`flush`).

    ``out_dir``: the output folder; its file system is the one synced. The caller flushes when
    :attr:`due` says so and once at the end, before anything else touches the output folder, and
    then closes the batch.

    The folder is opened for ``syncfs`` when the batch is made, before any file is staged: a
    ``syncfs`` reports the write errors of the file system since the descriptor was opened (or
    last synced), so an error in writing back a staged file before its flush is not missed."""

    __slots__ = ("_bytes", "_fd", "_files", "_pending", "_sizes", "out_dir", "renamed", "synced_file_system")

    def __init__(self, out_dir: Path, *, holding: bool = False) -> None:
        """``holding``: a worker's batch, never flushed: :meth:`take` hands what it holds to the
        parent's batch (:meth:`add_held`), which syncs and renames it."""
        self.out_dir = out_dir
        self._fd = _open_folder(out_dir) if not holding and _syncfs_reports_errors() else None
        self._pending: list[tuple[Path | str, Staged, Witness | None]] = []
        self._sizes: list[int] = []
        self.renamed: dict[Path | str, Entry | None] = {}
        """The stat, right after the rename, of the first file of each document added with a
        witness (:func:`chunker.stat_cache.witnessed`), by folder; the caller takes them after a flush."""
        self._files = 0
        self._bytes = 0
        self.synced_file_system = False
        """Whether a flush synced the whole file system: the end of the run then needs one more
        ``syncfs`` (the renames), no folder fsyncs."""

    def add(self, folder: Path | str, staged: Staged, size: int, seen: Witness | None = None) -> None:
        """Hold a document's staged files (``size``: their bytes) until the next flush; ``seen``:
        the first file as written, whose stat after the rename goes to :attr:`renamed`."""
        if staged:
            self._pending.append((folder, staged, seen))
            self._sizes.append(size)
            self._files += len(staged)
            self._bytes += size

    def take(self) -> Held:
        """What the batch holds, handed over (a worker's batch: its parent renames the files)."""
        pending = zip(self._pending, self._sizes, strict=True)
        held: Held = [
            (os.fspath(folder), [(tmp, os.fspath(path), where) for tmp, path, where in staged], size, seen)
            for (folder, staged, seen), size in pending
        ]
        self._pending, self._sizes = [], []
        self._files = self._bytes = 0
        return held

    def add_held(self, held: Held) -> None:
        """Hold a worker's staged documents (:meth:`take`) until the next flush."""
        for folder, staged, size, seen in held:
            self.add(folder, staged, size, seen)

    @property
    def due(self) -> bool:
        return self._files >= MAX_FILES or self._bytes >= MAX_BYTES

    def __len__(self) -> int:
        return len(self._pending)

    def flush(self) -> dict[Path | str, OutputError]:
        """Sync every held file, then rename them (a document's in its order); the documents that
        failed, by folder: their temporary files are removed and their old artifacts stay (or,
        for a rename failing midway, the renamed ones are new and report.json is the old one,
        which tells the next run to re-chunk, as after any failed write)."""
        pending, self._pending, self._sizes = self._pending, [], []
        whole = self._files >= MIN_SYNCFS_FILES and self._fd is not None and _syncfs(self._fd)
        self._files = self._bytes = 0
        self.synced_file_system |= whole
        failed = {} if whole else _fsync_each(pending)
        for n, (folder, staged, seen) in enumerate(pending):
            if folder in failed:
                continue
            try:
                _rename_all(staged)
            except OutputError as exc:
                failed[folder] = exc
                continue
            except BaseException:  # interrupted: the documents not yet renamed keep their old artifacts
                for _, rest, _ in pending[n + 1 :]:
                    _unlink_all(rest)
                raise
            if seen is not None:
                from chunker.stat_cache import witnessed

                self.renamed[folder] = witnessed(staged[0][1], seen)  # right after the rename
        return failed

    def __enter__(self) -> SyncBatch:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        """The end of the work that stages into the batch: on an exception the held files are
        discarded (:meth:`discard`); the batch is closed in every case (:meth:`close`)."""
        try:
            if kind is not None:
                self.discard()
        finally:
            self.close()

    def close(self) -> None:
        """Close the folder's descriptor (the held files are left: flush or discard first)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def discard(self) -> None:
        """Remove every held file, renaming none (a run that stops on an exception)."""
        pending, self._pending, self._sizes = self._pending, [], []
        self._files = self._bytes = 0
        for _, staged, _ in pending:
            _unlink_all(staged)


def _rename_all(staged: Staged) -> None:
    """Rename a document's staged files in order (:func:`chunker.writer._commit`, the one rename of
    the writer); on a failure the files not yet renamed are removed."""
    for k, (tmp, path, where) in enumerate(staged):
        try:
            writer._commit(tmp, path, where)
        except BaseException:
            _unlink_all(staged[k + 1 :])
            raise


def _unlink_all(staged: Staged) -> None:
    for tmp, _, _ in staged:
        unlink_quietly(tmp)


def _fsync_each(pending: list[tuple[Path | str, Staged, Witness | None]]) -> dict[Path | str, OutputError]:
    """Fsync every held file through a descriptor of its own; a document whose file fails loses
    all its temporary files."""
    failed: dict[Path | str, OutputError] = {}
    for folder, staged, _ in pending:
        for tmp, _, where in staged:
            try:
                fd = os.open(tmp, os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as exc:
                _unlink_all(staged)
                failed[folder] = _error("cannot write", where, exc)
                break
    return failed


def _open_folder(out_dir: Path) -> int | None:
    try:
        return os.open(out_dir, os.O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    except OSError:
        return None


def _syncfs(fd: int) -> bool:
    """``syncfs`` of the file system of the open folder ``fd``: whether it reported success (no
    write error on the file system since ``fd`` was opened or last synced)."""
    import ctypes

    try:
        return bool(ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0)
    except (OSError, AttributeError):
        return False


def _syncfs_reports_errors() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        major, minor = (int(x) for x in os.uname().release.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= (5, 8)
