"""``chunker`` without ``--jobs``: workers (one per usable CPU, at most 8) when there is enough to
chunk, this process alone otherwise; the CPUs a cgroup quota allows."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from test_stat_cache import tick_past
from test_workers import sources_with

import chunker.workers as workers
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings
from chunker.stat_cache import StatCache
from chunker.workers import AUTO_JOBS_MAX, AUTO_MIN_BYTES, AUTO_MIN_DOCUMENTS, auto_jobs, cgroup_cpus

SETTINGS = Settings(defaults=ChunkerConfig())


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of workers each pool of the run started (chunker.workers.run_in_workers's ``jobs``)."""
    import chunker.runner_workers as runner_workers

    pools: list[int] = []
    real = runner_workers.run_in_workers

    def counted(fn: object, work: object, order: object, jobs: int, *args: object) -> object:
        pools.append(jobs)
        return real(fn, work, order, jobs, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_workers, "run_in_workers", counted)
    monkeypatch.setattr(workers, "usable_cpus", lambda: 2)
    return pools


def artifacts(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("chunks.json"))}


@pytest.mark.parametrize(
    ("cpus", "size", "documents", "expected"),
    [
        (8, AUTO_MIN_BYTES - 1, 10, 1),  # too little: this process
        (8, AUTO_MIN_BYTES, 10, 8),
        (8, AUTO_MIN_BYTES, 3, 3),  # never more workers than documents
        (4, 0, AUTO_MIN_DOCUMENTS, 4),  # many small documents
        (64, 10 * AUTO_MIN_BYTES, 1000, AUTO_JOBS_MAX),
        (8, 10 * AUTO_MIN_BYTES, 1, 1),  # one document: no worker
        (1, 10 * AUTO_MIN_BYTES, 100, 1),
    ],
)
def test_auto_jobs_start_workers_only_for_enough_work(cpus: int, size: int, documents: int, expected: int) -> None:
    assert auto_jobs(cpus, size, documents) == expected


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"cpu.max": "200000 100000\n"}, 2),
        ({"cpu.max": "150000 100000\n"}, 2),  # 1.5 CPUs: rounded up
        ({"cpu.max": "50000 100000\n"}, 1),
        ({"cpu.max": "max 100000\n"}, None),  # no quota
        ({"cpu/cpu.cfs_quota_us": "300000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 3),  # cgroup v1
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
        ({"cpu.max": "garbage"}, None),
        ({}, None),
    ],
)
def test_the_cgroup_quota_bounds_the_cpus(tmp_path: Path, files: dict[str, str], expected: int | None) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="ascii")
    assert cgroup_cpus(str(tmp_path)) == expected


def test_a_small_run_without_jobs_starts_no_worker(tmp_path: Path, started: list[int]) -> None:
    sources = sources_with(tmp_path, 4)
    summary = run(SETTINGS, sources, tmp_path / "chunks", jobs=None)
    assert summary.exit_code == 0 and len(summary.documents) == 4
    assert started == []


def test_a_large_run_without_jobs_uses_a_worker_per_cpu_and_writes_what_one_process_writes(
    tmp_path: Path, started: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = sources_with(tmp_path, 6, repeat=3)
    monkeypatch.setattr(workers, "AUTO_MIN_BYTES", 1)  # six small documents count as a large run
    summary = run(SETTINGS, sources, tmp_path / "auto", jobs=None)
    assert summary.exit_code == 0
    assert started == [2]
    assert run(SETTINGS, sources, tmp_path / "serial", jobs=1).exit_code == 0
    assert artifacts(tmp_path / "auto") == artifacts(tmp_path / "serial")
    assert len(artifacts(tmp_path / "auto")) == 6


def test_an_incremental_run_with_one_changed_document_chunks_it_without_a_worker(
    tmp_path: Path, started: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = StatCache._add_written

    def later(self: StatCache) -> None:  # what the run wrote is recorded, not racy (tests/test_stat_cache_writes.py)
        tick_past(self.out_dir)
        real(self)

    monkeypatch.setattr(StatCache, "_add_written", later)
    sources = sources_with(tmp_path, 6)
    out = tmp_path / "chunks"
    tick_past(sources)
    assert run(SETTINGS, sources, out, jobs=1).exit_code == 0
    monkeypatch.setattr(workers, "AUTO_MIN_DOCUMENTS", 6)  # the run counts as large by its documents
    (sources / "d3.md").write_text("# D3\n\n## Changed\n\nNew text of the third document.\n", encoding="utf-8")
    tick_past(sources)
    summary = run(SETTINGS, sources, out, jobs=None)
    assert {d.stem: d.status for d in summary.documents if d.status != "unchanged"} == {"d3": "changed"}
    assert started == []  # the one document left is chunked in the run's process
    assert run(SETTINGS, sources, tmp_path / "serial", jobs=1).exit_code == 0
    assert artifacts(out) == artifacts(tmp_path / "serial")


def refusing_forks(monkeypatch: pytest.MonkeyPatch, allowed: int) -> list[int]:
    """Let ``allowed`` workers start, then refuse new processes as a process limit does (EAGAIN)."""
    real = workers._Worker.__init__
    started: list[int] = []

    def limited(self: workers._Worker, *args: Any, **kwargs: Any) -> None:
        if len(started) >= allowed:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        real(self, *args, **kwargs)
        started.append(self.process.pid or 0)

    monkeypatch.setattr(workers._Worker, "__init__", limited)
    return started


@pytest.mark.parametrize("jobs", [2, None])
def test_a_run_whose_workers_cannot_start_chunks_in_its_own_process_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int | None
) -> None:
    sources = sources_with(tmp_path, 5)
    monkeypatch.setattr(workers, "usable_cpus", lambda: 2)
    monkeypatch.setattr(workers, "AUTO_MIN_BYTES", 1)
    refusing_forks(monkeypatch, allowed=0)
    summary = run(SETTINGS, sources, tmp_path / "refused", jobs=jobs)
    assert summary.exit_code == 0 and [d.status for d in summary.documents] == ["new"] * 5
    assert any("no worker process could be started (Resource temporarily unavailable)" in n for n in summary.warnings)
    assert run(SETTINGS, sources, tmp_path / "serial", jobs=1).exit_code == 0
    assert artifacts(tmp_path / "refused") == artifacts(tmp_path / "serial")


def test_a_run_that_gets_fewer_workers_than_asked_goes_on_with_those_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = sources_with(tmp_path, 5)
    started = refusing_forks(monkeypatch, allowed=1)
    summary = run(SETTINGS, sources, tmp_path / "chunks", jobs=2, force_jobs=True)
    assert summary.exit_code == 0 and [d.status for d in summary.documents] == ["new"] * 5
    assert len(started) == 1 and not summary.warnings  # one worker chunked all five
