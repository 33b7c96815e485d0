"""Locks of the output: one per run on the output folder (:func:`run_lock`), or one per document
folder (:func:`folder_lock`), both ``fcntl.flock`` on a ``.lock`` file the kernel releases when
the process ends, however it ends; and the messages of failed file operations."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from chunker.errors import OutputError

LOCK_NAME = ".lock"

O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


# -- errors -------------------------------------------------------------------


def reason(exc: OSError) -> str:
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return "disk full (no space left on the device or quota exceeded)"
    if code == errno.EROFS:
        return "not writable (read-only file system)"
    if code in (errno.EACCES, errno.EPERM):
        return "not writable (permission denied)"
    if code == errno.EFBIG:
        return "file too large (the file size limit was reached)"
    if code == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if code == errno.EISDIR:
        return "a folder is in the way of the file"
    if code == errno.EEXIST:
        return "a file is in the way (the path exists and is not a folder)"
    if code == errno.ENAMETOOLONG:
        return "the path is too long"
    if code == errno.ELOOP:
        return "the path is a symlink; refused"
    return exc.strerror or str(exc)


def error(action: str, where: str, exc: OSError) -> OutputError:
    return OutputError(f"{action}: {reason(exc)}", path=where)


# -- locks ---------------------------------------------------------------------


def ensure_folder(folder: Path, display: str) -> None:
    """Create ``folder`` if needed; refuse a symlink or a file in its place."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True)
        except FileExistsError:
            pass  # another run created it meanwhile; checked below
        except OSError as exc:
            raise error("cannot create the output folder", display, exc) from None
        try:
            info = os.lstat(folder)
        except OSError as exc:
            raise error("cannot use the output folder", display, exc) from None
    except OSError as exc:
        action = "cannot create the output folder" if exc.errno == errno.ENOTDIR else "cannot use the output folder"
        raise error(action, display, exc) from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputError(
            "the output folder is a symlink; refused (chunker writes only into a real folder: remove the link)",
            path=display,
        )
    if not stat.S_ISDIR(info.st_mode):
        raise OutputError("the output path exists but is not a folder; remove or rename it", path=display)


def _open_lock(lock_path: Path, display: str) -> int:
    try:
        return os.open(lock_path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputError(f"{LOCK_NAME} is a symlink; refused (remove it)", path=display) from None
        if exc.errno == errno.EROFS:  # a read-only output: a run with nothing to write, or eval, may go on
            with suppress(OSError):
                return os.open(lock_path, os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        raise error(f"cannot create the lock file {LOCK_NAME}", display, exc) from None


def _try_flock(fd: int, display: str) -> bool:
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except InterruptedError:
            continue
        except BlockingIOError:
            return False
        except OSError as exc:
            raise error(f"cannot lock {LOCK_NAME}", display, exc) from None


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd`` (a lock on an unlinked file locks nothing)."""
    try:
        on_disk = os.lstat(path)
    except OSError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (on_disk.st_dev, on_disk.st_ino)


@contextmanager
def folder_lock(folder: Path, display: str, timeout: float = 30.0) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (created if needed) for the ``with`` block.

    Waits up to ``timeout`` seconds for another run, then raises :class:`OutputError`
    ('busy: ...'). The lock file ``folder/.lock`` stays behind; the kernel releases
    the lock when the process ends, however it ends.
    """
    with _locked(folder, display, timeout, ensure_folder):
        yield


def _ensure_root(folder: Path, display: str) -> None:
    """Create the output folder (and its parents) if needed; a symlinked output folder is fine."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise error("cannot create the output folder", display, exc) from None


@contextmanager
def run_lock(
    out_dir: Path, display: str, timeout: float = 30.0, on_wait: Callable[[float], None] | None = None
) -> Iterator[None]:
    """Hold the lock of a whole run on the output folder ``out_dir`` (``out_dir/.lock``; the
    folder is created if needed). While a run holds it, another run waits up to ``timeout``
    seconds, then fails with 'busy'; the documents are then written with ``run_locked``.
    ``on_wait(timeout)`` is called once when the wait has lasted :data:`WAIT_NOTICE` seconds (a
    run that seems to hang says why)."""
    with _locked(out_dir, display, timeout, _ensure_root, on_wait):
        yield


WAIT_NOTICE = 1.0
"""Seconds a run waits for another run's lock before it says so (``on_wait``)."""


@contextmanager
def _locked(
    folder: Path,
    display: str,
    timeout: float,
    ensure: Callable[[Path, str], None],
    on_wait: Callable[[float], None] | None = None,
) -> Iterator[None]:
    lock_path = folder / LOCK_NAME
    started = time.monotonic()
    deadline = started + max(0.0, timeout)
    pause = 0.01
    while True:
        ensure(folder, display)
        fd = _open_lock(lock_path, display)
        try:
            locked = _try_flock(fd, display)
        except BaseException:
            os.close(fd)
            raise
        if locked and _same_file(fd, lock_path):
            break
        os.close(fd)  # closing also drops a lock taken on a lock file that was removed meanwhile
        if not locked and time.monotonic() >= deadline:
            raise OutputError(
                f"busy: another chunker run holds {display}/{LOCK_NAME}; waited {timeout:g} s "
                "(try again when it has finished)",
                path=display,
            )
        if not locked and on_wait is not None and time.monotonic() - started >= WAIT_NOTICE:
            on_wait(timeout)
            on_wait = None
        time.sleep(pause)
        pause = min(pause * 2, 0.2)
    try:
        yield
    finally:
        with suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
