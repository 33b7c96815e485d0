"""Where the map step runs: a local process pool (no extra packages) or Ray Data.

Both run :func:`chunker.batch.work.run_group` on the same groups, so they write the same files."""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Iterator, Sequence
from typing import Any

from chunker.batch.work import Group, run_group
from chunker.errors import ChunkerError, UsageError

__all__ = ["ENGINES", "run_local", "run_ray"]

ENGINES = ("local", "ray")


def run_local(groups: Sequence[Group], jobs: int) -> Iterator[list[dict[str, Any]]]:
    """Manifest rows of each group as it completes; ``jobs`` processes (0 = one per CPU)."""
    from chunker.workers import effective_jobs

    jobs = effective_jobs(jobs, len(groups))[0]  # 0 = one per usable CPU; at most 2 per CPU
    if jobs == 1 or len(groups) <= 1:
        for group in groups:
            yield run_group(group)
        return
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    from chunker.workers import worker_pool  # workers die with this process and ignore Ctrl-C

    broken: list[Group] = []  # groups of a pool a dying worker broke
    with worker_pool(jobs) as pool:
        futures = {pool.submit(run_group, group): group for group in groups}
        for future in as_completed(futures):
            try:
                rows = future.result()
            except BrokenProcessPool:
                broken.append(futures[future])
                continue
            yield rows
    for group in broken:
        yield from _alone(group)


def _alone(group: Group) -> Iterator[list[dict[str, Any]]]:
    """Rows of a group whose pool broke: the group again in a process of its own; if that dies too,
    each of its documents alone, and a document whose process dies once more gets a failed row
    naming it (exit 3 when killed, most likely for memory; 5 for a crash)."""
    import signal
    from dataclasses import replace

    from chunker.batch.work import failed_row
    from chunker.errors import EXIT_INTERNAL, EXIT_SOURCE
    from chunker.workers import death_cause, run_isolated

    rows, exitcode = run_isolated(run_group, group)
    if rows is not None:
        yield rows
        return
    for task in group.tasks:
        single = replace(group, tasks=(task,))
        rows, exitcode = run_isolated(run_group, single) if len(group.tasks) > 1 else (None, exitcode)
        if rows is None:
            code = EXIT_SOURCE if exitcode == -signal.SIGKILL else EXIT_INTERNAL
            message = (
                f"{task.item.display}: the process chunking it died ({death_cause(exitcode)}); not chunked in this run"
            )
            rows = [failed_row(task, code, message)]
        yield rows


def _ray_map(row: dict[str, Any]) -> dict[str, Any]:
    return {"rows": pickle.dumps(run_group(pickle.loads(row["group"])))}


def run_ray(groups: Sequence[Group], jobs: int) -> Iterator[list[dict[str, Any]]]:
    """The same on Ray Data: the cluster at ``RAY_ADDRESS``, else a local one (``jobs`` CPUs; 0 = all).
    A cluster this call started is shut down at the end; one already connected is left as it is."""
    try:
        import ray
        import ray.data
    except ImportError:
        raise UsageError("--engine ray needs Ray: pip install 'chunker[ray]'") from None
    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS") or None
        ray.init(
            address=address,
            num_cpus=None if address or not jobs else jobs,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    for name in ("ray", "ray.data"):  # Ray's INFO/WARNING lines would interleave with the run's own output
        logging.getLogger(name).setLevel(logging.ERROR)
    try:
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False
        context.print_on_execution_start = False
        if not groups:
            return
        items = [{"group": pickle.dumps(group)} for group in groups]
        dataset = ray.data.from_items(items, override_num_blocks=len(items)).map(_ray_map)
        for row in dataset.iter_rows():
            yield pickle.loads(row["rows"])
    except ChunkerError:
        raise
    except Exception as exc:  # a worker that raised (an output error) fails the Ray job: its own message and code
        cause = getattr(exc, "cause", None)
        if isinstance(cause, ChunkerError):
            raise cause from None
        raise
    finally:
        if started:
            ray.shutdown()
