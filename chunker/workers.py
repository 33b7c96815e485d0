"""Worker processes for ``--jobs``: bounded in number, and never outliving the run.

- At most one worker per document and, unless forced, at most 2 × the CPUs this process may use.
- A worker dies with its parent: on Linux the kernel kills it when the parent dies
  (``PR_SET_PDEATHSIG``); everywhere a watchdog thread ends it when its parent changes. So a run
  killed with SIGKILL or SIGTERM leaves no worker holding its stdout open (a reader of the
  output would wait for them).
- Workers ignore Ctrl-C; the parent, interrupted, stops them and reports the interrupt once.
- A worker that dies (killed by the out-of-memory killer, a crash in native code) breaks its pool
  and fails every task still in it; each of those runs again in a process of its own
  (:func:`run_isolated`), so the others complete and the one that dies again is named.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # imported when a pool starts: a --jobs 1 run needs no multiprocessing (~14 ms)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.connection import Connection

R = TypeVar("R")
T = TypeVar("T")

JOBS_PER_CPU = 2
WATCHDOG_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def usable_cpus() -> int:
    """CPUs this process may use: its affinity mask where the platform has one, lowered to its
    cgroup's CPU quota (a container given 2 CPUs of a 64-CPU host: 2; :func:`cgroup_cpus`)."""
    try:
        cpus = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cpus = max(1, os.cpu_count() or 1)
    quota = cgroup_cpus()
    return min(cpus, quota) if quota is not None else cpus


