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

    from chunker.workers import worker_pool  # workers die with this process and ignore Ctrl-C

    with worker_pool(jobs) as pool:
        futures = [pool.submit(run_group, group) for group in groups]
        for future in as_completed(futures):
            yield future.result()


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
