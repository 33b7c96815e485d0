"""Console streams that cannot fail a command: what happens when stdout or stderr cannot be written.

- stdout closed by its reader (``chunker | head -1``: EPIPE): the rest of the output is dropped
  and the exit code is the command's own, as with common Unix tools that stop quietly.
- stdout not writable (``>/dev/full``, ``>&-``): the rest is dropped, the command finishes, and it
  exits 4 (output could not be written) with a message on stderr.
- stderr not writable: messages are dropped; the exit code still says what happened.

A standard descriptor that is closed at start is opened on ``/dev/null``, so that no file the
command opens later (a temporary artifact) can become descriptor 1 or 2 and receive console text.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from chunker.errors import EXIT_OUTPUT


class GuardedStream:
    """A text stream that records the first write failure of ``stream`` instead of raising it,
    and drops everything written after it."""

    def __init__(self, stream: TextIO | None, name: str) -> None:
        self._stream = stream
        self.name = name
        self.error: OSError | None = None

    def write(self, text: str) -> int:
        if self.error is None:
            try:
                if self._stream is None:
                    raise OSError(errno.EBADF, "Bad file descriptor (the stream is closed)")
                self._stream.write(text)
            except OSError as exc:
                self._fail(exc)
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.error is None and self._stream is not None:
            try:
                self._stream.flush()
            except OSError as exc:
                self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        self.error = exc
        _silence(self._stream)

    @property
    def broken_pipe(self) -> bool:
        return self.error is not None and self.error.errno in (errno.EPIPE, errno.ECONNRESET)

    def isatty(self) -> bool:
        if self._stream is None or self.error is not None:
            return False
        try:
            return self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "the stream is closed")
        return self._stream.fileno()

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _silence(stream: TextIO | None) -> None:
    """Point the failed stream's descriptor at /dev/null: the interpreter's last flush of what is
    still buffered must not fail again at exit (it would print a traceback-like message)."""
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)


def reserve_standard_descriptors() -> None:
    """Open /dev/null on descriptors 0-2 that are closed (``>&-``), so later files never take them."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)


@dataclass(slots=True)
class Streams:
    out: GuardedStream
    err: GuardedStream

    def exit_code(self, code: int) -> int:
        """The command's exit code, made 4 when stdout could not be written (a closed pipe is not
        an error: its reader simply stopped)."""
        self.out.flush()
        self.err.flush()
        if self.out.error is None or self.out.broken_pipe:
            return code
        reason = self.out.error.strerror or str(self.out.error)
        self.err.write(f"error: cannot write to stdout: {reason}\n")
        self.err.flush()
        return max(code, EXIT_OUTPUT)


@contextlib.contextmanager
def guarded() -> Iterator[Streams]:
    """Replace sys.stdout and sys.stderr by guarded streams for the duration of a command."""
    reserve_standard_descriptors()
    saved = sys.stdout, sys.stderr
    streams = Streams(GuardedStream(sys.stdout, "stdout"), GuardedStream(sys.stderr, "stderr"))
    sys.stdout, sys.stderr = streams.out, streams.err
    try:
        yield streams
    finally:
        sys.stdout, sys.stderr = saved
