"""Reading the files chunker wrote (artifacts, the stat cache, the export manifest) safely.

Such a file is always a regular file chunker renamed into place. Anything else in its place (a FIFO,
a device, a symlink to ``/dev/zero``, put there by hand or by another tool) must not hang the run on
``open()`` or fill the memory on ``read()``: :func:`read_regular` refuses it with an ``OSError``, which
every reader already takes as "absent or unreadable" (the document is chunked again and the file
replaced by a regular one).
"""

from __future__ import annotations

import errno
import os
import stat

__all__ = ["read_regular", "read_regular_stat"]

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """:func:`read_regular_stat` without the stat."""
    return read_regular_stat(path)[0]


def read_regular_stat(path: str | os.PathLike[str]) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (through symlinks). ``OSError`` when it cannot be
    read or is not a regular file: opened without blocking (a FIFO with no writer would hang ``open``),
    and checked with ``fstat`` before anything is read; with that stat (a change after it moves the ctime)."""
    fd = os.open(path, _FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
        parts: list[bytes] = []
        size = max(info.st_size, 0)
        want = size + 1  # one byte more: a file that grew since fstat is read on
        while True:
            piece = os.read(fd, max(want, 1 << 16))
            if not piece:
                break
            parts.append(piece)
            want = 1 << 20
        return b"".join(parts), info
    finally:
        os.close(fd)
