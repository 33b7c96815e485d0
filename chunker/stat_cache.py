"""The files a run verified by content, by their stat: a no-op run need not read and hash them again.

A run trusts an unchanged document only when its chunks.json has the sha256 its report.json records
(:func:`chunker.freshness.read_previous`); hashing every one is most of a no-op run's work (~95 MB
over the shared corpus), and reading and hashing every source the rest (~22 MB). As git's index
does for a work tree, the run keeps, in one file of the output folder (:data:`CACHE_NAME`), the stat
of each chunks.json whose content it hashed and found as recorded, and of each source it hashed,
with the sha256: size, mtime, ctime, inode and device. The next run trusts a file whose stat is
exactly that without reading it; any other file is read and hashed as before.

Why a stat match is enough:

- Any change to a file's content or times moves its ctime to the file system's present, which no
  program can set back (``os.utime`` restoring the mtime moves the ctime too); a file replaced by
  a rename is another inode.
- The stat is taken (``fstat`` of the open file) before its content is read and hashed, and is
  recorded only when its ctime and mtime are older than a timestamp the file system gave before
  any of them was taken (the creation of this run's cache file, :attr:`StatCache.floor`): a change
  after the stat then gives a later ctime, even on a file system whose clock ticks coarsely
  ("racy" files, changed in the tick of the stat, are hashed again by the next run).
- A chunks.json this run writes is recorded from the write, as git records a file it checks out,
  and with git's racy-index rule: its ``lstat`` right after the rename counts only when it is still
  the file written (the inode, size and mtime that ``fstat`` gave on the descriptor after the last
  write: a later write moves the mtime, a rename over it is another inode), and the entry is kept
  only when its ctime and mtime are older than a timestamp the file system gives when the run ends,
  after every such ``lstat`` (:meth:`StatCache.close` touches the cache file first): a change after
  the ``lstat`` then gives a later ctime. An entry as new as that timestamp (a file renamed in the
  clock tick the run ended in) is left out, and the next run hashes that file. What no stat can
  show is a same-size write that puts the mtime back to the nanosecond between the rename and the
  ``lstat`` (two system calls apart, under the run's lock), or in the same clock tick as the rename.
- A source the run reads to chunk it is recorded with the stat taken before the read, by the rule
  above (older than :attr:`StatCache.floor`); a source that changed in that tick is not.
- ``--jobs`` workers get the entries of their document (:meth:`StatCache.part`) and hand back what
  they recorded (:meth:`StatCache.merge`); the run's process keeps the cache and writes it.
- Where the ctime is no change time (the FAT family keeps a creation time there, so an edit that puts
  the mtime back would keep the stat), nothing is recorded or trusted: a file on such a file system
  (``/proc/self/mountinfo``, by its device) is hashed as before.
- A power loss or a kernel crash can leave a file whose stat survived and whose data did not:
  the cache records the boot it was written in (``/proc/sys/kernel/random/boot_id``) and is
  ignored after a reboot, and where there is no boot id (not Linux) it is never used.

The cache is ignored and rebuilt when it is missing, unreadable, corrupt or of another format or
version; it is written (to a temporary file, then renamed: no sync, a reboot voids it anyway) at
the end of a run that writes, under the run's lock, only when it changed. ``--check`` neither reads
nor writes it. Hidden at the top of the output folder, it is no document folder, orphan or leftover.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Any

from chunker.regular import read_regular

CACHE_NAME = ".chunker-cache.json"
TEMPORARY_NAME = CACHE_NAME + ".tmp"
"""Created at a run's start (its creation time is :attr:`StatCache.floor`), renamed at its end."""
FORMAT = 2
KINDS = ("chunks", "sources")
"""What the cache records, by document id: its chunks.json, its source file."""
_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
_MOUNTS = Path("/proc/self/mountinfo")
NO_CHANGE_TIME = frozenset({"vfat", "msdos", "umsdos", "fat", "exfat"})
"""File system types whose ctime is not the time of the last change."""

Stat = tuple[int, int, int, int, int]
"""(size, mtime_ns, ctime_ns, inode, device)."""
Entry = tuple[str, Stat]
"""(sha256 of the file, its stat when it had that content)."""
Taken = tuple["Entry | None", ...]
"""One document's entries of a worker's part of the cache, by kind, recorded then written
(:meth:`StatCache.taken`)."""
Witness = tuple[str, int, int, int]
"""A file as this process wrote it: (sha256, size, mtime_ns, inode), ``fstat`` of its descriptor
after the last write."""


