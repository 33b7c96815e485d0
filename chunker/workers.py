"""Worker processes for ``--jobs``: bounded in number, and never outliving the run.

- At most one worker per document and, unless forced, at most 2 × the CPUs this process may use.
- A worker dies with its parent: on Linux the kernel kills it when the parent dies
  (``PR_SET_PDEATHSIG``); everywhere a watchdog thread ends it when its parent changes. So a run
  killed with SIGKILL or SIGTERM leaves no worker holding its stdout open (a reader of the
  output would wait for them).
- Workers ignore Ctrl-C; the parent, interrupted, stops them and reports the interrupt once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a pool starts: a --jobs 1 run needs no multiprocessing (~14 ms)
    from concurrent.futures import ProcessPoolExecutor

JOBS_PER_CPU = 2
WATCHDOG_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def effective_jobs(jobs: int, documents: int, *, force: bool = False) -> tuple[int, str | None]:
    """The number of worker processes for ``--jobs jobs`` over ``documents``, and a warning when
    the request was lowered to the CPU bound. ``0`` means one per usable CPU."""
    cpus = usable_cpus()
    wanted = cpus if jobs == 0 else jobs
    warning = None
    bound = JOBS_PER_CPU * cpus
    if wanted > bound and not force:
        warning = (
            f"--jobs {jobs} lowered to {bound} ({JOBS_PER_CPU} per usable CPU; {cpus} CPU(s)); "
            "pass --force-jobs to start more"
        )
        wanted = bound
    return max(1, min(wanted, documents)), warning


def _die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCHDOG_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def init_worker(parent: int) -> None:
    """Initializer of every worker: ignore Ctrl-C, die with the parent (``parent`` is its pid)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    ppid = os.getppid()
    if ppid == 1 or (ppid != parent and not _alive(parent)):  # the parent died before the kernel was told
        os._exit(1)
    threading.Thread(target=_watch, args=(ppid,), name="chunker-parent-watchdog", daemon=True).start()


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers that die with this process. On an exception (Ctrl-C
    included) queued work is cancelled and the workers are killed, not waited for."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=init_worker, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()
        raise
    else:
        pool.shutdown(wait=True)
