"""Paths as messages show them: relative to the working directory where possible, and as text that
every writer takes and every terminal shows as it is (no surrogates, no control characters)."""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["Displays", "display_path", "shown_path"]

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters of a file name that a terminal or a log would act on rather than show: C0 and C1
controls (``ESC [2J`` clears the screen, ``ESC ]0;`` retitles the window, a newline forges a line of
its own) and the bidirectional overrides (U+202E shows ``gpj.md`` for ``dm.jpg``)."""


def shown_path(path: str | Path) -> str:
    """``path`` as text that every writer takes and every reader sees as it is: a byte of a file
    name that is not UTF-8 (which Python keeps as a lone surrogate, refused by JSON writers and
    terminals) is shown as ``\\xff``, a control character or bidirectional override as ``\\x1b`` or
    ``\\u202e``."""
    try:
        text = os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that no file name byte gives: from an escape
        text = str(path).encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROLS.sub(_escaped, text) if _CONTROLS.search(text) else text


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (symlinks not resolved),
    shown by :func:`shown_path`."""
    shown = _display_text(path)
    return shown_path(path if shown is None else shown)


def _display_text(path: Path | str) -> str | None:
    """What :func:`display_path` shows, before :func:`shown_path`; None when the working directory
    is gone (the path is shown as it is)."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, os.getcwd())
    except (OSError, ValueError):
        return None
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return absolute
    return rel


class Displays:
    """:func:`display_path` of many paths in few folders: each folder's once, then joined with the
    name (a name from a folder listing has no separator and is never ``.`` or ``..``, so that is
    what ``display_path`` gives; a folder below the working directory gives one below it too)."""

    def __init__(self) -> None:
        self._folders: dict[str, str | None] = {}

    def __call__(self, path: Path) -> str:
        folder, name = os.path.split(path)
        if not name or name in (".", ".."):
            return display_path(path)
        if folder not in self._folders:
            self._folders[folder] = _display_text(folder or ".")
        shown = self._folders[folder]
        if shown is None:
            return shown_path(path)
        return shown_path(name if shown == "." else os.path.join(shown, name))
