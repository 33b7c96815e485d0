"""A run's documents in ``--jobs`` worker processes (:func:`run_jobs`), largest first.

Under ``full`` durability a worker chunks a document and stages its files (written and closed, not
synced, not renamed) in a holding batch that it hands back with the document's outcome; the parent
adds them to its
:class:`~chunker.writer_batch.SyncBatch` as the outcomes arrive and flushes it when due and at the
end: one ``syncfs`` for many documents of all workers, instead of an fsync per file in each worker.
What a kill leaves is as with ``--jobs 1``: each artifact old or new, and temporary files the next
run removes.

Incremental work is that of ``--jobs 1``: the documents whose source and chunks.json the stat cache
knows unchanged are done in the run's own process first (a few reads each; no worker is started
for a no-op run), and each worker gets its document's entries of the cache and hands back what it
recorded (:meth:`chunker.stat_cache.StatCache.part`, :meth:`~chunker.stat_cache.StatCache.merge`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunker.errors import EXIT_INTERNAL, EXIT_SOURCE
from chunker.runner import _flush, _Task, source_size
from chunker.runner_document import process_document, unchanged_by_stat
from chunker.summary import DocOutcome
from chunker.workers import WorkersUnavailableError, auto_jobs, run_in_workers
from chunker.writer_batch import Held, SyncBatch

if TYPE_CHECKING:
    from chunker.config import ChunkerConfig
    from chunker.stat_cache import StatCache, Taken

__all__ = ["run_jobs"]

_Work = tuple[_Task, "StatCache | None", bool]
"""A worker's document: its task, its entries of the run's stat cache, whether it stages for the
run's batch."""
_Done = tuple[DocOutcome, Held, "Taken | None"]
"""A worker's outcome, the files it staged, its entries of the stat cache as it left them."""


def run_jobs(
    tasks: Sequence[_Task],
    jobs: int,
    progress: Callable[[], Any] | None,
    batch: SyncBatch | None,
    cache: StatCache | None = None,
    auto: bool = False,
    notes: list[str] | None = None,
) -> list[DocOutcome]:
    """The outcome of every task, in task order, chunked by ``jobs`` workers taking the largest
    documents first; a document whose worker dies is run again alone, and named if it dies again
    (:func:`chunker.workers.run_in_workers`). ``batch``: the run's ``full`` durability, whose
    artifacts ``batch`` makes durable and renames (a document whose files fail at a flush is
    failed). ``cache``: the documents unchanged by their stats are done here first, without a
    worker; each worker looks up and records its document's entries
    (:meth:`~chunker.stat_cache.StatCache.part`), merged here as its outcome arrives. ``auto`` (no
    ``--jobs``): the documents left after the unchanged ones are chunked here, one after the other,
    when they are too few for workers (:func:`~chunker.workers.auto_jobs`); so are those left when
    the system refuses to start worker processes (a process limit), said in ``notes``."""
    done: dict[int, DocOutcome] = {}
    waiting: dict[Path | str, int] = {}  # the folders staged since the last flush: their task

    def arrived(k: int, result: _Done) -> _Done:
        outcome, staged, part = result
        done[k] = outcome
        if cache is not None and part is not None:
            cache.merge(tasks[k][0].stem, part)
        if staged and batch is not None:
            batch.add_held(staged)
            waiting[staged[0][0]] = k  # the folder, as the batch holds it
            if batch.due:
                _flush(batch, waiting, done, cache)
        return outcome, [], None

    with batch if batch is not None else contextlib.nullcontext():
        if cache is not None:
            _unchanged_here(tasks, batch, cache, progress, done, waiting)
        sizes = {k: source_size(tasks[k][0].path) for k in range(len(tasks)) if k not in done}
        order = sorted(sizes, key=lambda k: -sizes[k])
        work: list[_Work] = [
            (tasks[k], cache.part(tasks[k][0].stem) if cache is not None else None, batch is not None) for k in order
        ]
        count = min(jobs, auto_jobs(jobs, sum(sizes.values()), len(order)) if auto else len(order))
        if order and (count > 1 or not auto):
            _in_workers(work, order, count, progress, arrived, notes)
        for i, item in enumerate(work):  # none left, unless too few for workers or none could start
            if order[i] not in done:
                arrived(order[i], _run_one(item))
                if progress is not None:
                    progress()
        if batch is not None:
            _flush(batch, waiting, done, cache)
    return [done[k] for k in range(len(tasks))]


