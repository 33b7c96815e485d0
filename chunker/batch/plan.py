"""The driver's plan: the listing joined with the previous manifest on ``doc_id``.

- only listed, or a different options fingerprint: ``chunk``;
- same fingerprint, but size or modification time changed (or ``verify``): ``check``, i.e. the
  worker re-hashes the bytes and chunks only when their sha256 differs from the manifest's;
- same fingerprint, size and modification time: unchanged, the manifest row is carried over;
- only in the manifest: removed (kept as it was with ``keep_orphans``).

Pure and linear in the number of documents: one dictionary look-up per listed file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from chunker.batch.listing import Listed

__all__ = ["Plan", "Task", "plan"]

Action = Literal["chunk", "check"]


@dataclass(frozen=True, slots=True)
class Task:
    """One document for the workers."""

    item: Listed
    fingerprint: str
    action: Action
    previous: Mapping[str, Any] | None = None
    """Its manifest row of the previous run, if any."""


@dataclass(frozen=True, slots=True)
class Plan:
    tasks: tuple[Task, ...]
    unchanged: tuple[Mapping[str, Any], ...]
    """Manifest rows carried over as they are (their documents are not read)."""
    removed: tuple[Mapping[str, Any], ...]
    """Manifest rows whose source is gone."""
    kept: tuple[Mapping[str, Any], ...] = ()
    """Rows whose source is gone, kept because of ``keep_orphans``."""


def plan(
    listing: Sequence[Listed],
    previous: Mapping[str, Mapping[str, Any]],
    fingerprint_of: Callable[[str], str],
    *,
    verify: bool = False,
    keep_orphans: bool = False,
    force: bool = False,
) -> Plan:
    """``previous``: manifest rows by ``doc_id``; ``fingerprint_of``: a document's options fingerprint;
    ``force``: chunk every listed document (e.g. the output format changed)."""
    tasks: list[Task] = []
    unchanged: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    for item in listing:
        seen.add(item.doc_id)
        fingerprint = fingerprint_of(item.doc_id)
        old = previous.get(item.doc_id)
        if force or old is None or old.get("status") == "removed" or old.get("fingerprint") != fingerprint:
            tasks.append(Task(item, fingerprint, "chunk", old if old and old.get("status") != "removed" else None))
        elif verify or (old.get("size"), old.get("mtime_ns"), old.get("path")) != (item.size, item.mtime_ns, item.path):
            tasks.append(Task(item, fingerprint, "check", old))
        else:
            unchanged.append(old)
    removed: list[Mapping[str, Any]] = []
    kept: list[Mapping[str, Any]] = []
    for doc_id, old in previous.items():
        if doc_id in seen or old.get("status") == "removed":
            continue
        (kept if keep_orphans else removed).append(old)
    return Plan(tuple(tasks), tuple(unchanged), tuple(removed), tuple(kept))
