"""A run trusts a chunks.json it does not read only by the stat a run recorded after hashing it
(chunker/stat_cache.py): any edit, a same-size one with its mtime put back included, is caught."""

from __future__ import annotations

import builtins
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from chunker import stat_cache
from chunker.config import ChunkerConfig
from chunker.output_tree import document_folders
from chunker.runner import run
from chunker.settings import Settings
from chunker.stat_cache import CACHE_NAME, TEMPORARY_NAME, StatCache
from chunker.summary import RunSummary

SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))
GUIDE = "# Guide\n\n## Install\n\nRun the installer and wait.\n\n## Usage\n\nCall the tool.\n"
OTHER = "# Other\n\nAnother page with its own words.\n"

pytestmark = pytest.mark.skipif(stat_cache.boot_id() is None, reason="no boot id: the cache is never used")


def setup(tmp_path: Path) -> tuple[Path, Path]:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "g.md").write_text(GUIDE, encoding="utf-8")
    (sources / "o.md").write_text(OTHER, encoding="utf-8")
    return sources, tmp_path / "chunks"


def full_run(sources: Path, out: Path, **kwargs: Any) -> RunSummary:
    return run(SETTINGS, sources, out, **kwargs)


def tick_past(root: Path) -> None:
    """Wait until the file system's clock has passed the ctime of every file below ``root``: a run
    started now records what it hashes (its floor is newer than every ctime)."""
    newest = max(p.lstat().st_ctime_ns for p in [root, *root.rglob("*")])
    probe = root.parent / "clock-probe"
    for _ in range(5000):
        probe.unlink(missing_ok=True)
        probe.write_bytes(b"")
        if probe.lstat().st_ctime_ns > newest:
            return
        time.sleep(0.001)
    raise AssertionError("the file system's clock did not advance")


def recorded_run(tmp_path: Path) -> tuple[Path, Path]:
    """Sources and an output folder whose chunks.json files a run hashed and recorded."""
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0  # writes (records what it wrote, unless racy)
    tick_past(out)
    assert full_run(sources, out).exit_code == 0  # hashes what it did not record, records it
    tick_past(out)
    return sources, out


