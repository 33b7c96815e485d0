"""Documents a run finds and does not chunk: ``strategy: off``, and drafts (``skip_drafts``).

Neither has chunks. Chunks of an earlier run are stale (a vector store fed from them would keep
them): a run removes their folder and counts the chunks removed; ``--check`` reports them stale.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunker.config import ChunkerConfig
from chunker.errors import EXIT_OK, EXIT_VALIDATION
from chunker.models import Diagnostic
from chunker.orphans import out_dir_of, remove_document_folder
from chunker.sources import SourceFile
from chunker.summary import DocOutcome, Status, output_display
from chunker.unpublished import DRAFT_CODE, draft_named, draft_note, draft_reason

if TYPE_CHECKING:
    from chunker.reader import SourceText

__all__ = ["DRAFT_CODE", "decoded", "draft_of", "left_out_draft", "not_chunked", "not_to_chunk", "switched_off"]


def switched_off(source: SourceFile, folder: Path, check: bool, previous: dict[str, Any] | None) -> DocOutcome:
    """``strategy: off``: the document has no chunks; those of an earlier run are removed (stale under ``check``)."""
    return _without_chunks(source, folder, check, previous, "off")


def left_out_draft(
    source: SourceFile, folder: Path, check: bool, previous: dict[str, Any] | None, reason: str
) -> DocOutcome:
    """A page its frontmatter marks a draft (``reason``: ``draft: true``): no chunks, as with ``off``."""
    return _without_chunks(source, folder, check, previous, "draft", (draft_note(reason),))


def draft_of(doc: DocOutcome) -> str:
    """What left a ``draft`` outcome out (``draft: true in its frontmatter``), or empty."""
    named = draft_named(doc.diagnostics)
    return f"{named} in its frontmatter" if named else ""


def _without_chunks(
    source: SourceFile,
    folder: Path,
    check: bool,
    previous: dict[str, Any] | None,
    status: Status,
    notes: tuple[Diagnostic, ...] = (),
) -> DocOutcome:
    if previous is None:
        return DocOutcome(source.stem, source.display, status, EXIT_OK, diagnostics=notes)
    if check:
        return DocOutcome(source.stem, source.display, "stale", EXIT_VALIDATION, diagnostics=notes)
    remove_document_folder(folder, out_dir_of(folder, source.stem))
    count = previous.get("total_chunks")
    removed = count if isinstance(count, int) and not isinstance(count, bool) else 0
    delta = {"added": 0, "removed": removed, "unchanged": 0}
    return DocOutcome(source.stem, source.display, status, EXIT_OK, diagnostics=notes, delta=delta)


def not_chunked(source: SourceFile, folder: Path) -> DocOutcome:
    """``--check`` of a document without a readable ``meta.json``: never chunked, or its artifacts lost."""
    shown = output_display(folder)
    why = f"its artifacts in {shown} are missing or unreadable" if os.path.isdir(folder) else f"no {shown} yet"
    message = f"{source.display}: stale: not chunked ({why})"
    return DocOutcome(source.stem, source.display, "stale", EXIT_VALIDATION, message=message)


def decoded(
    source: SourceFile, raw: bytes, cfg: ChunkerConfig, raw_sha256: str | None, never: bool
) -> SourceText | None:
    """The source decoded; None when it cannot be and ``never`` (``--check`` of a document never
    chunked: it is stale whatever its bytes are, as it was before drafts were looked for)."""
    from chunker.reader import decode_source

    try:
        return decode_source(raw, source.display, cfg.max_file_bytes, raw_sha256)
    except Exception:
        if never:
            return None
        raise


def not_to_chunk(
    source: SourceFile,
    data: SourceText,
    cfg: ChunkerConfig,
    folder: Path,
    check: bool,
    previous: dict[str, Any] | None,
    never: bool,
) -> DocOutcome | None:
    """The outcome of a draft (``skip_drafts``), or with ``never`` of a document never chunked; None
    for a document to chunk."""
    draft = draft_reason(data.text, cfg) if cfg.strategy != "off" else None
    if draft is not None:
        return left_out_draft(source, folder, check, previous, draft)
    return not_chunked(source, folder) if never else None
