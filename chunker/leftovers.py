"""What a killed run can leave in the output folder, and which folders are provably ours.

- Temporary files (``.chunks.json.<pid>-<n>.tmp``): the writer stages every artifact in one and
  renames it into place; a kill in between leaves it. Every run removes them (in folders no
  other run holds locked); ``--check`` reports them.
- Ownerless artifacts: a folder holding ``chunks.json`` or ``report.json`` but no ``meta.json``
  (a run killed during its first write, its source gone since). Nothing proves they are ours,
  so they are reported, never removed.
- Ownership: a folder is a document folder chunker wrote only when its ``report.json`` records
  the sha256 of its ``meta.json`` (the report is written last, after both). Only such a folder
  is ever removed as an orphan; a user's folder that merely holds a ``meta.json`` is left alone.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from chunker.regular import read_regular

TEMPORARY = re.compile(r"^\.(?:chunks|meta|report)\.json\..+\.tmp$")
"""Names of the writer's temporary files (``.<name>.<pid>-<n>.tmp``; earlier versions put random
letters in place of ``<pid>-<n>``)."""
ARTIFACTS = ("chunks.json", "report.json")
"""A folder holding one of these but no meta.json is ownerless."""


def owned(folder: Path, doc_id: str | None = None) -> bool:
    """Whether ``folder`` is a document folder chunker wrote: report.json records meta.json's sha256.

    With ``doc_id``, also whether it is the folder of that id: its meta.json records the id. A folder
    of another output root nested in this one (``--out out/chunks`` before ``--out out``) holds the
    ids of that root (``a``, not ``chunks/a``): it is chunker's, but not this root's to remove.
    """
    import orjson

    try:
        meta = read_regular(folder / "meta.json")
        report = orjson.loads(read_regular(folder / "report.json"))
    except (OSError, orjson.JSONDecodeError):
        return False
    hashes = report.get("artifacts") if isinstance(report, dict) else None
    if not (isinstance(hashes, dict) and hashes.get("meta.json") == hashlib.sha256(meta).hexdigest()):
        return False
    if doc_id is None:
        return True
    try:
        recorded = orjson.loads(meta)
    except orjson.JSONDecodeError:
        return False
    return isinstance(recorded, dict) and recorded.get("stem") == doc_id


@dataclass(slots=True)
class Leftovers:
    """Found below an output folder."""

    temporary: list[Path] = field(default_factory=list)
    ownerless: list[Path] = field(default_factory=list)
    """Folders with chunks.json or report.json but no meta.json."""


def find_leftovers(out_dir: Path) -> Leftovers:
    """Temporary files and ownerless artifacts below ``out_dir`` (hidden folders, symlinks and the
    export/eval folders at the top are not searched; at most MAX_DEPTH levels)."""
    from chunker.output_tree import walk_output

    walked = walk_output(out_dir)
    return Leftovers(walked.temporary, walked.ownerless)


def remove_temporary(paths: list[Path]) -> list[Path]:
    """Remove the temporary files whose folder no other run holds locked; the removed ones."""
    removed: list[Path] = []
    by_folder: dict[Path, list[Path]] = {}
    for path in paths:
        by_folder.setdefault(path.parent, []).append(path)
    for folder, files in sorted(by_folder.items()):
        with _try_lock(folder) as locked:
            if not locked:
                continue  # a run is writing there: its files are not left over
            for path in files:
                with contextlib.suppress(FileNotFoundError):
                    try:
                        path.unlink()
                    except OSError:
                        continue
                    removed.append(path)
    return removed


@contextlib.contextmanager
def _try_lock(folder: Path) -> Iterator[bool]:
    """The folder's lock if free at once (yields True), else yields False; never creates the folder."""
    from chunker.writer import LOCK_NAME

    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
