"""A run records the chunks.json files it writes and the sources it reads (chunker/stat_cache.py,
git's racy-index rule), so the first no-op run after a build reads neither; a file changed after
the build, by a same-size edit with its mtime put back too, is still caught. ``--jobs`` workers
look up and record the stat cache as a run in one process does."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from test_stat_cache import (  # the helpers and spies of the cache's first tests
    GUIDE,
    SETTINGS,
    Reads,
    cache_entries,
    chunks_reads,
    full_run,
    opened,
    setup,
    source_reads,
    tick_past,
)

from chunker import stat_cache
from chunker.runner import run
from chunker.stat_cache import CACHE_NAME, TEMPORARY_NAME, StatCache, witness, witnessed
from chunker.writer import Durability

__all__ = ["chunks_reads", "opened", "source_reads"]  # fixtures, used by name

pytestmark = pytest.mark.skipif(stat_cache.boot_id() is None, reason="no boot id: the cache is never used")

JOBS = [pytest.param({}, id="one process"), pytest.param({"jobs": 2, "force_jobs": True}, id="--jobs 2")]
DURABILITIES = ["full", "run"]  # full: renamed at the batch's flush; run: renamed as written


@pytest.fixture(autouse=True)
def ends_a_tick_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs whose end falls in a later tick of the file system's clock than their last rename, as
    a run of more than a few documents does: what they wrote is recorded (in the same tick it is
    racy and left out, :func:`test_an_entry_of_a_write_as_new_as_the_end_of_the_run_is_left_out`)."""
    real = StatCache._add_written

    def later(self: StatCache) -> None:
        tick_past(self.out_dir)
        real(self)

    monkeypatch.setattr(StatCache, "_add_written", later)


def built(tmp_path: Path, **kwargs: Any) -> tuple[Path, Path]:
    """Sources (older than the run: not racy) and a fresh output folder a run has just written."""
    sources, out = setup(tmp_path)
    tick_past(sources)
    summary = full_run(sources, out, **kwargs)
    assert [d.status for d in summary.documents] == ["new", "new"]
    return sources, out


@pytest.mark.parametrize("durability", DURABILITIES)
@pytest.mark.parametrize("jobs", JOBS)
def test_the_first_no_op_after_a_build_reads_no_chunks_json_and_no_source(
    tmp_path: Path, chunks_reads: Reads, source_reads: Reads, jobs: dict[str, Any], durability: str
) -> None:
    sources, out = built(tmp_path, durability=durability, **jobs)
    for stem in ("g", "o"):  # recorded from the write: the stat after the rename, the sha256 written
        report = orjson.loads((out / stem / "report.json").read_bytes())
        meta = orjson.loads((out / stem / "meta.json").read_bytes())
        st = (out / stem / "chunks.json").stat()
        assert cache_entries(out)[stem] == [report["artifacts"]["chunks.json"], st.st_size, st.st_mtime_ns,
                                            st.st_ctime_ns, st.st_ino, st.st_dev]  # fmt: skip
        assert cache_entries(out, "sources")[stem][0] == meta["source_sha256"]
    chunks_reads.clear()
    summary = full_run(sources, out)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert chunks_reads == []  # was both chunks.json, hashed: the build recorded nothing
    assert source_reads == []
    assert not (out / TEMPORARY_NAME).exists()


@pytest.mark.parametrize("jobs", JOBS)
def test_the_first_no_op_after_a_forced_run_over_changed_sources_reads_no_chunks_json(
    tmp_path: Path, chunks_reads: Reads, jobs: dict[str, Any]
) -> None:
    sources, out = built(tmp_path)
    (sources / "g.md").write_text(GUIDE + "\n## Remove\n\nDelete the tool.\n", encoding="utf-8")
    tick_past(sources)
    summary = full_run(sources, out, force=True, **jobs)
    assert {d.stem: d.status for d in summary.documents} == {"g": "changed", "o": "rebuilt"}
    chunks_reads.clear()
    assert [d.status for d in full_run(sources, out, **jobs).documents] == ["unchanged", "unchanged"]
    if not jobs:  # the workers' reads are not seen here: see the forged entry below
        assert chunks_reads == []


