"""A run's documents in ``--jobs`` worker processes (:func:`run_jobs`), largest first.

Under ``full`` durability a worker chunks a document and stages its files (written and closed, not
synced, not renamed) in a holding batch that it hands back with the document's outcome; the parent
adds them to its
:class:`~chunker.writer_batch.SyncBatch` as the outcomes arrive and flushes it when due and at the
end: one ``syncfs`` for many documents of all workers, instead of an fsync per file in each worker.
What a kill leaves is as with ``--jobs 1``: each artifact old or new, and temporary files the next
run removes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from chunker.errors import EXIT_INTERNAL, EXIT_SOURCE
from chunker.runner import _flush, _Task
from chunker.runner_document import process_document
from chunker.summary import DocOutcome
from chunker.workers import run_in_workers
from chunker.writer_batch import Held, SyncBatch

__all__ = ["run_jobs"]


def run_jobs(
    tasks: Sequence[_Task], jobs: int, progress: Callable[[], Any] | None, batch: SyncBatch | None
) -> list[DocOutcome]:
    """The outcome of every task, in task order, chunked by ``jobs`` workers taking the largest
    documents first; a document whose worker dies is run again alone, and named if it dies again
    (:func:`chunker.workers.run_in_workers`). ``batch``: the run's ``full`` durability."""
    order = sorted(range(len(tasks)), key=lambda k: -_size(tasks[k][0].path))
    if batch is None:
        return run_in_workers(_run_one, tasks, order, jobs, _died, progress)
    return _run_batched(tasks, order, jobs, progress, batch)


def _run_batched(
    tasks: Sequence[_Task], order: Sequence[int], jobs: int, progress: Callable[[], Any] | None, batch: SyncBatch
) -> list[DocOutcome]:
    """The outcome of every task, in task order, chunked by ``jobs`` workers whose artifacts
    ``batch`` makes durable and renames; a document whose files fail at a flush is failed."""
    done: dict[int, DocOutcome] = {}
    waiting: dict[Path, int] = {}  # the folders staged since the last flush: their task

    def arrived(k: int, result: tuple[DocOutcome, Held]) -> tuple[DocOutcome, Held]:
        outcome, staged = result
        done[k] = outcome
        if staged:
            batch.add_held(staged)
            waiting[tasks[k][3] / tasks[k][0].stem] = k
            if batch.due:
                _flush(batch, waiting, done)
        return outcome, []

    try:
        run_in_workers(_run_staged, tasks, order, jobs, _died_staged, progress, arrived)
        _flush(batch, waiting, done)
    except BaseException:
        batch.discard()
        raise
    finally:
        batch.close()
    return [done[k] for k in range(len(tasks))]


def _run_staged(args: _Task) -> tuple[DocOutcome, Held]:
    """A worker's document: its artifacts staged in a holding batch handed back with its outcome."""
    batch = SyncBatch(args[3], holding=True)
    return process_document(*args, batch=batch), batch.take()


def _died_staged(task: _Task, cause: str, killed: bool) -> tuple[DocOutcome, Held]:
    return _died(task, cause, killed), []


def _run_one(args: _Task) -> DocOutcome:
    return process_document(*args)


def _died(task: _Task, cause: str, killed: bool) -> DocOutcome:
    """The outcome of a document whose process died twice, alone the second time: exit 3 when it
    was killed (most likely for memory), 5 for a crash."""
    source = task[0]
    message = f"{source.display}: the process chunking it died ({cause}); not chunked in this run"
    return DocOutcome(source.stem, source.display, "failed", EXIT_SOURCE if killed else EXIT_INTERNAL, message=message)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
