"""Read one source file into text: strict UTF-8, newlines normalised (the pipeline removes the BOM).

``decode_source`` is the pure part (bytes in, :class:`SourceText` out);
``read_source`` adds the file system checks. Line numbers everywhere count
``"\\n"`` only, as markdown-it-py does: U+2028, U+2029, NEL, FF and VT are
characters of a line, not line breaks, so never count with ``str.splitlines``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from chunker.errors import SourceError
from chunker.models import Diagnostic
from chunker.text import unify_line_breaks

__all__ = ["SourceText", "decode_source", "read_source", "read_source_bytes", "read_source_stat"]

UTF8_BOM = b"\xef\xbb\xbf"

_OTHER_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 first: the UTF-32-LE mark starts with the UTF-16-LE one.
    (b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "UTF-16 (big-endian)"),
)


_MAX_LISTED_LINES = 10
"""How many NUL lines a diagnostic names before it says 'and N more'."""


@dataclass(frozen=True, slots=True)
class SourceText:
    """A decoded source document."""

    text: str
    """Decoded text; CRLF and lone CR are turned into LF, nothing else. A leading UTF-8 BOM is kept
    as U+FEFF: the pipeline's ``normalise_newlines`` removes exactly one, so a second one stays a
    character of the text and every offset refers to the same text."""
    sha256: str
    """Hex digest of the raw bytes as read (BOM and original newlines included)."""
    diagnostics: tuple[Diagnostic, ...]
    """Findings about the bytes that did not stop decoding (e.g. NUL characters)."""
    text_sha256: str | None = None
    """sha256 of the text as the pipeline reads it (:func:`chunker.text.normalise_newlines`) when the
    raw bytes are that text in UTF-8 (no BOM, no CR): :attr:`sha256`, known without hashing again."""


def _size_error(size: int, max_bytes: int, display: str) -> SourceError:
    return SourceError(
        f"the file is {size:,} bytes, more than the limit of {max_bytes:,} bytes "
        "(raise the config option max_file_bytes to accept it)",
        path=display,
    )


def _line_of_byte(data: bytes, offset: int) -> int:
    """1-based line of a byte offset, counting LF, CRLF and lone CR as one break each."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def _nul_diagnostic(text: str) -> Diagnostic | None:
    pos = text.find("\x00")
    if pos == -1:
        return None
    count = text.count("\x00")
    lines: list[int] = []
    line, counted = 1, 0
    while pos != -1 and len(lines) <= _MAX_LISTED_LINES:
        line += text.count("\n", counted, pos)
        lines.append(line)
        end = text.find("\n", pos)
        if end == -1:
            break
        counted = end
        pos = text.find("\x00", end + 1)  # the next NUL on a later line
    shown = ", ".join(str(n) for n in lines[:_MAX_LISTED_LINES])
    if len(lines) > _MAX_LISTED_LINES:
        where = f"lines {shown} and later ones"
    else:
        where = f"line {shown}" if len(lines) == 1 else f"lines {shown}"
    noun = "character" if count == 1 else "characters"
    return Diagnostic(
        severity="warning",
        code="nul-byte",
        message=f"{count} NUL (U+0000) {noun} on {where}; kept in the text, but parsers may show them as U+FFFD",
        line=lines[0],
    )


def _bomless_utf16(data: bytes) -> str | None:
    """Name the UTF-16 flavour of text without a BOM (ASCII-range text is half NUL bytes), else None."""
    sample = data[:4096]
    nuls = sample.count(0)
    if len(sample) < 8 or nuls * 10 < len(sample) * 4:
        return None
    odd = sample[1::2].count(0)
    if odd * 10 >= nuls * 9:
        return "UTF-16 (little-endian)"
    if (nuls - odd) * 10 >= nuls * 9:
        return "UTF-16 (big-endian)"
    return None