def _in_workers(
    work: list[_Work],
    order: list[int],
    count: int,
    progress: Callable[[], Any] | None,
    arrived: Callable[[int, _Done], _Done],
    notes: list[str] | None,
) -> None:
    """``work`` (the tasks ``order`` names) in ``count`` workers, forked warm; when the system refuses
    to start any (a process limit, no memory to fork), the tasks without an outcome are left to the
    caller and ``notes`` says so."""
    _warm(work[0][0][1])
    try:
        run_in_workers(_run_one, work, range(len(work)), count, _died, progress, lambda i, r: arrived(order[i], r))
    except WorkersUnavailableError as exc:
        if notes is not None:
            notes.append(f"no worker process could be started ({exc}): the documents left are chunked in this process")


def _warm(cfg: ChunkerConfig) -> None:
    """Import here what chunking a document imports, and build its parser, before the workers are
    forked: they inherit both instead of each doing it again (~0.2 s of CPU per worker, measured
    in bench/E2E.md, "Eighth pass: workers by default")."""
    import chunker.reader
    import chunker.runner_streamed
    import chunker.streamed
    import chunker.writer_stream  # noqa: F401
    from chunker.pipeline import chunk_markdown

    with contextlib.suppress(Exception):  # a warm-up only: the documents say what fails
        chunk_markdown("# Title\n\n## Section\n\nText.\n", cfg, "warm-up", "warm-up.md")


def _unchanged_here(
    tasks: Sequence[_Task],
    batch: SyncBatch | None,
    cache: StatCache,
    progress: Callable[[], Any] | None,
    done: dict[int, DocOutcome],
    waiting: dict[Path | str, int],
) -> None:
    """The documents unchanged by their stats (:func:`~chunker.runner_document.unchanged_by_stat`),
    done in this process: a worker would do the same few reads after a pickle of the task each way."""
    for k, task in enumerate(tasks):
        if task[4] or task[5]:  # --force reads every file; --check keeps no cache
            return
        staged = len(batch) if batch is not None else 0
        outcome = unchanged_by_stat(task[0], task[1], task[3], task[7], batch, cache)
        if outcome is None:
            continue
        done[k] = outcome
        if batch is not None and len(batch) > staged:  # meta.json and report.json restated
            waiting[task[3] / task[0].stem] = k
            if batch.due:
                _flush(batch, waiting, done, cache)
        if progress is not None:
            progress()


def _run_one(work: _Work) -> _Done:
    """A worker's document: with ``staged``, its artifacts staged in a holding batch handed back
    with its outcome (the run's process syncs and renames them)."""
    task, part, staged = work
    batch = SyncBatch(task[3], holding=True) if staged else None
    outcome = process_document(*task, batch=batch, cache=part)
    return outcome, batch.take() if batch is not None else [], part.taken(task[0].stem) if part is not None else None


def _died(work: _Work, cause: str, killed: bool) -> _Done:
    """The outcome of a document whose process died twice, alone the second time: exit 3 when it
    was killed (most likely for memory), 5 for a crash."""
    source = work[0][0]
    message = f"{source.display}: the process chunking it died ({cause}); not chunked in this run"
    code = EXIT_SOURCE if killed else EXIT_INTERNAL
    return DocOutcome(source.stem, source.display, "failed", code, message=message), [], None
