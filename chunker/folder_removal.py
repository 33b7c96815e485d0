"""Removing a document's output folder: only what chunker writes (artifacts, its lock, temporary
files), under the folder's lock; a folder holding anything else is left as it is and named."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from chunker.errors import OutputError
from chunker.folder_locks import LOCK_NAME, folder_lock
from chunker.folder_locks import error as _error
from chunker.writer import ARTIFACT_NAMES, TMP_SUFFIX, unlink_quietly

__all__ = ["remove_folder"]


def _ours(name: str, artifact_names: set[str]) -> bool:
    return name in artifact_names or name == LOCK_NAME or name.endswith(TMP_SUFFIX)


def _existing_folder(folder: Path, where: str) -> bool:
    """Whether ``folder`` exists (a symlink or a file in its place is refused)."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _error("cannot remove the output folder", where, exc) from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputError("the output folder is a symlink; refused to remove it", path=where)
    if not stat.S_ISDIR(info.st_mode):
        raise OutputError("the output path is not a folder; refused to remove it", path=where)
    return True


def _refuse_foreign(entries: list[os.DirEntry[str]], ours: set[str], keep_subfolders: bool, where: str) -> None:
    """:class:`OutputError` naming what in the folder chunker did not write (subfolders too, unless kept)."""
    foreign = sorted(
        e.name + ("/" if e.is_dir(follow_symlinks=False) else "")
        for e in entries
        if (e.is_dir(follow_symlinks=False) and not keep_subfolders)
        or not (e.is_dir(follow_symlinks=False) or _ours(e.name, ours))
    )
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise OutputError(f"refusing to remove the folder: it holds {shown}, which chunker did not write", path=where)


def remove_folder(
    folder: Path,
    display: str | None = None,
    *,
    artifact_names: Iterable[str] = ARTIFACT_NAMES,
    timeout: float = 30.0,
    keep_subfolders: bool = False,
    keep_others: bool = False,
) -> None:
    """Remove an orphaned document folder that holds only what chunker writes.

    Deletes the artifacts, the lock file and temporary files, then the folder.
    A folder holding anything else (a subfolder or a foreign file) is left
    untouched and :class:`OutputError` names what is in the way; a symlink in
    place of the folder is refused. A missing folder is fine. With
    ``keep_subfolders`` subfolders (the folders of documents whose id lies below
    this one's) are not in the way: the artifacts go, the folder stays for them. With
    ``keep_others`` nothing is in the way: only what chunker writes goes (a document's artifacts in
    a folder ``chunker view`` writes its pages into), and the folder when nothing else is left.
    """
    where = display or str(folder)
    if not _existing_folder(folder, where):
        return
    ours = set(artifact_names)
    with folder_lock(folder, where, timeout):
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            raise _error("cannot list the output folder", where, exc) from None
        if not keep_others:
            _refuse_foreign(entries, ours, keep_subfolders, where)
        for entry in entries:
            mine = _ours(entry.name, ours) or not keep_others
            if mine and entry.name != LOCK_NAME and not entry.is_dir(follow_symlinks=False):
                try:
                    os.unlink(entry.path)
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise _error(f"cannot remove {entry.name}", where, exc) from None
        # Unlink the lock while holding it: a run waiting on it re-checks and starts over.
        unlink_quietly(folder / LOCK_NAME)
    try:
        os.rmdir(folder)
    except FileNotFoundError:
        pass
    except OSError as exc:
        if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise _error("cannot remove the output folder", where, exc) from None
        # Another run started writing into it meanwhile: leave it to that run.