@pytest.mark.parametrize("what", ["chunks.json", "source"])
@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_a_same_size_edit_with_its_mtime_put_back_right_after_a_build_is_caught(
    tmp_path: Path, chunks_reads: Reads, source_reads: Reads, how: str, what: str
) -> None:
    sources, out = built(tmp_path)
    path = out / "g" / "chunks.json" if what == "chunks.json" else sources / "g.md"
    assert "g" in cache_entries(out, "chunks" if what == "chunks.json" else "sources")  # recorded by the build
    good, st = path.read_bytes(), path.stat()
    edited = good.replace(b"installer", b"INSTALLER")  # same size
    assert edited != good and len(edited) == len(good)
    if how == "in place":  # in the clock tick of the build's end, as a rule: the racy case
        with open(path, "r+b") as fh:
            fh.write(edited)
    else:
        (path.parent / "edited").write_bytes(edited)
        os.replace(path.parent / "edited", path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    chunks_reads.clear()
    summary = full_run(sources, out)
    reads = chunks_reads if what == "chunks.json" else source_reads
    assert reads == [str(path)]  # hashed: its stat is not the recorded one
    assert {d.stem: d.status for d in summary.documents} == {"g": "changed", "o": "unchanged"}
    if what == "chunks.json":
        assert path.read_bytes() == good  # repaired
    else:
        assert b"INSTALLER" in (out / "g" / "chunks.json").read_bytes()


def test_an_entry_of_a_write_as_new_as_the_end_of_the_run_is_left_out(tmp_path: Path) -> None:
    """git's racy rule: a file whose ctime or mtime is not older than the file system's time when
    the cache is written could change in that tick without a new stat; it is hashed next time."""
    out = tmp_path / "chunks"
    out.mkdir()
    (out / "old").write_bytes(b"x")
    cache = StatCache.open(out)
    assert cache is not None
    old = witnessed(out / "old", ("a" * 64, 1, (out / "old").stat().st_mtime_ns, (out / "old").stat().st_ino))
    assert old is not None
    ahead = (old[0], (old[1][0], old[1][1], old[1][2] + 10**15, old[1][3], old[1][4]))  # a ctime not yet past
    cache.wrote("chunks", "old", old)
    cache.wrote("chunks", "ahead", ahead)
    cache.close()
    assert cache_entries(out) == {"old": [old[0], *old[1]]}


def test_a_write_is_recorded_only_while_the_file_is_the_one_written(tmp_path: Path) -> None:
    path = tmp_path / "chunks.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"[1]")
    seen = witness(fd, "a" * 64)
    os.close(fd)
    assert seen is not None
    st = path.stat()
    assert witnessed(path, seen) == ("a" * 64, stat_cache.stat_key(st))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # written again: the mtime moved
    assert witnessed(path, seen) is None
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    (tmp_path / "other").write_bytes(b"[2]")
    os.utime(tmp_path / "other", ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp_path / "other", path)  # same size and mtime, another inode
    assert witnessed(path, seen) is None
    path.unlink()
    path.mkdir()
    assert witnessed(path, seen) is None


def test_workers_trust_the_stat_the_cache_records(tmp_path: Path) -> None:
    """A forged entry (the stat of an edited chunks.json with the sha256 of the good one) shows
    which runs look the cache up: a worker that does takes the edited file as good (as a run in one
    process does); one that hashes would repair it."""
    sources, out = built(tmp_path)
    path = out / "g" / "chunks.json"
    good = path.read_bytes()
    path.write_bytes(good.replace(b"installer", b"INSTALLER"))
    data = orjson.loads((out / CACHE_NAME).read_bytes())
    data["chunks"]["g"][1:] = list(stat_cache.stat_key(path.stat()))
    (out / CACHE_NAME).write_bytes(orjson.dumps(data))
    tick_past(out)
    summary = full_run(sources, out, jobs=2, force_jobs=True)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert b"INSTALLER" in path.read_bytes()  # trusted by its stat: not read
    assert full_run(sources, out, force=True).exit_code == 0  # --force reads every file
    assert path.read_bytes() == good


@pytest.mark.parametrize("durability", DURABILITIES)
def test_a_run_with_workers_records_what_a_run_in_one_process_records(tmp_path: Path, durability: Durability) -> None:
    one = tmp_path / "one"
    two = tmp_path / "two"
    one.mkdir()
    two.mkdir()
    sources, out1 = built(one, durability=durability)
    _, out2 = setup(two)
    summary = run(SETTINGS, sources, out2, jobs=2, force_jobs=True, durability=durability)
    assert [d.status for d in summary.documents] == ["new", "new"]
    for kind in ("chunks", "sources"):
        first, second = cache_entries(out1, kind), cache_entries(out2, kind)
        assert {k: v[:2] for k, v in first.items()} == {k: v[:2] for k, v in second.items()}  # sha256, size
    for stem in ("g", "o"):
        assert (out1 / stem / "chunks.json").read_bytes() == (out2 / stem / "chunks.json").read_bytes()


def test_a_no_op_run_with_workers_starts_none_and_a_changed_document_goes_to_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks_reads: Reads
) -> None:
    import chunker.runner_workers as runner_workers

    sources, out = built(tmp_path, jobs=2, force_jobs=True)
    started: list[int] = []
    real = runner_workers.run_in_workers

    def counted(fn: Any, work: Any, *args: Any) -> Any:
        started.append(len(work))
        return real(fn, work, *args)

    monkeypatch.setattr(runner_workers, "run_in_workers", counted)
    chunks_reads.clear()
    summary = full_run(sources, out, jobs=2, force_jobs=True)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert started == [] and chunks_reads == []  # both unchanged by their stats, in the run's process
    (sources / "g.md").write_text(GUIDE + "\n## Remove\n\nDelete the tool.\n", encoding="utf-8")
    tick_past(sources)  # else changed in the tick the run starts in: racy, and hashed again next time
    summary = full_run(sources, out, jobs=2, force_jobs=True)
    assert [d.status for d in summary.documents] == ["changed", "unchanged"]
    assert started == [1]  # the changed one, in a worker
    assert [d.status for d in full_run(sources, out, jobs=2, force_jobs=True).documents] == ["unchanged"] * 2
    assert started == [1]