def stat_key(st: os.stat_result) -> Stat:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def witness(fd: int, sha256: str) -> Witness | None:
    """The :data:`Witness` of the file open as ``fd``, written with the content of ``sha256``."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return sha256, st.st_size, st.st_mtime_ns, st.st_ino


def witnessed(path: str | os.PathLike[str], seen: Witness) -> Entry | None:
    """The entry of a file just renamed to ``path``: its ``lstat``, when that is still the file
    written (``seen``: the same inode, size and mtime, a regular file); else None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    sha256, size, mtime_ns, inode = seen
    if not stat.S_ISREG(st.st_mode) or (st.st_size, st.st_mtime_ns, st.st_ino) != (size, mtime_ns, inode):
        return None
    return sha256, stat_key(st)


def untrusted_devices() -> frozenset[int]:
    """The devices (``st_dev``) mounted with a file system of :data:`NO_CHANGE_TIME`."""
    try:
        lines = _MOUNTS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return frozenset()
    found: set[int] = set()
    for line in lines:  # "36 35 98:0 / /mnt rw - vfat /dev/sdb1 rw": the type follows " - "
        left, sep, right = line.partition(" - ")
        fields, kind = left.split(), right.split()[:1]
        if not sep or len(fields) < 3 or not kind or kind[0] not in NO_CHANGE_TIME:
            continue
        major, _, minor = fields[2].partition(":")
        if major.isdigit() and minor.isdigit():
            found.add(os.makedev(int(major), int(minor)))
    return frozenset(found)


def boot_id() -> str | None:
    """This boot's id (Linux), or None where there is none."""
    try:
        text = _BOOT_ID.read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return None
    return text or None


