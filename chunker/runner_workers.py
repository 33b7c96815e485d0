"""``full`` durability with ``--jobs``: workers stage the artifacts, the run's process syncs and renames.

A worker chunks a document and stages its files (written and closed, not synced, not renamed) in a
holding batch that it hands back with the document's outcome; the parent adds them to its
:class:`~chunker.writer_batch.SyncBatch` as the outcomes arrive and flushes it when due and at the
end: one ``syncfs`` for many documents of all workers, instead of an fsync per file in each worker.
What a kill leaves is as with ``--jobs 1``: each artifact old or new, and temporary files the next
run removes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from chunker.runner import _died, _flush, _Task, process_document
from chunker.summary import DocOutcome
from chunker.workers import run_in_workers
from chunker.writer_batch import Held, SyncBatch

__all__ = ["run_batched"]


def run_batched(
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