def cgroup_cpus(root: str = "/sys/fs/cgroup") -> int | None:
    """The CPUs the cgroup quota of this process allows, rounded up (cgroup v2 ``cpu.max``, v1
    ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` of the mounted hierarchy); None when there is none."""
    for quota_file, period_file in (("cpu.max", None), ("cpu/cpu.cfs_quota_us", "cpu/cpu.cfs_period_us")):
        try:
            with open(os.path.join(root, quota_file), encoding="ascii") as f:
                fields = f.read().split()
            if period_file is not None:
                with open(os.path.join(root, period_file), encoding="ascii") as f:
                    fields.append(f.read().strip())
            quota, period = int(fields[0]), int(fields[1])
        except (OSError, ValueError, IndexError):  # no such file, "max" (no quota), unreadable
            continue
        if quota > 0 and period > 0:
            return max(1, -(-quota // period))
    return None


AUTO_JOBS_MAX = 8
"""At most this many workers when ``--jobs`` is not given (each holds its own memory)."""
AUTO_MIN_BYTES = 2 * 1024 * 1024
AUTO_MIN_DOCUMENTS = 500
"""Without ``--jobs``, a run forks workers only for at least this many bytes or documents to chunk:
below, starting and warming them costs more than they save (bench/E2E.md, "Eighth pass: workers by default")."""


def auto_jobs(cpus: int, pending_bytes: int, pending_documents: int) -> int:
    """The workers for a run without ``--jobs``: one per usable CPU (at most :data:`AUTO_JOBS_MAX`)
    when there is enough to chunk, else 1 (this process)."""
    if pending_documents < 2 or (pending_bytes < AUTO_MIN_BYTES and pending_documents < AUTO_MIN_DOCUMENTS):
        return 1
    return max(1, min(cpus, AUTO_JOBS_MAX, pending_documents))


def effective_jobs(jobs: int | None, documents: int, *, force: bool = False) -> tuple[int, str | None]:
    """The number of worker processes for ``--jobs jobs`` over ``documents``, and a warning when
    the request was lowered to the CPU bound. ``0`` means one per usable CPU; None (no ``--jobs``)
    up to :data:`AUTO_JOBS_MAX` of them, which :func:`auto_jobs` lowers by the work there is."""
    cpus = usable_cpus()
    if jobs is None:
        return max(1, min(cpus, AUTO_JOBS_MAX, documents)), None
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


def _isolated_child(fn: Callable[[Any], Any], arg: Any, conn: Connection, parent: int) -> None:
    init_worker(parent)
    conn.send(fn(arg))
    conn.close()


def _worker_loop(fn: Callable[[Any], Any], tasks: Sequence[Any], conn: Connection, parent: int) -> None:
    """A worker of :func:`run_in_workers`: ``fn`` of each task whose index it receives, sent back
    (an exception as ``(False, exc)``), until it receives None or its parent is gone."""
    init_worker(parent)
    while True:
        try:
            k = conn.recv()
        except (EOFError, OSError):
            return
        if k is None:
            return
        try:
            reply: tuple[bool, Any] = (True, fn(tasks[k]))
        except Exception as exc:  # raised again in the parent, as a pool's future does
            reply = (False, exc)
        conn.send(reply)


class _Worker:
    """One process of :func:`run_in_workers` and the task it is running (None: idle)."""

    __slots__ = ("conn", "process", "task")

    def __init__(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> None:
        """``tasks``: all of them, given to the process as it starts (forked: inherited, never
        pickled); each is then handed over by its index."""
        import multiprocessing

        context = multiprocessing.get_context()
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_worker_loop, args=(fn, tasks, child, os.getpid()), daemon=True)
        gc.freeze()  # the collector in the fork never walks (and so never copies) what it inherits
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child.close()
        self.task: int | None = None
        """The task it is running (:func:`_hand`)."""

    def stop(self, kill: bool) -> None:
        with contextlib.suppress(OSError, ValueError):
            if kill:
                self.process.kill()
            else:
                self.conn.send(None)
        self.conn.close()


def run_in_workers(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    order: Sequence[int],
    jobs: int,
    died: Callable[[T, str, bool], R],
    progress: Callable[[], object] | None = None,
    on_result: Callable[[int, R], R] | None = None,
) -> list[R]:
    """``fn`` of every task, in task order, computed by ``jobs`` workers taking the tasks in
    ``order``; ``progress()`` after each. Each worker is a process of its own with a pipe to this
    one, started with the tasks (forked, it has them without a copy): it is handed a task's index
    when it is idle, and the result comes back on that pipe (no pool thread, no future, no task
    pickled: the cost per task in this process is a small send and the result's receive). A worker that
    dies fails only the task it was running, and a new worker takes its place; each such task runs
    again in a process of its own, one after the other, after the others; a task whose process
    dies again gets ``died(task, cause, killed)`` (``killed``: by SIGKILL, the out-of-memory
    killer's signal). ``on_result(k, result)``: called in this process as each task's result
    arrives (in the order they complete); what it returns is kept instead. When no worker runs and
    the system refuses to start one, :class:`WorkersUnavailableError` is raised: the results that
    arrived went to ``on_result``, the other tasks are the caller's."""
    from multiprocessing.connection import wait

    results: dict[int, R] = {}
    broken: list[int] = []
    queue = list(reversed(order))  # popped from the end: the first of ``order`` first
    workers: list[_Worker] = []
    done: list[_Worker] = []  # told to end: joined at the end
    try:
        while queue and len(workers) < jobs and _start(fn, workers, tasks, queue):
            pass  # fewer when the system refuses more processes: those started take the queue on
        while workers:
            busy = {w.conn: w for w in workers}
            for conn in wait(list(busy)):
                worker = busy[conn]  # type: ignore[index]
                k = worker.task
                assert k is not None
                try:
                    ok, value = worker.conn.recv()
                except (EOFError, OSError):  # its process died: the task runs again alone, after the others
                    broken.append(k)
                    _retire(worker, workers, kill=True)
                    if queue:
                        _start(fn, workers, tasks, queue)
                    continue
                if not ok:
                    raise value
                results[k] = on_result(k, value) if on_result is not None else value
                if progress is not None:
                    progress()
                if not queue:
                    worker.stop(kill=False)
                    workers.remove(worker)
                    done.append(worker)
                elif not _hand(worker, queue):
                    _retire(worker, workers, kill=True)
                    _start(fn, workers, tasks, queue)
    except BaseException:
        for worker in list(workers):
            _retire(worker, workers, kill=True)
        raise
    finally:
        for worker in done:
            worker.process.join()
    for k in sorted(broken):  # one at a time, from this thread alone: a fork beside running threads may deadlock
        result = _alone(fn, tasks[k], died)
        results[k] = on_result(k, result) if on_result is not None else result
        if progress is not None:
            progress()
    return [results[k] for k in sorted(order)]


def _alone(fn: Callable[[T], R], task: T, died: Callable[[T, str, bool], R]) -> R:
    """``fn(task)`` in a process of its own; ``died(...)`` when that process dies too."""
    result, exitcode = run_isolated(fn, task)
    if result is None:  # its process died again
        return died(task, death_cause(exitcode), exitcode == -signal.SIGKILL)
    return result


class WorkersUnavailableError(Exception):
    """No worker process runs and the system refuses to start one (a process limit, no memory to
    fork): the tasks without a result are left to the caller (:func:`run_in_workers`)."""


def _start(fn: Callable[[Any], Any], workers: list[_Worker], tasks: Sequence[Any], queue: list[int]) -> bool:
    """A new worker, handed the next task of ``queue``; one that cannot take it is replaced. False
    when the system refuses a new process while other workers run (they take the queue on);
    :class:`WorkersUnavailableError` when none runs."""
    for _ in range(3):
        try:
            worker = _Worker(fn, tasks)
        except OSError as exc:  # EAGAIN (a process limit), ENOMEM
            if workers:
                return False
            raise WorkersUnavailableError(f"{exc.strerror or exc}") from exc
        workers.append(worker)
        if _hand(worker, queue):
            return True
        _retire(worker, workers, kill=True)
    raise OSError("the workers cannot be handed their tasks")


def _hand(worker: _Worker, queue: list[int]) -> bool:
    """Send ``worker`` the next task of ``queue``; False (the task back in ``queue``) when it
    cannot receive it (its process is gone)."""
    worker.task = queue.pop()
    try:
        worker.conn.send(worker.task)
    except OSError:
        queue.append(worker.task)
        worker.task = None
        return False
    return True


def _retire(worker: _Worker, workers: list[_Worker], kill: bool) -> None:
    """Stop ``worker`` (killed, or told to end) and wait for its process."""
    worker.stop(kill)
    worker.process.join()
    workers.remove(worker)


def run_isolated(fn: Callable[[T], R], arg: T) -> tuple[R | None, int | None]:
    """``fn(arg)`` in a process of its own that dies with this one: (its result, None), or (None,
    the process's exit code) when it died without one (negative: killed by that signal). Used to
    find which document kills its worker: a broken pool cannot say which of its tasks did."""
    import multiprocessing

    context = multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_isolated_child, args=(fn, arg, sender, os.getpid()), daemon=True)
    process.start()
    sender.close()
    try:
        result: R = receiver.recv()
    except EOFError:
        process.join()
        return None, process.exitcode
    finally:
        receiver.close()
    process.join()
    return result, None


def death_cause(exitcode: int | None) -> str:
    """What a worker's exit code says of its death, for a message: the signal's name, and the most
    likely reason of a SIGKILL (the kernel's out-of-memory killer, or a memory limit)."""
    if exitcode is None or exitcode >= 0:
        return f"exit code {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    return f"{name}: out of memory?" if -exitcode == signal.SIGKILL else name
