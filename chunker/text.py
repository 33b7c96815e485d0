"""Text conventions every stage shares: line breaks, line starts, the characters no writer takes."""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Sequence

__all__ = ["SURROGATE", "compute_line_starts", "line_starts", "normalise_newlines", "text_sha256", "unify_line_breaks"]

SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate: not a character. YAML's and JSON's ``"\\ud800"`` escape makes one; no
UTF-8 encoder, JSON writer or output file takes it."""

_LF = re.compile("\n")


def unify_line_breaks(text: str) -> str:
    """CRLF and lone CR become LF, as markdown-it counts lines (U+2028, NEL, FF, VT stay characters)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def normalise_newlines(text: str) -> str:
    """The text every offset and line refers to: line breaks unified, one leading BOM dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return unify_line_breaks(text)


def compute_line_starts(text: str) -> list[int]:
    """Offset of the first character of every line; lines end at ``\\n`` only, and a final newline
    does not open an empty last line."""
    starts = [0]
    starts.extend(map(re.Match.end, _LF.finditer(text)))  # no temporary list of every line
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()
    return starts


COMPACT_STARTS_FROM = 1 << 18
"""Texts longer than this keep their line starts in an array (:func:`line_starts`)."""


def line_starts(text: str) -> Sequence[int]:
    """:func:`compute_line_starts`; for a text over :data:`COMPACT_STARTS_FROM` characters an
    ``array`` of 4 bytes a line, where a list holds a 28-byte int object and an 8-byte pointer
    (a document of short lines: 4.5 times its size)."""
    if len(text) <= COMPACT_STARTS_FROM:
        return compute_line_starts(text)
    starts = array("I" if len(text) < 1 << 32 else "q", [0])  # 4 bytes a line
    starts.extend(map(re.Match.end, _LF.finditer(text)))
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()
    return starts


_HASH_SLICE = 1 << 20


def text_sha256(text: str) -> str:
    """sha256 of ``text`` in UTF-8 (surrogates passed through), encoded a slice at a time: a copy
    of the whole text in UTF-8 was the peak of a large document's run. The same digest as of the
    whole: the encoder takes one code point at a time, and surrogates are never paired."""
    digest = hashlib.sha256()
    for start in range(0, len(text), _HASH_SLICE):
        digest.update(text[start : start + _HASH_SLICE].encode("utf-8", "surrogatepass"))
    return digest.hexdigest()
