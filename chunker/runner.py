"""A run over the source documents: incremental, parallel, CI-gateable.

The CLI parses arguments and renders; everything it does to files happens here (with
``freshness.py`` for unchanged documents and ``orphans.py`` for folders whose source is gone).
A document is re-chunked only when its source hash or its options fingerprint
changed (or with ``force``); one bad document never stops the others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes as chunks_bytes  # re-exported: bench/identity.py --repo of older trees
from chunker.core import describe_failure
from chunker.lookup import find_sources
from chunker.orphans import gone_outcomes, kept_orphan_notes, leftover_outcomes
from chunker.output_tree import collision_index, refuse_ids_over_sources, refuse_output_in_sources, walk_output
from chunker.path_display import display_path
from chunker.runner_document import process_document
from chunker.runner_scan import empty_run_error, left_out_outcomes, unmatched_overrides, unused_globs
from chunker.selection import Selection
from chunker.settings import Settings
from chunker.source_walk import scan
from chunker.sources import LeftOut, SourceFile
from chunker.summary import DocOutcome, RunSummary, output_display
from chunker.workers import effective_jobs
from chunker.writer import Durability

if TYPE_CHECKING:
    from chunker.stat_cache import StatCache
    from chunker.writer_batch import SyncBatch


_Task = tuple[SourceFile, ChunkerConfig, Path, Path, bool, bool, Sequence[str], Durability, Path | None]
"""The arguments of :func:`process_document` for one document."""


def run(
    settings: Settings,
    sources_dir: Path,
    out_dir: Path,
    stems: Sequence[str] = (),
    *,
    force: bool = False,
    keep_orphans: bool = False,
    jobs: int | None = 1,
    force_jobs: bool = False,
    check: bool = False,
    progress: Any = None,
    durability: Durability = "full",
    allow_empty: bool = True,
    on_wait: Callable[[float], None] | None = None,
) -> RunSummary:
    """Chunk the given documents (ids or bare names; default every source) into ``out_dir/<id>/``.
    ``progress``, if given, is called once as ``progress(total=n)`` with the number of documents to
    process, then as ``progress()`` after each one. A run that writes holds the lock of
    ``out_dir`` throughout (:func:`~chunker.writer.run_lock`) and makes what it wrote durable at
    its end as ``durability`` says (:data:`~chunker.writer.DURABILITIES`). A full run that finds no
    source document raises :class:`~chunker.errors.UsageError` before it touches ``out_dir``, unless
    ``allow_empty``. ``on_wait(timeout)``: called once when another run's lock has kept this one
    waiting a second (it waits up to ``timeout`` seconds, then fails as busy)."""
    resolved = refuse_output_in_sources(sources_dir, out_dir)
    left_out: list[DocOutcome] = []
    selection = Selection(settings.include, settings.exclude)
    skipped: tuple[LeftOut, ...] = ()
    used: frozenset[str] = frozenset()  # the include/exclude globs that did something (a full run)
    if stems:
        found = find_sources(sources_dir, list(stems), selection)
        sources = list({s.stem: s for s in found}.values())
        kept = {s.stem for s in sources}
    else:
        scanned = scan(sources_dir, selection)
        used = scanned.used
        skipped = tuple(scanned.left_out)
        left_out = left_out_outcomes(scanned)
        if not (allow_empty or scanned.found or left_out):
            raise empty_run_error(scanned.left_out, display_path(sources_dir), settings.include, settings.exclude)
        kept = {s.stem for s in scanned.found}  # a stem that fails here keeps its previous artifacts
        failed = {o.stem for o in left_out if o.status == "failed"}
        sources = [s for s in scanned.found if s.stem not in failed]
    refuse_ids_over_sources(sources_dir, out_dir, resolved, sources)
    collisions = collision_index([s.stem for s in sources], out_dir)  # one listing of out_dir, not one per document
    try:
        real_sources: Path | None = sources_dir.resolve()  # once for every document's check_inside
    except (OSError, RuntimeError):
        real_sources = None  # each document says why
    tasks: list[_Task] = [
        (s, settings.for_stem(s.stem), sources_dir, out_dir, force, check, collisions[s.stem], durability, real_sources)
        for s in sources
    ]
    auto = jobs is None
    jobs, jobs_warning = effective_jobs(jobs, len(tasks), force=force_jobs)
    if auto and jobs > 1 and not _worth_workers(tasks):
        jobs = 1  # a small run stays in this process, as with --jobs 1
    notes: list[str] = [jobs_warning] if jobs_warning else []
    with _locked(out_dir, check or not (tasks or out_dir.is_dir()), on_wait):
        if progress is not None:
            progress(total=len(tasks))  # a bar with a known total
        batch = _batch(out_dir, durability, check, jobs)
        cache = None if check or not out_dir.is_dir() else _stat_cache(out_dir)
        done = False
        try:
            outcomes = _execute(tasks, jobs, progress, batch, cache, auto, notes)
            outcomes.extend(left_out)
            walked = walk_output(out_dir) if out_dir.is_dir() else None  # one walk for orphans and leftovers
            if not stems and not keep_orphans:
                # with check: what a run would remove is stale
                outcomes.extend(gone_outcomes(out_dir, kept, check, notes, walked))
            elif not stems:
                notes.extend(kept_orphan_notes(out_dir, kept, walked))
            outcomes.extend(leftover_outcomes(out_dir, check, notes, walked))
            if not check:
                from chunker.writer import sync_written

                ending = "run" if batch is not None and batch.synced_file_system else durability  # one syncfs
                sync_written(out_dir, [out_dir / o.stem for o in outcomes if o.wrote], ending)
            done = True
        finally:
            if cache is not None:
                if done and not stems:
                    cache.keep_only(kept)
                cache.close(save=done)
    if not stems:
        notes.extend(unmatched_overrides(settings, [s.stem for s in sources], sources_dir))
        notes.extend(unused_globs(settings, used, sources_dir))
    return RunSummary(tuple(outcomes), tuple(notes), skipped)


def _locked(out_dir: Path, skip: bool, on_wait: Callable[[float], None] | None) -> AbstractContextManager[None]:
    """The run's lock on ``out_dir``; none with ``skip`` (``--check`` writes nothing, and a run
    with no document and no output folder creates none)."""
    if skip:
        return nullcontext()
    from chunker.writer import run_lock

    return run_lock(out_dir, output_display(out_dir), on_wait=on_wait)


def _batch(out_dir: Path, durability: Durability, check: bool, jobs: int) -> SyncBatch | None:
    """The batch that makes a ``full`` run's artifacts durable with one sync per batch of
    documents (:mod:`chunker.writer_batch`); with workers, they stage and this process syncs
    and renames."""
    if check or durability != "full":
        return None
    from chunker.writer_batch import SyncBatch

    return SyncBatch(out_dir)


def _stat_cache(out_dir: Path) -> StatCache | None:
    from chunker.stat_cache import StatCache

    return StatCache.open(out_dir)


def _worth_workers(tasks: Sequence[_Task]) -> bool:
    """Whether a run without ``--jobs`` has enough documents or bytes for workers
    (:func:`~chunker.workers.auto_jobs`); sizes are read until the bound is reached."""
    from chunker.workers import AUTO_MIN_BYTES, AUTO_MIN_DOCUMENTS

    if len(tasks) >= AUTO_MIN_DOCUMENTS:
        return True
    total = 0
    for task in tasks:
        total += source_size(task[0].path)
        if total >= AUTO_MIN_BYTES:
            return True
    return False


def source_size(path: Path) -> int:
    """The size of a source file in bytes (0 when it cannot be read: its document says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _execute(
    tasks: Sequence[_Task],
    jobs: int,
    progress: Any,
    batch: SyncBatch | None = None,
    cache: StatCache | None = None,
    auto: bool = False,
    notes: list[str] | None = None,
) -> list[DocOutcome]:
    """The outcome of every task, in task order: in this process, or in ``jobs`` workers (largest
    documents first; a document whose worker dies is run again alone, and named if it dies again).
    ``batch`` (in this process): flushed when due and at the end; a document whose artifacts fail
    to be renamed then is failed. ``cache``: looked up and recorded for every document (a worker
    gets its document's entries and hands back what it recorded)."""
    if jobs <= 1:
        outcomes: list[DocOutcome] = []
        held: dict[Path | str, int] = {}  # the folders of the documents since the last flush: their outcome
        with batch if batch is not None else nullcontext():
            for task in tasks:
                staged = len(batch) if batch is not None else 0
                outcomes.append(process_document(*task, batch=batch, cache=cache))
                if batch is not None and len(batch) > staged:  # only a folder staged in can fail at the flush
                    held[task[3] / task[0].stem] = len(outcomes) - 1
                    if batch.due:
                        _flush(batch, held, outcomes, cache)
                if progress is not None:
                    progress()
            if batch is not None:
                _flush(batch, held, outcomes, cache)
        return outcomes
    from chunker.runner_workers import run_jobs

    return run_jobs(tasks, jobs, progress, batch, cache, auto, notes)


def _flush(
    batch: SyncBatch,
    held: dict[Path | str, int],
    outcomes: list[DocOutcome] | dict[int, DocOutcome],
    cache: StatCache | None = None,
) -> None:
    """Flush ``batch``; a document whose artifacts it could not make durable or rename fails. The
    stats of the chunks.json files it renamed go to ``cache``."""
    for folder, exc in batch.flush().items():
        k = held[folder]
        stem, display = outcomes[k].stem, outcomes[k].display
        code, message = describe_failure(exc, display)
        outcomes[k] = DocOutcome(stem, display, "failed", code, message=message)
    if cache is not None:
        for folder, entry in batch.renamed.items():
            cache.wrote("chunks", outcomes[held[folder]].stem, entry)
    batch.renamed.clear()
    held.clear()