class StatCache:
    """The cache of one run on one output folder: the entries of the previous run, and this run's."""

    def __init__(
        self,
        out_dir: Path,
        boot: str,
        version: str,
        old: dict[str, dict[str, Entry]],
        fd: int,
        floor: int,
        untrusted: frozenset[int] | None = None,
    ) -> None:
        self.out_dir = out_dir
        self.boot = boot
        self.version = version
        self.old = old
        self.new: dict[str, dict[str, Entry]] = {kind: dict(old.get(kind, {})) for kind in KINDS}
        self.written: dict[str, dict[str, Entry]] = {kind: {} for kind in KINDS}
        """Files this run wrote, by their stat after the rename: kept at :meth:`close` when older than
        the file system's time then."""
        self._fd = fd
        self.untrusted = untrusted_devices() if untrusted is None else untrusted
        """Devices whose files are never recorded nor trusted by stat."""
        self.floor = floor
        """A time of the output file system before any stat of this run: the temporary file's creation."""

    @classmethod
    def open(cls, out_dir: Path) -> StatCache | None:
        """The cache of a run that holds the lock of ``out_dir`` (which exists); None without a boot id
        or when its temporary file cannot be created (the run then hashes every file, as without it)."""
        from chunker import __version__

        boot = boot_id()
        if boot is None:
            return None
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(out_dir / TEMPORARY_NAME, flags, 0o644)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
        except OSError:
            os.close(fd)
            return None
        old = _load(out_dir / CACHE_NAME, boot, __version__)
        return cls(out_dir, boot, __version__, old, fd, min(st.st_mtime_ns, st.st_ctime_ns))

    def known(self, kind: str, stem: str, st: os.stat_result) -> str | None:
        """The sha256 of ``stem``'s file of ``kind`` (:data:`KINDS`) when the previous run hashed it
        with exactly this stat."""
        entry = self.old.get(kind, {}).get(stem)
        if entry is None or entry[1] != stat_key(st) or st.st_dev in self.untrusted:
            return None
        return entry[0]

    def record(self, kind: str, stem: str, st: os.stat_result, sha256: str) -> None:
        """``stem``'s file of ``kind`` had the content of ``sha256`` when it had the stat ``st`` (taken
        before it was read); recorded unless it changed too recently to tell a later change by its stat."""
        self.written[kind].pop(stem, None)
        if st.st_ctime_ns < self.floor and st.st_mtime_ns < self.floor and st.st_dev not in self.untrusted:
            self.new[kind][stem] = (sha256, stat_key(st))
        else:
            self.new[kind].pop(stem, None)

    def wrote(self, kind: str, stem: str, entry: Entry | None) -> None:
        """This run renamed ``stem``'s file of ``kind`` into place: ``entry`` is its stat then, when it
        was still the file written (:func:`witnessed`), else None (the file is forgotten)."""
        self.new[kind].pop(stem, None)
        if entry is None or entry[1][4] in self.untrusted:
            self.written[kind].pop(stem, None)
        else:
            self.written[kind][stem] = entry

    def forget(self, kind: str, stem: str) -> None:
        self.new[kind].pop(stem, None)
        self.written[kind].pop(stem, None)

    def part(self, stem: str) -> StatCache:
        """The entries of one document, for a ``--jobs`` worker (no file of its own): what it
        records comes back with :meth:`merge`."""
        old = {kind: {stem: self.old[kind][stem]} if stem in self.old.get(kind, {}) else {} for kind in KINDS}
        return StatCache(self.out_dir, self.boot, self.version, old, -1, self.floor, self.untrusted)

    def taken(self, stem: str) -> Taken:
        """What this :meth:`part` of ``stem`` holds now, handed back to :meth:`merge`."""
        return tuple(entries.get(stem) for got in (self.new, self.written) for entries in got.values())

    def merge(self, stem: str, taken: Taken) -> None:
        """What a worker's :meth:`part` of ``stem`` recorded, wrote and forgot (:meth:`taken`)."""
        mine = [entries for got in (self.new, self.written) for entries in got.values()]
        for entries, entry in zip(mine, taken, strict=True):
            if entry is None:
                entries.pop(stem, None)
            else:
                entries[stem] = entry

    def keep_only(self, stems: set[str]) -> None:
        """Drop the entries of documents no longer in the sources (a run over all of them)."""
        self.new = {kind: {k: v for k, v in entries.items() if k in stems} for kind, entries in self.new.items()}
        self.written = {kind: {k: v for k, v in got.items() if k in stems} for kind, got in self.written.items()}

    def close(self, save: bool = True) -> None:
        """Write the entries (when they changed and ``save``), else remove the temporary file. The
        files this run wrote count when their stat is older than the cache file's touch here,
        after every stat of them (git's racy-index rule)."""
        import orjson

        path = self.out_dir / TEMPORARY_NAME
        try:
            if save and any(self.written.values()):
                self._add_written()
            if save and self.new != {kind: self.old.get(kind, {}) for kind in KINDS}:
                saved: dict[str, Any] = {"format": FORMAT, "version": self.version, "boot": self.boot}
                for kind, entries in self.new.items():
                    saved[kind] = {stem: [sha, *key] for stem, (sha, key) in sorted(entries.items())}
                data = orjson.dumps(saved)
                view = memoryview(data)
                while view:
                    view = view[os.write(self._fd, view) :]
                os.close(self._fd)
                self._fd = -1
                os.replace(path, self.out_dir / CACHE_NAME)
                return
        except OSError:
            pass  # a cache that cannot be written is a cache the next run does without
        finally:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
        with contextlib.suppress(OSError):
            os.unlink(path)

    def _add_written(self) -> None:
        """The entries of the files this run wrote whose ctime and mtime are older than the file
        system's time now (the cache file touched, after every ``lstat`` of them); a file changed
        later moves its ctime past that time."""
        if os.utime not in os.supports_fd:
            return
        os.utime(self._fd)
        st = os.fstat(self._fd)
        now = min(st.st_mtime_ns, st.st_ctime_ns)
        for kind, entries in self.written.items():
            for stem, entry in entries.items():
                key = entry[1]
                if key[1] < now and key[2] < now:
                    self.new[kind][stem] = entry
        self.written = {kind: {} for kind in KINDS}


def _load(path: Path, boot: str, version: str) -> dict[str, dict[str, Entry]]:
    """The entries of the cache file at ``path`` by kind; none when it is absent, unreadable,
    corrupt, of another format, version or boot."""
    import orjson

    try:
        data: Any = orjson.loads(read_regular(path))
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not (
        isinstance(data, dict)
        and data.get("format") == FORMAT
        and data.get("version") == version
        and data.get("boot") == boot
        and all(isinstance(data.get(kind), dict) for kind in KINDS)
    ):
        return {}
    found: dict[str, dict[str, Entry]] = {}
    for kind in KINDS:
        entries = found[kind] = {}
        for stem, value in data[kind].items():
            if not (
                isinstance(value, list)
                and len(value) == 6
                and isinstance(value[0], str)
                and all(type(x) is int for x in value[1:])
            ):
                return {}  # one bad entry: the whole file is suspect
            entries[stem] = (value[0], (value[1], value[2], value[3], value[4], value[5]))
    return found