def decode_source(data: bytes, display: str, max_bytes: int, sha256: str | None = None) -> SourceText:
    """Decode raw bytes as strict UTF-8; raise :class:`SourceError` naming file and line.
    ``sha256``: the bytes' digest, when the caller has it already."""
    if len(data) > max_bytes:
        raise _size_error(len(data), max_bytes, display)
    digest = sha256 if sha256 is not None else hashlib.sha256(data).hexdigest()
    body = data  # a UTF-8 BOM stays: the pipeline removes exactly one (a second is a character)
    if not body.startswith(UTF8_BOM):
        for mark, name in _OTHER_BOMS:
            if body.startswith(mark):
                raise SourceError(
                    f"the file is encoded as {name} (it starts with that byte-order mark); re-save it as UTF-8",
                    path=display,
                    line=1,
                )
        guess = _bomless_utf16(body)
        if guess:
            raise SourceError(
                f"the file looks like {guess} without a byte-order mark (every other byte is NUL); re-save it as UTF-8",
                path=display,
                line=1,
            )
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start + (len(data) - len(body))
        bad = data[offset] if offset < len(data) else None
        what = f"invalid UTF-8 byte 0x{bad:02x}" if bad is not None else "invalid UTF-8"
        if exc.reason == "unexpected end of data":
            what += " (a multi-byte character is cut off at the end of the file)"
        raise SourceError(
            f"{what} (the file is not UTF-8; re-save it as UTF-8)",
            path=display,
            line=_line_of_byte(data, offset),
        ) from None
    # CR and NUL looked for in the bytes (a search of them is several times faster than of a text
    # that is not ASCII): in UTF-8 the bytes 0x0D and 0x00 are those characters and nothing else
    unified = unify_line_breaks(text) if b"\r" in data else text
    plain = unified is text and not data.startswith(UTF8_BOM)  # normalise_newlines leaves it as it is
    diagnostics: list[Diagnostic] = []
    nul = _nul_diagnostic(unified) if b"\x00" in data else None
    if nul is not None:
        diagnostics.append(nul)
    return SourceText(unified, digest, tuple(diagnostics), digest if plain else None)


def _open_error(exc: OSError, display: str, path: Path | None = None) -> SourceError:
    code = exc.errno
    if code == errno.ENOENT and path is not None and os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        message = (
            f"a broken symlink: it points to {target}, which does not exist; "
            "restore the target, or remove the link (or copy the file into its place)"
        )
    elif code == errno.ENOENT:
        message = "source file not found"
    elif code in (errno.EACCES, errno.EPERM):
        message = "cannot read the source file: permission denied (check its permissions)"
    elif code == errno.EISDIR:
        message = "the source is a folder, not a file"
    elif code == errno.ELOOP:
        message = "the source is a symlink loop; refused"
    elif code == errno.ENAMETOOLONG:
        message = "the source path is too long"
    elif code == errno.ENOTDIR:
        message = "source file not found (a part of its path is not a folder)"
    else:
        message = f"cannot read the source file: {exc.strerror or exc}"
    return SourceError(message, path=display)


def read_source(path: Path, display: str, max_bytes: int) -> SourceText:
    """Read and decode one source file; every failure is a :class:`SourceError` naming ``display``."""
    return decode_source(read_source_bytes(path, display, max_bytes), display, max_bytes)


def read_source_bytes(path: Path, display: str, max_bytes: int) -> bytes:
    """The bytes of one source file (a regular file of at most ``max_bytes``), undecoded."""
    return read_source_stat(path, display, max_bytes)[0]


def read_source_stat(path: Path, display: str, max_bytes: int, follow: bool = True) -> tuple[bytes, os.stat_result]:
    """:func:`read_source_bytes`, and the file's stat taken before it was read (``fstat`` of the
    file read: a change after it moves the ctime, :mod:`chunker.stat_cache`). ``follow=False``: a
    file the scan found as no symlink is opened only if it still is none (a file swapped for a
    symlink to ``/etc/passwd`` after the scan would pass the symlink check it was exempt from)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        # O_NONBLOCK: opening a FIFO must not hang; it has no effect on regular files.
        fd = os.open(path, flags)
    except OSError as exc:
        if not follow and exc.errno == errno.ELOOP and os.path.islink(path):
            raise SourceError("the source became a symlink during the run; refused (run again)", path=display) from None
        raise _open_error(exc, display, path) from None
    except ValueError:  # an embedded NUL in the path
        raise SourceError("the source path contains a NUL character", path=display) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SourceError("the source is a folder, not a file", path=display)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError("the source is not a regular file (a device, FIFO or socket); refused", path=display)
        if info.st_size > max_bytes:
            raise _size_error(info.st_size, max_bytes, display)
        chunks: list[bytes] = []
        total = 0
        while True:
            # Read one byte past the limit, so a file that grows while we read is still caught.
            piece = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not piece:
                break
            chunks.append(piece)
            total += len(piece)
            if total > max_bytes:
                raise _size_error(total, max_bytes, display)
        data = b"".join(chunks)
    except OSError as exc:
        raise _open_error(exc, display) from None
    finally:
        os.close(fd)
    return data, info