def cache_entries(out: Path, kind: str = "chunks") -> dict[str, list[Any]]:
    entries: dict[str, list[Any]] = orjson.loads((out / CACHE_NAME).read_bytes())[kind]
    return entries


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files opened while the test runs (builtins.open, Path.read_bytes, os.open)."""
    found: list[str] = []
    real_open, real_read_bytes, real_os_open = builtins.open, Path.read_bytes, os.open

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        found.append(str(file))
        return real_open(file, *args, **kwargs)

    def spy_read_bytes(self: Path) -> bytes:
        found.append(str(self))
        return real_read_bytes(self)

    def spy_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        found.append(str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(Path, "read_bytes", spy_read_bytes)
    monkeypatch.setattr(os, "open", spy_os_open)
    yield found


class Reads(list[str]):
    """The opened files whose name ends with ``suffix``; ``clear()`` clears them all."""

    def __init__(self, found: list[str], suffix: str) -> None:
        super().__init__()
        self.found, self.suffix = found, suffix

    def clear(self) -> None:
        self.found.clear()

    def __eq__(self, other: object) -> bool:
        return [p for p in self.found if p.endswith(self.suffix)] == other

    def __len__(self) -> int:
        return len([p for p in self.found if p.endswith(self.suffix)])


@pytest.fixture
def chunks_reads(opened: list[str]) -> Reads:
    """The chunks.json files opened while the test runs."""
    return Reads(opened, "chunks.json")


@pytest.fixture
def source_reads(opened: list[str]) -> Reads:
    """The sources opened while the test runs."""
    return Reads(opened, ".md")


def test_a_no_op_run_trusts_a_chunks_json_by_the_stat_a_run_recorded_after_hashing_it(
    tmp_path: Path, chunks_reads: Reads
) -> None:
    sources, out = recorded_run(tmp_path)
    entries = cache_entries(out)
    for stem in ("g", "o"):
        report = orjson.loads((out / stem / "report.json").read_bytes())
        st = (out / stem / "chunks.json").stat()
        assert entries[stem] == [report["artifacts"]["chunks.json"], st.st_size, st.st_mtime_ns, st.st_ctime_ns,
                                 st.st_ino, st.st_dev]  # fmt: skip
    chunks_reads.clear()
    before = (out / CACHE_NAME).stat()
    summary = full_run(sources, out)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert chunks_reads == []  # was both chunks.json, read and hashed again
    assert (out / CACHE_NAME).stat().st_ino == before.st_ino  # nothing changed: not rewritten
    assert not (out / TEMPORARY_NAME).exists()


@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_a_same_size_edit_with_its_mtime_put_back_is_caught(tmp_path: Path, chunks_reads: Reads, how: str) -> None:
    sources, out = recorded_run(tmp_path)
    path = out / "g" / "chunks.json"
    good, st = path.read_bytes(), path.stat()
    edited = good.replace(b"installer", b"INSTALLER")  # same size, text not in the source
    assert edited != good and len(edited) == len(good)
    if how == "in place":
        with open(path, "r+b") as fh:
            fh.write(edited)
    else:
        other = path.with_name("edited")
        other.write_bytes(edited)
        os.replace(other, path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    chunks_reads.clear()
    summary = full_run(sources, out)
    assert chunks_reads == [str(path)]  # hashed: its stat is not the recorded one
    assert {d.stem: d.status for d in summary.documents} == {"g": "changed", "o": "unchanged"}
    assert path.read_bytes() == good  # repaired


def test_a_file_changed_in_the_tick_of_its_stat_is_not_recorded(tmp_path: Path) -> None:
    out = tmp_path / "chunks"
    out.mkdir()
    old = out / "old"
    old.write_bytes(b"x")
    tick_past(out)
    cache = StatCache.open(out)
    assert cache is not None
    new = out / "new"
    new.write_bytes(b"y")  # after the cache's floor: a change in the same tick would keep this stat
    cache.record("chunks", "old", old.stat(), "a" * 64)
    cache.record("chunks", "new", new.stat(), "b" * 64)
    assert set(cache.new["chunks"]) == {"old"}
    future = old.stat().st_mtime_ns + 10**12
    os.utime(old, ns=(future, future))  # an mtime set ahead is never older than the floor
    cache.record("chunks", "old", old.stat(), "a" * 64)
    assert cache.new["chunks"] == {}
    cache.close()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: b"{not json",
        lambda data: data.replace(b'"boot":"', b'"boot":"another-'),
        lambda data: data.replace(b'"version":"', b'"version":"0.0.0-'),
        lambda data: data.replace(b'"format":2', b'"format":1'),
        lambda data: data.replace(b'",', b'",-', 1),  # one entry's stat is not all integers
    ],
    ids=["corrupt", "another boot", "another version", "another format", "a bad entry"],
)
def test_a_cache_that_is_corrupt_or_of_another_boot_or_version_is_ignored_and_rebuilt(
    tmp_path: Path, chunks_reads: Reads, spoil: Any
) -> None:
    sources, out = recorded_run(tmp_path)
    good = cache_entries(out)
    cache = out / CACHE_NAME
    cache.write_bytes(spoil(cache.read_bytes()))
    tick_past(out)
    chunks_reads.clear()
    summary = full_run(sources, out)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert len(chunks_reads) == 2  # trusted by content again
    assert cache_entries(out) == good  # rebuilt: the same files, the same stats


def test_an_entry_for_another_content_than_report_json_records_is_not_trusted(
    tmp_path: Path, chunks_reads: Reads
) -> None:
    sources, out = recorded_run(tmp_path)
    cache = out / CACHE_NAME
    data = orjson.loads(cache.read_bytes())
    data["chunks"]["g"][0] = "0" * 64
    cache.write_bytes(orjson.dumps(data))
    chunks_reads.clear()
    assert [d.status for d in full_run(sources, out).documents] == ["unchanged", "unchanged"]
    assert chunks_reads == [str(out / "g" / "chunks.json")]


def test_check_neither_trusts_nor_writes_the_cache(tmp_path: Path, chunks_reads: Reads) -> None:
    sources, out = recorded_run(tmp_path)
    cache = out / CACHE_NAME
    before = cache.read_bytes(), cache.stat()
    chunks_reads.clear()
    checked = full_run(sources, out, check=True)
    assert checked.exit_code == 0
    assert len(chunks_reads) == 2  # --check verifies by content
    assert (cache.read_bytes(), cache.stat()) == before
    assert not (out / TEMPORARY_NAME).exists()


def test_the_cache_is_no_document_folder_orphan_or_leftover(tmp_path: Path) -> None:
    sources, out = recorded_run(tmp_path)
    (out / TEMPORARY_NAME).write_bytes(b"left by a killed run")
    (sources / "o.md").unlink()
    summary = full_run(sources, out)
    assert {d.stem: d.status for d in summary.documents} == {"g": "unchanged", "o": "removed"}
    assert summary.warnings == ()
    assert document_folders(out) == ["g"]
    assert set(cache_entries(out)) == {"g"}  # the removed document's entry goes with it
    assert not (out / TEMPORARY_NAME).exists()
    checked = full_run(sources, out, check=True)
    assert checked.exit_code == 0 and checked.warnings == ()


def test_a_document_trusted_by_stat_whose_source_changed_counts_its_kept_chunks(tmp_path: Path) -> None:
    sources, out = recorded_run(tmp_path)
    (sources / "g.md").write_text(GUIDE + "\n## Remove\n\nDelete the tool.\n", encoding="utf-8")
    summary = full_run(sources, out)
    g = next(d for d in summary.documents if d.stem == "g")
    assert g.status == "changed"
    assert g.delta["unchanged"] >= 1 and g.delta["removed"] == 0  # compared with the old chunks.json, read


def test_a_run_with_workers_keeps_the_entries(tmp_path: Path) -> None:
    sources, out = recorded_run(tmp_path)
    entries = cache_entries(out)
    summary = full_run(sources, out, jobs=2, force_jobs=True)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert cache_entries(out) == entries


def test_a_no_op_run_reads_no_source_whose_stat_a_run_recorded_after_hashing_it(
    tmp_path: Path, source_reads: Reads
) -> None:
    sources, out = recorded_run(tmp_path)
    recorded = cache_entries(out, "sources")
    for stem in ("g", "o"):
        meta = orjson.loads((out / stem / "meta.json").read_bytes())
        assert recorded[stem][0] == meta["source_sha256"]
    source_reads.clear()
    summary = full_run(sources, out)
    assert [d.status for d in summary.documents] == ["unchanged", "unchanged"]
    assert source_reads == []  # was both sources, read and hashed again


@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_a_same_size_edit_of_a_source_with_its_mtime_put_back_is_chunked(
    tmp_path: Path, source_reads: Reads, how: str
) -> None:
    sources, out = recorded_run(tmp_path)
    path = sources / "g.md"
    st = path.stat()
    edited = GUIDE.replace("wait", "WAIT").encode()
    if how == "in place":
        with open(path, "r+b") as fh:
            fh.write(edited)
    else:
        (sources / "edited").write_bytes(edited)
        os.replace(sources / "edited", path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    source_reads.clear()
    summary = full_run(sources, out)
    assert source_reads == [str(path)]
    assert {d.stem: d.status for d in summary.documents} == {"g": "changed", "o": "unchanged"}
    assert b"WAIT" in (out / "g" / "chunks.json").read_bytes()


def test_a_recorded_source_over_max_file_bytes_fails_as_when_it_is_read(tmp_path: Path) -> None:
    sources, out = recorded_run(tmp_path)
    small = Settings(defaults=ChunkerConfig(min_chars=1, max_file_bytes=len(OTHER.encode())))
    summary = run(small, sources, out)  # max_file_bytes is not in the fingerprint
    assert {d.stem: d.status for d in summary.documents} == {"g": "failed", "o": "unchanged"}
    assert "more than the limit" in next(d for d in summary.documents if d.stem == "g").message


def test_nothing_is_recorded_or_trusted_on_a_file_system_whose_ctime_is_no_change_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks_reads: Reads
) -> None:
    dev = tmp_path.stat().st_dev
    mounts = tmp_path / "mountinfo"
    mounts.write_text(
        "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
        f"36 35 {os.major(dev)}:{os.minor(dev)} / /media/stick rw,relatime - vfat /dev/sdb1 rw,fmask=0022\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(stat_cache, "_MOUNTS", mounts)
    assert stat_cache.untrusted_devices() == {dev}
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    tick_past(out)
    assert full_run(sources, out).exit_code == 0
    tick_past(out)
    assert not (out / CACHE_NAME).exists()  # nothing recorded
    chunks_reads.clear()
    assert [d.status for d in full_run(sources, out).documents] == ["unchanged", "unchanged"]
    assert len(chunks_reads) == 2  # hashed, as without the cache
