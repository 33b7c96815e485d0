"""`--jobs`: bounded worker count; workers die with their parent; Ctrl-C stops them all."""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _signals import interruptible

import chunker.runner_workers as runner_workers
import chunker.workers as workers
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings
from chunker.workers import JOBS_PER_CPU, effective_jobs, usable_cpus

linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")


def sources_with(tmp_path: Path, count: int, repeat: int = 1) -> Path:
    sources = tmp_path / "sources"
    sources.mkdir()
    body = ("## Part\n\n" + "word " * 60 + "\n\n") * repeat
    for i in range(count):
        (sources / f"d{i}.md").write_text(f"# D{i}\n\n{body}", encoding="utf-8")
    return sources


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The process ids of the workers started (chunker.workers._Worker)."""
    pids: list[int] = []
    real = workers._Worker.__init__

    def recording(self: Any, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        pids.append(self.process.pid)

    monkeypatch.setattr(workers._Worker, "__init__", recording)
    return pids


def test_jobs_256_for_three_documents_starts_at_most_three_workers(tmp_path: Path, started: list[int]) -> None:
    sources = sources_with(tmp_path, 3)
    summary = run(Settings(defaults=ChunkerConfig()), sources, tmp_path / "chunks", jobs=256)
    assert summary.exit_code == 0
    assert 1 <= len(started) <= min(3, JOBS_PER_CPU * usable_cpus())


def test_jobs_above_two_per_cpu_are_lowered_with_a_warning_unless_forced() -> None:
    bound = JOBS_PER_CPU * usable_cpus()
    jobs, warning = effective_jobs(bound + 5, 1000)
    assert jobs == bound
    assert warning is not None and f"--jobs {bound + 5} lowered to {bound}" in warning
    assert effective_jobs(bound + 5, 1000, force=True) == (bound + 5, None)
    assert effective_jobs(0, 1000) == (usable_cpus(), None)
    assert effective_jobs(bound + 5, 2, force=True) == (2, None)


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _survivors(pids: list[int], grace: float = 5.0) -> list[int]:
    """The processes still running after ``grace`` seconds (a killed one needs a moment to exit)."""
    deadline = time.monotonic() + grace
    while (alive := [pid for pid in pids if _running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


@linux_only
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killing_only_the_parent_of_a_parallel_run_ends_its_workers(tmp_path: Path, sig: signal.Signals) -> None:
    sources_with(tmp_path, 6, repeat=6000)  # each document takes seconds: the workers are busy when it dies
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunker", "--jobs", "2", "--force"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(0.5)
    os.kill(proc.pid, sig)
    try:
        proc.communicate(timeout=15)  # a worker still holding stdout would make this wait
    except subprocess.TimeoutExpired:
        pytest.fail("the output pipe stayed open after the parent died: its workers live on")
    finally:
        survivors = _survivors(workers)
        for pid in survivors:
            os.kill(pid, signal.SIGKILL)
    assert survivors == []


@linux_only
def test_ctrl_c_of_a_parallel_run_stops_the_workers_and_says_interrupted_once(tmp_path: Path) -> None:
    sources_with(tmp_path, 6, repeat=6000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunker", "--jobs", "2", "--force"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=interruptible,  # SIGINT not inherited as ignored (a background `pytest &`)
    )
    deadline = time.monotonic() + 60
    while len(workers := _children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip() == "error: interrupted"
    assert not _survivors(workers)


_real_run_one = runner_workers._run_one


def _die_on_d1_d2(task: Any) -> None:
    """The worker's process dies on d1 (SIGKILL, as the out-of-memory killer sends) and on d2
    (SIGABRT, as a crash in native code)."""
    source = task[0]
    if source.stem in ("d1", "d2"):
        faulthandler.disable()  # pytest's, inherited: it would print "Fatal Python error: Aborted" into the log
        os.kill(os.getpid(), signal.SIGKILL if source.stem == "d1" else signal.SIGABRT)


def _dying_run_one(work: Any) -> Any:  # (task, its stat cache entries, staged for the run's batch)
    _die_on_d1_d2(work[0])
    return _real_run_one(work)


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_a_document_that_kills_its_worker_is_named_and_the_others_are_chunked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = sources_with(tmp_path, 6)
    (sources / "d1.md").write_text("# D1\n\n" + "word " * 2000, encoding="utf-8")  # largest: taken first
    monkeypatch.setattr(runner_workers, "_run_one", _dying_run_one)
    alone: list[str] = []
    real_isolated = workers.run_isolated

    def isolated(fn: Any, work: Any) -> Any:
        alone.append(work[0][0].stem)
        return real_isolated(fn, work)

    monkeypatch.setattr(workers, "run_isolated", isolated)
    summary = run(Settings(defaults=ChunkerConfig()), sources, tmp_path / "chunks", jobs=2)
    by_stem = {o.stem: o for o in summary.documents}
    assert sorted(alone) == ["d1", "d2"]  # a dying worker fails only its own task: it alone runs again alone
    clean = tmp_path / "clean"
    run(Settings(defaults=ChunkerConfig()), sources, clean, stems=["d0", "d3", "d4", "d5"])
    for stem in ("d0", "d3", "d4", "d5"):
        assert by_stem[stem].exit_code == 0, by_stem[stem]
        written = (tmp_path / "chunks" / stem / "chunks.json").read_bytes()
        assert written == (clean / stem / "chunks.json").read_bytes()
    killed, crashed = by_stem["d1"], by_stem["d2"]
    assert killed.status == crashed.status == "failed"
    assert killed.message == (
        f"{sources / 'd1.md'}: the process chunking it died (SIGKILL: out of memory?); not chunked in this run"
    )
    assert killed.exit_code == 3
    assert crashed.message.startswith(f"{sources / 'd2.md'}: the process chunking it died (SIGABRT)")
    assert crashed.exit_code == 5
    assert summary.exit_code == 5
    assert not (tmp_path / "chunks" / "d1").exists()
