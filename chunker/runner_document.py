"""One document of a run: is it fresh, chunk it, check it against its artifacts (``--check``), write it.

:func:`process_document` is what :func:`chunker.runner.run` (and each ``--jobs`` worker,
:mod:`chunker.runner_workers`) does with one source; it never raises for a bad document: its outcome
says what happened. ``freshness.py`` judges unchanged documents, ``runner_streamed.py`` writes a
streamable document a section at a time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunker.config import ChunkerConfig
from chunker.core import (
    DocumentOutcome,
    Part,
    chunk_decoded,
    chunks_parts,
    describe_failure,
    fingerprint_of,
    other_artifacts,
    released_parts,
)
from chunker.errors import (
    EXIT_VALIDATION,
)
from chunker.freshness import (
    Previous,
    changed_others,
    known_source,
    previous_hashes,
    read_previous,
    read_source,
    source_sha256,
    unchanged,
)
from chunker.gcpause import collector_paused
from chunker.models import Chunk, ChunkingResult, Diagnostic
from chunker.output_tree import (
    case_collisions,
    check_output_parents,
    collision_message,
)
from chunker.runner_skipped import decoded, not_chunked, not_to_chunk, switched_off
from chunker.sources import SourceFile, check_inside
from chunker.summary import DocOutcome, Status, output_display
from chunker.writer import Durability

if TYPE_CHECKING:
    from chunker.stat_cache import StatCache
    from chunker.writer_batch import SyncBatch
    from chunker.writer_stream import Finish, Record


def _delta(previous: Previous, new_hashes: set[str], same: bool) -> dict[str, int]:
    """Chunks added / removed / unchanged by content_hash (``new_hashes``: the new chunks') against
    the previous chunks.json; ``same``: that file holds exactly the new chunks.json. The file is the
    one read for its hash; it is parsed only when it differs."""
    if same:
        return {"added": 0, "removed": 0, "unchanged": len(new_hashes)}
    old_hashes = previous_hashes(previous)
    return {
        "added": len(new_hashes - old_hashes),
        "removed": len(old_hashes - new_hashes),
        "unchanged": len(new_hashes & old_hashes),
    }


@collector_paused
def process_document(
    source: SourceFile,
    cfg: ChunkerConfig,
    sources_dir: Path,
    out_dir: Path,
    force: bool,
    check: bool = False,
    collisions: Sequence[str] | None = None,
    durability: Durability | None = None,
    real_sources: Path | None = None,
    batch: SyncBatch | None = None,
    cache: StatCache | None = None,
) -> DocOutcome:
    """Chunk one document and write its artifacts (or, with ``check``, compare them).
    ``collisions``: names whose output folder would be this one's on a case-insensitive file
    system (:func:`~chunker.output_tree.collision_index`); looked up in ``out_dir`` when not given.
    ``durability``: the caller holds :func:`~chunker.writer.run_lock` and syncs at the end of the
    run (:func:`~chunker.writer.sync_written`); ``None``: the document is written under its own
    folder lock, fully synced. ``real_sources``: ``sources_dir`` resolved, once for the run.
    ``batch`` (with ``durability``): the artifacts are renamed at its flush, which the caller
    does (:mod:`chunker.writer_batch`). ``cache``: the run's :class:`~chunker.stat_cache.StatCache`
    (a source or chunks.json hashed is recorded there; one whose stat is the recorded one is
    trusted without being read, unless ``force``)."""
    where = os.path.join(os.fspath(out_dir), source.stem)  # the folder as text until it is written
    try:
        if not source.walked:  # a walked file lies inside by construction: no resolve per document
            check_inside(source.path, sources_dir, source.display, real_sources)
        known = known_source(source, cfg, cache) if cache is not None and not force else None
        raw, info = (b"", None) if known is not None else read_source(source, cfg)
        # by content (a same-size edit is caught), or by a stat a run recorded after hashing the file
        state = read_previous(where, cache=cache, stem=source.stem, trust=not force)
        previous, report = state.meta, state.report
        intact = previous is not None and state.intact
        raw_sha256 = known if known is not None else source_sha256(source, raw, info, intact, cache)
        fresh = (
            previous is not None
            and intact
            and previous.get("source_sha256") == raw_sha256
            and previous.get("fingerprint") == fingerprint_of(cfg)
        )
        if fresh and not force:
            assert previous is not None and report is not None
            # with check: ok, as a run would leave it (``--check --force`` chunks it again to compare)
            return unchanged(source, cfg, where, previous, report, _writer(durability, batch), check=check)
        folder = out_dir / source.stem
        never = check and previous is None and cfg.strategy != "off"  # nothing on disk to compare with
        if never and not cfg.skip_drafts:
            return not_chunked(source, folder)
        if known is not None:  # to be chunked again: read the source after all
            raw, info = read_source(source, cfg)
            raw_sha256 = source_sha256(source, raw, info, intact, cache)
        if state.by_stat:  # the previous chunks.json is compared with the new one: read it
            state = read_previous(folder, cache=cache, stem=source.stem)
        if collisions is None:
            collisions = case_collisions(source.stem, out_dir)
        notes = _collision_notes(source, collisions)
        # the raw bytes dropped before chunking, chunks.json written as it is serialised (never held whole)
        data = decoded(source, raw, cfg, raw_sha256, never)
        del raw
        if data is None:
            return not_chunked(source, folder)
        if cache is not None and info is not None and raw_sha256 is None:  # hashed by the decoder
            cache.record("sources", source.stem, info, data.sha256)
        unchunked = not_to_chunk(source, data, cfg, folder, check, previous, never)
        if unchunked is not None:
            return unchunked
        from chunker.runner_streamed import goes_streamed, write_streamed_document

        if not check and goes_streamed(cfg, source.display):  # chunks never all held (chunker/streamed.py)
            check_output_parents(out_dir, source.stem)
            write = _stream_writer(durability, batch, _recorder(cache, source.stem))
            return write_streamed_document(source, data, cfg, notes, state, folder, write)
        outcome = chunk_decoded(
            data,
            doc_id=source.stem,
            source_path=source.display,
            config=cfg,
            notes=notes,
            build=False,
            drafts_checked=True,
        )
        del data
        if outcome.status == "failed":
            return DocOutcome(source.stem, source.display, "failed", outcome.exit_code, message=outcome.message)
        if outcome.status == "off":
            return switched_off(source, folder, check, previous)
        if check:
            assert outcome.result is not None
            return _checked(source, outcome, outcome.result, report if fresh else None, where)
        check_output_parents(out_dir, source.stem)
        chunks, outcome = _handed_over(outcome)
        write = _stream_writer(durability, batch, _recorder(cache, source.stem))
        return _written(source, outcome, chunks, cfg, state, folder, write)
    except Exception as exc:  # reading or writing; one bad document never stops the others
        code, message = describe_failure(exc, source.display)
        return DocOutcome(source.stem, source.display, "failed", code, message=message)


def unchanged_by_stat(
    source: SourceFile,
    cfg: ChunkerConfig,
    out_dir: Path,
    durability: Durability,
    batch: SyncBatch | None,
    cache: StatCache,
) -> DocOutcome | None:
    """:func:`process_document` of a document whose source and chunks.json the stat cache knows
    (neither is read) and that is fresh; None for any other document, with nothing done. What a
    ``--jobs`` run does in its own process before it starts workers for the rest (a no-op run
    then starts none)."""
    if not source.walked:  # its check_inside is a worker's
        return None
    known = known_source(source, cfg, cache)
    if known is None:
        return None
    where = os.path.join(os.fspath(out_dir), source.stem)
    try:
        if cache.known("chunks", source.stem, os.stat(os.path.join(where, "chunks.json"))) is None:
            return None
    except OSError:
        return None
    state = read_previous(where, cache=cache, stem=source.stem, trust=True)
    previous, report = state.meta, state.report
    if not (
        previous is not None
        and report is not None
        and state.intact
        and previous.get("source_sha256") == known
        and previous.get("fingerprint") == fingerprint_of(cfg)
    ):
        return None
    try:
        return unchanged(source, cfg, where, previous, report, _writer(durability, batch))
    except Exception as exc:  # writing meta.json and report.json restated
        code, message = describe_failure(exc, source.display)
        return DocOutcome(source.stem, source.display, "failed", code, message=message)


def _handed_over(outcome: DocumentOutcome) -> tuple[list[Chunk], DocumentOutcome]:
    """The chunks of a chunked outcome as a list to hand over to :func:`released_parts`, and the
    outcome without them and without its blocks (which hold the text): the serialiser frees each
    batch of chunks once written, so the run's memory shrinks while chunks.json grows."""
    result = outcome.result
    assert result is not None
    return list(result.chunks), replace(outcome, result=replace(result, chunks=(), blocks=()))


def _written(
    source: SourceFile,
    outcome: DocumentOutcome,
    chunks: list[Chunk],
    cfg: ChunkerConfig,
    state: Previous,
    folder: Path,
    write: Callable[[Path, Iterable[Part], Finish], bool],
) -> DocOutcome:
    """Write the artifacts of a chunked document (only those that changed), chunks.json as it is
    serialised from ``chunks``, which it empties (:func:`_handed_over`)."""
    result = outcome.result
    assert result is not None
    hashes = {c.content_hash for c in chunks}
    count = len(chunks)
    digest: list[str] = []

    def finish(chunks_sha256: str, chunks_size: int) -> tuple[bool, dict[str, bytes]]:
        digest.append(chunks_sha256)
        others = other_artifacts(result, cfg, outcome.source_sha256, chunks_sha256, chunks_size, count)
        return changed_others(state, chunks_sha256, others)

    wrote = write(folder, released_parts(chunks), finish)
    same = state.chunks_sha256 == digest[0]
    status: Status = "new" if state.meta is None else ("rebuilt" if same else "changed")
    return _outcome(source, outcome, status, outcome.exit_code, _delta(state, hashes, same), wrote=wrote)


def _outcome(
    source: SourceFile,
    outcome: DocumentOutcome,
    status: Status,
    code: int,
    delta: dict[str, int] | None = None,
    wrote: bool = False,
) -> DocOutcome:
    return DocOutcome(
        source.stem, source.display, status, code, outcome.metrics, outcome.diagnostics, delta=delta or {}, wrote=wrote
    )


def _writer(durability: Durability | None, batch: SyncBatch | None = None) -> Callable[[Path, dict[str, bytes]], None]:
    """How a document's artifacts are written: under the run's lock (``durability`` given) or,
    on its own, under the folder's lock."""
    from chunker.writer import write_document  # an unchanged document needs no writer

    if durability is None:
        return lambda folder, artifacts: write_document(folder, artifacts, output_display(folder))
    return lambda folder, artifacts: write_document(
        folder, artifacts, output_display(folder), durability=durability, run_locked=True, batch=batch
    )


def _stream_writer(
    durability: Durability | None, batch: SyncBatch | None = None, record: Record | None = None
) -> Callable[[Path, Iterable[Part], Finish], bool]:
    """:func:`_writer` for a set whose chunks.json is written as its parts come; ``record``: told
    the stat of a chunks.json written, right after its rename (with ``batch``, the batch keeps it
    at its flush for the caller)."""
    from chunker.writer_stream import write_streamed

    def write(folder: Path, parts: Iterable[Part], finish: Finish) -> bool:
        display = output_display(folder)
        if durability is None:
            return write_streamed(folder, "chunks.json", parts, finish, display, record=record)
        return write_streamed(
            folder,
            "chunks.json",
            parts,
            finish,
            display,
            durability=durability,
            run_locked=True,
            batch=batch,
            record=record,
        )

    return write


def _recorder(cache: StatCache | None, stem: str) -> Record | None:
    """What tells ``cache`` the stat of the chunks.json of ``stem`` this run wrote."""
    if cache is None:
        return None
    return lambda entry: cache.wrote("chunks", stem, entry)


def _collision_notes(source: SourceFile, collisions: Sequence[str]) -> tuple[Diagnostic, ...]:
    message = collision_message(source.stem, collisions)
    return () if message is None else (Diagnostic("warning", "case-collision", message),)


def _checked(
    source: SourceFile,
    outcome: DocumentOutcome,
    result: ChunkingResult,
    report: dict[str, Any] | None,
    where: str = "",
) -> DocOutcome:
    """``--check``: ``ok`` when the chunks.json a run would write is the one on disk. ``report``
    (given only for a fresh document) records the sha256 of chunks.json on disk, which
    previous_state verified: compared with that instead of reading the file again. A fresh
    document whose chunks differ only in whether their assets exist (a linked file added or
    removed since: no run re-chunks it for that, README "assets") is ``ok`` too: a run would
    leave it as it is, so ``--check`` must not call it stale."""
    recorded = report.get("artifacts", {}).get("chunks.json") if report is not None else None
    digest = hashlib.sha256()
    for part in chunks_parts(result):  # hashed as serialised, never held whole
        digest.update(part)
    if recorded != digest.hexdigest() and not (report is not None and _only_assets_differ(where, result)):
        return _outcome(source, outcome, "stale", EXIT_VALIDATION)
    return _outcome(source, outcome, "ok", outcome.exit_code)


def _only_assets_differ(folder: str, result: ChunkingResult) -> bool:
    """Whether the folder's chunks.json and the chunks of ``result`` differ only in their assets'
    ``exists`` (read only when the two differ)."""
    import orjson

    from chunker.freshness import load_json

    _, old = load_json(os.path.join(folder, "chunks.json"))
    new = orjson.loads(b"".join(chunks_parts(result)))
    return isinstance(old, list) and _without_exists(old) == _without_exists(new)


def _without_exists(chunks: list[Any]) -> list[Any]:
    for chunk in chunks:
        assets = chunk.get("assets") if isinstance(chunk, dict) else None
        for asset in assets if isinstance(assets, list) else ():
            if isinstance(asset, dict):
                asset.pop("exists", None)
    return chunks
