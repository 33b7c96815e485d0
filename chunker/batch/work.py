"""The map step of a batch run: read the bytes of a group of documents, re-hash or chunk them,
write their chunk file, and return their manifest rows. Runs in a worker process (local pool or
Ray); everything it needs travels in the :class:`Group`."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker import __version__
from chunker.batch.listing import Listed
from chunker.batch.plan import Task
from chunker.batch.store import write_chunk_part
from chunker.config import ChunkerConfig
from chunker.core import DocumentOutcome, chunk_source
from chunker.errors import EXIT_SOURCE, ChunkerError, SourceError

__all__ = ["NOT_CHUNKED", "Group", "carried", "run_group"]

NOT_CHUNKED = ("failed", "off", "draft")
"""Statuses of manifest rows without chunks, which a carried row keeps."""


@dataclass(frozen=True, slots=True)
class Group:
    """Documents one task handles; their chunks go into one file."""

    tasks: tuple[Task, ...]
    configs: Mapping[str, ChunkerConfig]
    """Effective options of each of its documents, by document id."""
    src_fs: Any
    src_root: str
    src_local: bool
    out_fs: Any
    out_root: str
    fmt: str


def carried(row: Mapping[str, Any], item: Listed | None = None) -> dict[str, Any]:
    """A previous manifest row for a document that was not re-chunked: its status becomes
    ``unchanged`` (a failure, ``off`` or ``draft`` stays what it was); a re-hashed file gets its new size/time."""
    out = dict(row)
    if out.get("status") not in NOT_CHUNKED:
        out["status"] = "unchanged"
    if item is not None:
        out.update(path=item.path, source_uri=item.display, size=item.size, mtime_ns=item.mtime_ns)
    return out


def _read(group: Group, item: Listed, max_bytes: int) -> bytes:
    from chunker.reader import _size_error

    if group.src_local:
        from chunker.sources import check_inside

        check_inside(Path(item.path), Path(group.src_root), item.display)
    if item.size > max_bytes:
        raise _size_error(item.size, max_bytes, item.display)
    try:
        with group.src_fs.open_input_stream(item.path) as fh:
            data = bytes(fh.read(max_bytes + 1))
    except OSError as exc:
        raise SourceError(f"cannot read the source file: {exc}", path=item.display) from None
    if len(data) > max_bytes:
        raise _size_error(len(data), max_bytes, item.display)
    return data


def _failed(task: Task, code: int, message: str) -> DocumentOutcome:
    return DocumentOutcome(task.item.doc_id, task.item.display, "failed", code, "", task.fingerprint, message=message)


def failed_row(task: Task, code: int, message: str) -> dict[str, Any]:
    """The manifest row of a document that failed with ``code`` and ``message``."""
    return _row(task, "", _failed(task, code, message))


def _row(task: Task, sha: str, outcome: DocumentOutcome) -> dict[str, Any]:
    import orjson

    item = task.item
    status: str = outcome.status
    chunks_json = outcome.artifacts.get("chunks.json")
    digest = hashlib.sha256(chunks_json).hexdigest() if chunks_json is not None else ""
    if status == "chunked":
        status = _chunked_status(task.previous, sha, task.fingerprint, outcome, digest)
    return {
        "doc_id": item.doc_id,
        "path": item.path,
        "source_uri": item.display,
        "source_sha256": sha,
        "size": item.size,
        "mtime_ns": item.mtime_ns,
        "fingerprint": task.fingerprint,
        "status": status,
        "exit_code": outcome.exit_code,
        "message": outcome.message,
        "diagnostics": orjson.dumps([d.to_dict() for d in outcome.diagnostics]).decode(),
        "metrics": orjson.dumps(outcome.metrics).decode(),
        "chunk_keys": [c.chunk_key for c in outcome.chunks],
        "embedding_hashes": [c.embedding_hash for c in outcome.chunks],
        "chunks_sha256": digest,
        "files": [],
        "chunker_version": __version__,
    }


def _chunked_status(
    previous: Mapping[str, Any] | None, sha: str, fingerprint: str, outcome: DocumentOutcome, digest: str
) -> str:
    """``new`` (no previous row), ``rebuilt`` (chunked again into the very chunks it had: the same
    source into the same chunks.json bytes, ``digest`` its sha256, e.g. for another ``--format`` or after
    a change of the chunker's code that left them as they were; a store has nothing to update) or
    ``changed``, as the main command says. A row of a manifest written before 2026-12-03 has no
    ``chunks_sha256``: the same options fingerprint, chunk keys and embedding hashes then stand for it."""
    if previous is None:
        return "new"
    if previous.get("chunks_sha256"):
        same_chunks = previous.get("status") not in NOT_CHUNKED and previous.get("source_sha256") == sha
        return "rebuilt" if same_chunks and previous["chunks_sha256"] == digest else "changed"
    same = (
        previous.get("status") not in NOT_CHUNKED
        and previous.get("source_sha256") == sha
        and previous.get("fingerprint") == fingerprint
        and list(previous.get("chunk_keys") or ()) == [c.chunk_key for c in outcome.chunks]
        and list(previous.get("embedding_hashes") or ()) == [c.embedding_hash for c in outcome.chunks]
    )
    return "rebuilt" if same else "changed"


def _chunk_rows(task: Task, outcome: DocumentOutcome, fmt: str) -> list[dict[str, Any]]:
    item, result = task.item, outcome.result
    assert result is not None
    chunks = tuple(c.to_dict() for c in result.chunks)
    if fmt == "jsonl":
        from chunker.export_render import ChunkedDocument, jsonl_record

        meta = {
            "source_path": item.display,
            "parent_hash": result.source_sha256,
            "document_metadata": result.document_metadata,
        }
        doc = ChunkedDocument(item.doc_id, chunks, meta)
        return [jsonl_record(doc, c) for c in chunks]
    extra = {
        "doc_id": item.doc_id,
        "source_uri": item.display,
        "parent_hash": result.source_sha256,
        "fingerprint": task.fingerprint,
        "chunker_version": __version__,
    }
    return [{**c, **extra} for c in chunks]


def run_group(group: Group) -> list[dict[str, Any]]:
    """Manifest rows of the group's documents (in task order); writes their chunk file."""
    rows: list[dict[str, Any]] = []
    chunk_rows: list[dict[str, Any]] = []
    with_chunks: list[dict[str, Any]] = []
    key: list[str] = []
    for task in group.tasks:
        cfg = group.configs[task.item.doc_id]
        try:
            raw = _read(group, task.item, cfg.max_file_bytes)
        except ChunkerError as exc:
            rows.append(_row(task, "", _failed(task, exc.exit_code, str(exc))))
            continue
        except Exception as exc:  # e.g. a file system that raises its own errors: a failed row, never a failed job
            message = f"{task.item.display}: cannot read the source file: {type(exc).__name__}: {exc}"
            rows.append(_row(task, "", _failed(task, EXIT_SOURCE, message)))
            continue
        sha = hashlib.sha256(raw).hexdigest()
        previous = task.previous
        if task.action == "check" and previous is not None and previous.get("source_sha256") == sha:
            rows.append(carried(previous, task.item))
            continue
        outcome = chunk_source(raw, doc_id=task.item.doc_id, source_path=task.item.display, config=cfg)
        row = _row(task, sha, outcome)
        rows.append(row)
        if outcome.chunks:
            chunk_rows.extend(_chunk_rows(task, outcome, group.fmt))
            with_chunks.append(row)
            key.append(f"{task.item.doc_id}\0{task.item.display}\0{sha}\0{task.fingerprint}")
    if chunk_rows:
        name = write_chunk_part(group.out_fs, group.out_root, chunk_rows, group.fmt, "\n".join([group.fmt, *key]))
        for row in with_chunks:
            row["files"] = [name]
    return rows
