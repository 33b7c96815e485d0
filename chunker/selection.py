"""Which files of the ``sources/`` tree are sources: the ``include`` and ``exclude`` globs."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass


def _match_parts(pattern: Sequence[str], parts: Sequence[str]) -> bool:
    """Glob parts against path parts: ``*``/``?``/``[]`` within one part, ``**`` any number of parts."""
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match_parts(rest, parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match_parts(rest, parts[1:])


def rooted(pattern: str) -> str:
    """``pattern`` as :func:`glob_matches` reads it: blanks and a trailing ``/`` gone, a leading ``./``
    (the sources folder, as a path is written from it) made the ``/`` that also roots a glob."""
    pattern = pattern.strip().rstrip("/")
    while pattern.startswith("./"):
        pattern = "/" + pattern[2:].lstrip("/")
    return pattern


def glob_matches(pattern: str, rel: str) -> bool:
    """Whether ``pattern`` matches the path ``rel`` (relative to ``sources/``, ``/``-separated).
    A pattern without ``/`` matches a file or folder name at any depth (``node_modules``,
    ``*.draft.md``); one with ``/`` matches from the top (``blog/_drafts``, ``docs/**/old-*``), and so
    does one written from the sources folder (``./blog/_drafts``, ``/blog/_drafts``); a trailing ``/`` is
    ignored."""
    pattern = rooted(pattern)
    parts = rel.split("/")
    if "/" not in pattern:
        return fnmatch.fnmatchcase(parts[-1], pattern)
    return _match_parts(pattern.lstrip("/").split("/"), parts)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which files of the tree are sources: ``include`` (empty = every file of a source type) and
    ``exclude`` globs (see :func:`glob_matches`), from the config."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def excluded(self, rel: str) -> str | None:
        return next((p for p in self.exclude if glob_matches(p, rel)), None)

    def included(self, rel: str) -> bool:
        return not self.include or any(glob_matches(p, rel) for p in self.include)
