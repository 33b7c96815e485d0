"""Which files of the ``sources/`` tree are sources: the ``include`` and ``exclude`` globs."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass


def _match_parts(pattern: Sequence[str], parts: Sequence[str]) -> bool:
    """Glob parts against path parts: ``*``/``?``/``[]`` within one part, ``**`` any number of parts. The
    pattern's positions are followed together, a path part at a time (at most one test per part and pattern
    part): tried one way after another, ``**/`` x 8 against a path 30 folders deep took minutes."""
    at = _past_any(pattern, {0})
    for part in parts:
        step: set[int] = set()
        for k in at:
            if k == len(pattern):
                continue
            if pattern[k] == "**":
                step.add(k)
            elif fnmatch.fnmatchcase(part, pattern[k]):
                step.add(k + 1)
        if not step:
            return False
        at = _past_any(pattern, step)
    return len(pattern) in at


def _past_any(pattern: Sequence[str], at: set[int]) -> set[int]:
    """``at`` with the positions after each ``**`` it holds (a ``**`` may match no part)."""
    todo = list(at)
    while todo:
        k = todo.pop()
        if k < len(pattern) and pattern[k] == "**" and k + 1 not in at:
            at.add(k + 1)
            todo.append(k + 1)
    return at


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
