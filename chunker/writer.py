"""Write a document's artifacts atomically, one run per output folder at a time.

Every file is written to a unique temporary file in its own folder, flushed to
disk and renamed over the old one (``os.replace``), so a reader or a killed run
only ever sees the old file or the new one, never a truncated one.
:func:`write_document` writes all temporary files before it renames any, so a
full disk leaves the previous set untouched, and renames ``report.json`` last
(the caller puts the sha256 of the other files in it, which tells a complete
set from a mixed one). A ``.lock`` file (``fcntl.flock``) serialises concurrent runs:
:func:`run_lock` takes one for a whole run in the output folder; :func:`write_document` on its own
takes one per document folder.

Durability (what an fsync buys beyond the rename): a killed process never leaves a torn file,
since the rename is atomic and the page cache outlives the process. Only a power loss or a
kernel crash can lose data the kernel has not yet written back; :data:`DURABILITIES` name how
much a run pays against that (``full``: every artifact on disk before its rename, the folders
at the end of the run; ``run``: everything at the end of the run, one ``syncfs``; ``none``:
the kernel writes back in its own time). In every mode report.json is renamed last and records
the sha256 of the other two, so a run never trusts a set that a power loss left mixed or torn.

Nothing is written outside the given folder: the folder and the lock file must
not be symlinks, and renaming over a symlinked artifact replaces the link, not
the file it points to.
"""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from chunker.errors import OutputError
from chunker.folder_locks import LOCK_NAME, O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW, ensure_folder, folder_lock, run_lock
from chunker.folder_locks import error as _error

if TYPE_CHECKING:
    from chunker.writer_batch import SyncBatch

__all__ = [
    "ARTIFACT_NAMES",
    "DURABILITIES",
    "LOCK_NAME",
    "REPORT_NAME",
    "Durability",
    "folder_lock",
    "run_lock",
    "sync_written",
    "unlink_quietly",
    "write_atomic",
    "write_document",
]

Durability = Literal["full", "run", "none"]
DURABILITIES: tuple[Durability, ...] = ("full", "run", "none")
"""``full`` (the default): each artifact is fsync'd before its rename (after a power loss a file is
the old or the new one, never empty), the folders once at the end of the run (a run in one process
syncs batches of documents at once: :mod:`chunker.writer_batch`); ``run``: nothing
while writing, one ``syncfs`` of the output file system at the end (a power loss during the run
may leave a torn artifact, which report.json's sha256 makes the next run rewrite); ``none``: no
fsync at all (a killed run is as safe as ever; a power loss may lose the last ~30 s of writes)."""

REPORT_NAME = "report.json"
ARTIFACT_NAMES: tuple[str, ...] = ("chunks.json", "meta.json", REPORT_NAME)
"""The files a document folder holds; :func:`chunker.folder_removal.remove_folder` deletes only these
(plus lock and temp files)."""
TMP_SUFFIX = ".tmp"

# -- small helpers ------------------------------------------------------------


_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_CLOEXEC
_TEMP_TRIES = 10_000
_temp_numbers = itertools.count()
"""Numbers the temporary files of this process: with the process id a name no other live writer
uses, without the random names (and the checks) of ``tempfile.mkstemp``."""


