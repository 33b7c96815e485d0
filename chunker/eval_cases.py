"""Case files of ``chunker eval``: JSONL, read line by line, within limits.

The file is streamed: one line is in memory at a time besides the cases already read, so memory
follows the cases kept, never the raw file. Limits, each refused with exit 2 naming the file
(and the line): :data:`MAX_CASE_FILE_BYTES` for the file, :data:`MAX_CASE_LINE_BYTES` per line,
:data:`MAX_CASES` cases. A byte that is not UTF-8 is named by line and column.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from chunker.errors import UsageError, shown
from chunker.text import SURROGATE

MAX_CASE_FILE_BYTES = 256 * 2**20
"""Largest case file read (256 MiB: several hundred thousand cases of typical size)."""
MAX_CASE_LINE_BYTES = 2**20
"""Longest case line (1 MiB)."""
MAX_CASES = 200_000
"""Most cases in one file."""

_CASE_FIELDS = ("id", "doc", "query", "expected_doc_section", "expected_text_contains")


@dataclass(frozen=True, slots=True)
class Case:
    """One line of a case file."""

    id: str
    doc: str
    """Stem of the document the answer is in."""
    query: str
    expected_doc_section: str
    """The ``section`` field of the chunks that answer the query."""
    expected_text_contains: str
    """A string that a chunk holding the answer contains."""
    line: int = 0
    """1-based line in the case file (0 when built in code)."""
    path: str | None = None
    """Optional source path of the document, relative to a corpus root (used by ``bench/``)."""


def _open(path: Path, where: str) -> IO[bytes]:
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the caller's with-block
    except FileNotFoundError:
        raise UsageError("case file not found; give a JSONL file with --cases", path=where) from None
    except OSError as exc:
        raise UsageError(f"cannot read case file: {exc.strerror or exc}", path=where) from None
    try:
        info = os.fstat(fh.fileno())
    except OSError as exc:
        fh.close()
        raise UsageError(f"cannot read case file: {exc.strerror or exc}", path=where) from None
    if stat.S_ISREG(info.st_mode) and info.st_size > MAX_CASE_FILE_BYTES:
        fh.close()
        raise UsageError(
            f"case file is {info.st_size:,} bytes, more than the {MAX_CASE_FILE_BYTES:,} a case file may hold; "
            "split it into several files",
            path=where,
        )
    return fh


def _decode(raw: bytes, where: str, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
        raise UsageError(
            f"invalid UTF-8 byte 0x{raw[exc.start]:02x} at column {column} (the case file must be UTF-8)",
            path=where,
            line=number,
        ) from None


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of every line of a UTF-8 file, streamed. Lines end at ``\\n``,
    ``\\r\\n`` or a lone ``\\r`` (as universal newlines); a BOM at the start is dropped."""
    where = str(path)
    number = 0
    read = 0
    with _open(path, where) as fh:
        while True:
            try:
                raw = fh.readline(MAX_CASE_LINE_BYTES + 2)
            except OSError as exc:
                raise UsageError(f"cannot read case file: {exc.strerror or exc}", path=where) from None
            if not raw:
                return
            read += len(raw)
            if read > MAX_CASE_FILE_BYTES:  # a file that grows, or a device: the same limit
                raise UsageError(f"case file holds more than {MAX_CASE_FILE_BYTES:,} bytes; split it", path=where)
            if number == 0 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
            body = raw[:-1] if raw.endswith(b"\n") else raw
            body = body[:-1] if body.endswith(b"\r") else body
            if len(body) > MAX_CASE_LINE_BYTES:
                raise UsageError(
                    f"line is longer than {MAX_CASE_LINE_BYTES:,} bytes; a case is one short JSON object",
                    path=where,
                    line=number + 1,
                )
            for piece in body.split(b"\r"):  # a lone CR ends a line too
                number += 1
                yield number, _decode(piece, where, number)


def load_cases(path: Path) -> list[Case]:
    """Read a JSONL case file; a bad line raises :class:`UsageError` naming ``file:line``.

    Blank lines are skipped; unknown fields are ignored; ids must be unique; at most
    :data:`MAX_CASES` cases. Only ``\\n`` (or CR) ends a line: U+2028, U+0085 or a form feed,
    which JSON allows raw inside a string, do not.
    """
    where = str(path)
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for number, text in iter_lines(path):
        if not text.strip():
            continue
        case = _parse_case(text, where, number)
        if case.id in seen:
            raise UsageError(f"duplicate case id {case.id!r} (first on line {seen[case.id]})", path=where, line=number)
        if len(cases) >= MAX_CASES:
            raise UsageError(f"case file holds more than {MAX_CASES:,} cases; split it", path=where, line=number)
        seen[case.id] = number
        cases.append(case)
    if not cases:
        raise UsageError("case file holds no cases; write one JSON object per line", path=where)
    return cases


def _parse_case(raw: str, where: str, number: int) -> Case:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UsageError(f"invalid JSON: {exc.msg} (column {exc.colno})", path=where, line=number) from None
    except RecursionError:
        raise UsageError("invalid JSON: nested too deeply", path=where, line=number) from None
    except ValueError:  # an integer past Python's limit for int() (4300 digits)
        limit = sys.get_int_max_str_digits()
        raise UsageError(f"invalid JSON: a number of more than {limit} digits", path=where, line=number) from None
    if not isinstance(data, dict):
        raise UsageError(f"each line must be a JSON object, got {type(data).__name__}", path=where, line=number)
    values: dict[str, str] = {}
    for name in _CASE_FIELDS:
        if name not in data:
            raise UsageError(
                f"missing field '{name}' (a case needs {', '.join(_CASE_FIELDS)})", path=where, line=number
            )
        value = data[name]
        if isinstance(value, int) and not isinstance(value, bool) and name == "id":
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            raise UsageError(f"field '{name}' must be a non-empty string, got {shown(value)}", path=where, line=number)
        values[name] = value
    extra_path = data.get("path")
    if extra_path is not None and not isinstance(extra_path, str):
        raise UsageError(f"field 'path' must be a string, got {shown(extra_path)}", path=where, line=number)
    for name, value in (*values.items(), ("path", extra_path or "")):
        found = SURROGATE.search(value)
        if found is not None:
            raise UsageError(
                f"field '{name}' holds the escape \\u{ord(found.group()):04x}, a lone UTF-16 surrogate, "
                "which is not a character",
                path=where,
                line=number,
            )
    return Case(line=number, path=extra_path, **values)
