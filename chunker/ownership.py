"""Which files in a folder are ours: a manifest of the files the tool wrote, with their sha256.

A file may be overwritten or removed only when the manifest records it and its bytes still have a
recorded hash (the tool wrote it and nobody edited it since), or when its bytes are exactly what
would be written (overwriting changes nothing). Anything else is someone else's file: it is left
alone and reported.

A manifest may record several hashes for one file: before a batch of writes the new hashes are
added next to the old ones (and written), so a kill part-way leaves every file provably ours,
whether it already holds the new bytes or still the old ones.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Ownership = Literal["absent", "ours", "same", "foreign"]
"""``absent``: nothing there; ``ours``: recorded and unedited; ``same``: holds exactly the new
bytes; ``foreign``: anything else (another file, an edited one, a symlink, a folder)."""

_CHUNK = 1 << 20


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str | None:
    """The sha256 of a regular file (not followed through a symlink); None if there is none."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while block := fh.read(_CHUNK):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def exists(path: Path) -> bool:
    """Anything at ``path``, a dangling symlink included."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


@dataclass(slots=True)
class Files:
    """Relative path (``/``-separated) -> the hashes its bytes may have while it is ours."""

    hashes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def owns(self, key: str, digest: str | None) -> bool:
        return digest is not None and digest in self.hashes.get(key, ())

    def classify(self, root: Path, key: str, new_digest: str | None = None) -> Ownership:
        path = root / key
        if not exists(path):
            return "absent"
        digest = sha256_file(path)
        if self.owns(key, digest):
            return "ours"
        if digest is not None and digest == new_digest:
            return "same"
        return "foreign"

    def expect(self, key: str, digest: str) -> None:
        """Also accept ``digest`` for ``key`` (before writing it)."""
        known = self.hashes.get(key, ())
        if digest not in known:
            self.hashes[key] = (*known, digest)

    def settle(self, key: str, digest: str) -> None:
        """``key`` now holds ``digest`` (after writing it)."""
        self.hashes[key] = (digest,)

    def forget(self, key: str) -> None:
        self.hashes.pop(key, None)

    def to_json(self) -> dict[str, list[str]]:
        return {key: list(values) for key, values in sorted(self.hashes.items())}

    @classmethod
    def from_json(cls, data: object, valid: Iterable[str] | None = None) -> Files:
        """Read the ``files`` mapping of a manifest, dropping entries that are not a relative
        path with string hashes (a hand-edited manifest never names a path outside its folder)."""
        hashes: dict[str, tuple[str, ...]] = {}
        if isinstance(data, Mapping):
            allowed = set(valid) if valid is not None else None
            for key, values in data.items():
                if not isinstance(key, str) or not _relative(key) or (allowed is not None and key not in allowed):
                    continue
                if isinstance(values, str):
                    values = [values]
                if isinstance(values, list) and all(isinstance(v, str) for v in values):
                    hashes[key] = tuple(values)
        return cls(hashes)


def _relative(key: str) -> bool:
    parts = key.split("/")
    return bool(key) and not key.startswith("/") and "\\" not in key and all(p not in ("", ".", "..") for p in parts)