def _create_temp(path: Path) -> tuple[int, str]:
    """A new, empty file ``.<name>.<pid>-<n>.tmp`` next to ``path``, opened for writing; its
    permissions are 0o666 less the umask, as ``open()`` gives. ``O_EXCL``: never an existing file
    (one a killed run of the same process id left, or a symlink); the next number is tried then."""
    prefix = f"{os.fspath(path.parent)}/.{path.name}.{os.getpid()}-"
    for _ in range(_TEMP_TRIES):
        tmp = f"{prefix}{next(_temp_numbers)}{TMP_SUFFIX}"
        try:
            return os.open(tmp, _TEMP_FLAGS, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", prefix)


def unlink_quietly(path: str | Path) -> None:
    with suppress(OSError):
        os.unlink(path)


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable; best effort (some file systems refuse to fsync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes | memoryview) -> None:
    written = os.write(fd, data)  # the whole at once, as a rule
    if written == len(data):
        return
    view = memoryview(data)
    while True:
        if written <= 0:
            raise OSError(errno.ENOSPC, "write returned 0 bytes")
        view = view[written:]
        if not view:
            return
        written = os.write(fd, view)


def _stage(path: Path, data: bytes, where: str, sync: bool = True) -> str:
    """Write ``data`` to a new temporary file next to ``path`` (on disk with ``sync``); return its name."""
    return stage_parts(path, (data,), where, sync)


def stage_parts(path: Path, parts: Iterable[bytes | memoryview], where: str, sync: bool = True) -> str:
    """Write ``parts`` one after the other to a new temporary file next to ``path`` (on disk with
    ``sync``); return its name. On any failure (of the file system or of ``parts``) it is removed."""
    fd, tmp = open_staged(path, parts, where)
    close_staged(fd, tmp, where, sync)
    return tmp


def open_staged(path: Path, parts: Iterable[bytes | memoryview], where: str) -> tuple[int, str]:
    """:func:`stage_parts` that leaves the file open: its descriptor and name. The caller ends it
    with :func:`close_staged` (or :func:`discard_staged`); on a failure here it is removed."""
    try:
        fd, tmp = _create_temp(path)
    except OSError as exc:
        raise _error("cannot create a file in the output folder", where, exc) from None
    try:
        for part in parts:
            _write_all(fd, part)
    except BaseException as exc:
        discard_staged(fd, tmp)
        if isinstance(exc, OSError):
            raise _error("cannot write", where, exc) from None
        raise
    return fd, tmp


def close_staged(fd: int, tmp: str, where: str, sync: bool) -> None:
    """Close a file of :func:`open_staged`, on disk first with ``sync`` (through the descriptor
    that wrote it); on a failure it is removed."""
    try:
        try:
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException as exc:
        unlink_quietly(tmp)
        if isinstance(exc, OSError):
            raise _error("cannot write", where, exc) from None
        raise


def discard_staged(fd: int, tmp: str) -> None:
    """Close and remove a file of :func:`open_staged`."""
    with suppress(OSError):
        os.close(fd)
    unlink_quietly(tmp)


def _commit(tmp: str, path: Path | str, where: str) -> None:
    """Rename a staged file over ``path``; on failure the temporary file is removed."""
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        unlink_quietly(tmp)
        if isinstance(exc, OSError):
            raise _error("cannot replace", where, exc) from None
        raise


# -- public API -----------------------------------------------------------------


def write_atomic(path: Path, data: bytes, *, display: str | None = None) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename, fsync of the folder).

    On any failure the old file is untouched, no temporary file is left and
    :class:`OutputError` says why ('disk full', 'not writable', 'file too large', ...).
    """
    where = display or str(path)
    _commit(_stage(path, data, where), path, where)
    _fsync_dir(path.parent)


def _check_name(name: str, display: str) -> None:
    """An artifact name must be a plain file name inside the folder."""
    if (
        not name
        or name in (".", "..")
        or "/" in name
        or "\\" in name
        or "\x00" in name
        or name.startswith(".")
        or name.endswith(TMP_SUFFIX)
    ):
        raise OutputError(f"refusing to write artifact {name!r}: not a plain file name", path=display)


def _remove_stale_tmp(folder: Path) -> None:
    """Remove temporary files a killed run left behind (call while holding the folder lock)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith(TMP_SUFFIX) and not entry.is_dir(follow_symlinks=False):
            unlink_quietly(entry.path)


