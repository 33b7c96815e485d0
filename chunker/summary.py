"""What a run did: one :class:`DocOutcome` per document, and the :class:`RunSummary` of the run.

The CLI renders a summary (``report.py``); ``chunker batch`` and ``chunker eval`` build and read
the same values.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from chunker.errors import EXIT_OK
from chunker.models import Diagnostic
from chunker.sources import LeftOut
from chunker.unpublished import draft_named

Status = Literal[
    "new", "changed", "rebuilt", "unchanged", "removed", "failed", "off", "draft", "stale", "ok", "shadowed"
]
"""``rebuilt``: chunked again (``--force``, or an option changed) into the very chunks.json it had;
``changed``: chunked again into different chunks."""


@dataclass(frozen=True, slots=True)
class DocOutcome:
    """What a run did with one document."""

    stem: str
    display: str
    status: Status
    exit_code: int
    metrics: dict[str, Any] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    message: str = ""
    """For failures: the error message (already naming file and line)."""
    delta: dict[str, int] = field(default_factory=dict)
    """Chunks added / removed / unchanged by content_hash against the previous artifacts."""
    wrote: bool = False
    """Whether artifacts were written into the document's folder (what the run syncs at its end)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "stem": self.stem,
            "source": self.display,
            "status": self.status,
            "exit_code": self.exit_code,
            "metrics": self.metrics,
            "errors": [d.to_dict() for d in self.diagnostics if d.severity == "error"],
            "warnings": [d.to_dict() for d in self.diagnostics if d.severity == "warning"],
            "message": self.message,
            "chunks_delta": self.delta,
            "draft": draft_named(self.diagnostics) or None,
        }


@dataclass(frozen=True, slots=True)
class RunSummary:
    documents: tuple[DocOutcome, ...]
    warnings: tuple[str, ...] = ()
    """Findings about the run rather than one document (e.g. an override that matches no document)."""
    left_out: tuple[LeftOut, ...] = ()
    """Files and folders of the source tree that a full run does not chunk, with their reasons."""

    @property
    def exit_code(self) -> int:
        return max((d.exit_code for d in self.documents), default=EXIT_OK)

    def left_out_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for item in self.left_out:
            counts[item.reason] = counts.get(item.reason, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for doc in self.documents:
            counts[doc.status] = counts.get(doc.status, 0) + 1
        return {
            "exit_code": self.exit_code,
            "counts": counts,
            "documents": [d.to_dict() for d in self.documents],
            "warnings": list(self.warnings),
            "left_out_counts": self.left_out_counts(),
            "left_out": [x.to_dict() for x in self.left_out],
        }


def output_display(path: Path) -> str:
    """An output path as messages show it: relative to the working directory when below it."""
    try:
        return str(path.resolve().relative_to(_real_cwd()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop (Python before 3.13)
        return str(path)


_CWD: list[tuple[str, Path]] = []


def _real_cwd() -> Path:
    """``Path.cwd().resolve()``, resolved once per working directory (a run shows a path per document)."""
    cwd = os.getcwd()
    if not _CWD or _CWD[0][0] != cwd:
        _CWD[:] = [(cwd, Path(cwd).resolve())]
    return _CWD[0][1]