def test_an_option_outside_the_chunks_changed_restates_meta_json_in_the_runs_process_as_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunker.runner_workers as runner_workers
    from chunker.config import ChunkerConfig
    from chunker.settings import Settings

    monkeypatch.setattr(runner_workers, "run_in_workers", None)  # no worker may start
    stricter = Settings(defaults=ChunkerConfig(min_chars=1, fail_on_orphan_heading=True))
    metas = []
    for name, jobs in (("one", {}), ("two", {"jobs": 2, "force_jobs": True})):
        (tmp_path / name).mkdir()
        sources, out = built(tmp_path / name)
        tick_past(out)
        summary = run(stricter, sources, out, **jobs)  # type: ignore[arg-type]
        assert [(d.status, d.wrote) for d in summary.documents] == [("unchanged", True)] * 2
        meta = orjson.loads((out / "g" / "meta.json").read_bytes())
        assert meta["config"]["fail_on_orphan_heading"] is True
        report = orjson.loads((out / "g" / "report.json").read_bytes())
        assert report["artifacts"]["meta.json"] == hashlib.sha256((out / "g" / "meta.json").read_bytes()).hexdigest()
        metas.append({k: v for k, v in meta.items() if k not in ("created_at", "source_path")})
    assert metas[0] == metas[1]