def write_document(
    folder: Path,
    artifacts: Mapping[str, bytes],
    display: str,
    timeout: float = 30.0,
    *,
    durability: Durability = "full",
    run_locked: bool = False,
    batch: SyncBatch | None = None,
) -> None:
    """Write every artifact of one document into ``folder``, atomically.

    All temporary files are written (and, with ``durability`` ``full``, synced) before the
    first rename, so a failure while writing (disk full, size limit) leaves the previous set
    untouched; ``report.json`` is renamed last. On its own (``run_locked`` false) it takes the
    folder's lock, removes stale temporary files of killed runs and syncs the folder as well.
    ``run_locked``: the caller holds :func:`run_lock` and, at the end of the run, removes
    leftovers and calls :func:`sync_written`; no lock, folder listing or folder fsync per document.
    ``batch`` (with ``run_locked``): the files are staged unsynced and renamed at the batch's flush,
    after one sync of all it holds (:mod:`chunker.writer_batch`); the caller flushes it.
    """
    for name in artifacts:
        _check_name(name, display)
    order = [n for n in artifacts if n != REPORT_NAME]
    if REPORT_NAME in artifacts:
        order.append(REPORT_NAME)
    sync = durability == "full"
    if run_locked:
        ensure_folder(folder, display)
        if batch is not None:
            staged: list[tuple[str, Path, str]] = []
            _stage_all(folder, artifacts, order, display, False, staged)
            batch.add(folder, staged, sum(len(artifacts[n]) for n in order))
            return
        _stage_and_commit(folder, artifacts, order, display, sync)
        return
    with folder_lock(folder, display, timeout):
        _remove_stale_tmp(folder)
        _stage_and_commit(folder, artifacts, order, display, sync)
        if durability != "none":
            _fsync_dir(folder)


def _stage_and_commit(
    folder: Path,
    artifacts: Mapping[str, bytes],
    order: list[str],
    display: str,
    sync: bool,
    staged: list[tuple[str, Path, str]] | None = None,
) -> None:
    """Stage ``artifacts`` in ``order`` after those already ``staged``, then rename them all in
    that order; on a failure the temporary files not yet renamed are removed."""
    staged = staged if staged is not None else []
    try:
        _stage_all(folder, artifacts, order, display, sync, staged)
        while staged:
            tmp, path, where = staged[0]
            staged.pop(0)
            _commit(tmp, path, where)
    finally:
        for tmp, _, _ in staged:
            unlink_quietly(tmp)


def _stage_all(
    folder: Path,
    artifacts: Mapping[str, bytes],
    order: list[str],
    display: str,
    sync: bool,
    staged: list[tuple[str, Path, str]],
) -> None:
    """Stage ``artifacts`` in ``order``, appending each to ``staged``; on a failure the files
    staged so far (all of ``staged``) are removed."""
    try:
        for name in order:
            path = folder / name
            where = f"{display}/{name}"
            staged.append((_stage(path, artifacts[name], where, sync), path, where))
    except BaseException:
        for tmp, _, _ in staged:
            unlink_quietly(tmp)
        staged.clear()
        raise


def sync_written(out_dir: Path, folders: Iterable[Path], durability: Durability) -> None:
    """Make what a run wrote durable, at its end: with ``full`` every written folder and the
    folders above it up to ``out_dir`` (their renames and new entries; the files were synced
    before their renames); with ``run`` the output file system at once (``syncfs`` on Linux,
    ``sync`` elsewhere); with ``none`` nothing. Best effort, like every folder fsync."""
    if durability == "none":
        return
    if durability == "run":
        _sync_file_system(out_dir)
        return
    done: set[Path] = set()
    root = Path(os.path.abspath(out_dir))
    for folder in folders:
        current = Path(os.path.abspath(folder))
        while current not in done:
            done.add(current)
            _fsync_dir(current)
            if current == root or root not in current.parents:
                break
            current = current.parent


def _sync_file_system(out_dir: Path) -> None:
    """``syncfs`` of the file system holding ``out_dir`` (Linux), else ``sync`` of all."""
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        try:
            fd = os.open(out_dir, os.O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        except OSError:
            return
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.syncfs(fd) == 0:
                return
        except (OSError, AttributeError):
            pass
        finally:
            os.close(fd)
    os.sync()
