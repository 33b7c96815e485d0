"""The ``full`` durability of a run with one sync per batch of documents (chunker/writer_batch.py):
nothing is renamed before its data is synced, a flush of many files syncs the file system once,
a rename failing at a flush fails its document alone, and a stopped run renames nothing."""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

import chunker.writer
import chunker.writer_batch
from chunker.config import ChunkerConfig
from chunker.errors import EXIT_OUTPUT
from chunker.runner import run
from chunker.settings import Settings
from chunker.writer import run_lock, write_document
from chunker.writer_batch import MIN_SYNCFS_FILES, SyncBatch

NAMES = ("chunks.json", "meta.json", "report.json")
needs_syncfs = pytest.mark.skipif(
    not chunker.writer_batch._syncfs_reports_errors(), reason="syncfs reports write errors on Linux 5.8+ only"
)


def artifact_set(tag: str) -> dict[str, bytes]:
    chunks = json.dumps([{"chunk_id": f"{tag}-{i}", "text": tag * 50} for i in range(3)]).encode()
    meta = json.dumps({"tag": tag}).encode()
    report = json.dumps({"tag": tag, "chunks": hashlib.sha256(chunks).hexdigest()}).encode()
    return {"chunks.json": chunks, "meta.json": meta, "report.json": report}


def tag_of(folder: Path) -> str | None:
    files = {n: (folder / n).read_bytes() for n in NAMES if (folder / n).exists()}
    if not files:
        return None
    assert sorted(files) == sorted(NAMES)
    tags = {json.loads(data)["tag"] for name, data in files.items() if name != "chunks.json"}
    assert len(tags) == 1
    tag: str = tags.pop()
    assert hashlib.sha256(files["chunks.json"]).hexdigest() == json.loads(files["report.json"])["chunks"]
    return tag


def temporary(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp")) if folder.is_dir() else []


@pytest.fixture
def syncfs_calls(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """``syncfs`` recorded, not done (nothing here needs the data on disk)."""
    calls: list[Path] = []

    def recording(fd: int) -> bool:
        calls.append(Path(os.readlink(f"/proc/self/fd/{fd}")))
        return True

    monkeypatch.setattr(chunker.writer_batch, "_syncfs", recording)
    return calls


def test_batched_artifacts_are_renamed_only_at_the_flush_after_each_file_is_synced(
    tmp_path: Path, fsyncs: list[int], syncfs_calls: list[Path]
) -> None:
    out = tmp_path / "chunks"
    with run_lock(out, "chunks"):
        write_document(out / "a", artifact_set("old"), "chunks/a", run_locked=True)
        fsyncs.clear()
        batch = SyncBatch(out)
        write_document(out / "a", artifact_set("new"), "chunks/a", run_locked=True, batch=batch)
        write_document(out / "b", artifact_set("b"), "chunks/b", run_locked=True, batch=batch)
        assert (tag_of(out / "a"), tag_of(out / "b")) == ("old", None)  # nothing renamed yet
        assert len(temporary(out / "a")) == len(temporary(out / "b")) == 3
        assert fsyncs == [] and len(batch) == 2
        assert batch.flush() == {}
        assert len(fsyncs) == 6 and syncfs_calls == []  # few files: synced one by one, not the file system
        assert not batch.synced_file_system
    assert (tag_of(out / "a"), tag_of(out / "b")) == ("new", "b")
    assert temporary(out / "a") == temporary(out / "b") == []


@needs_syncfs
def test_a_flush_of_many_files_syncs_the_file_system_once_and_no_file(
    tmp_path: Path, fsyncs: list[int], syncfs_calls: list[Path]
) -> None:
    out = tmp_path / "chunks"
    count = MIN_SYNCFS_FILES // 3 + 1
    with run_lock(out, "chunks"):
        batch = SyncBatch(out)
        for n in range(count):
            write_document(out / f"d{n}", artifact_set(f"t{n}"), f"chunks/d{n}", run_locked=True, batch=batch)
        assert batch.flush() == {}
    assert syncfs_calls == [out] and fsyncs == []
    assert batch.synced_file_system
    assert [tag_of(out / f"d{n}") for n in range(count)] == [f"t{n}" for n in range(count)]


@needs_syncfs
def test_a_write_error_that_syncfs_reports_makes_the_flush_fsync_each_file(
    tmp_path: Path, fsyncs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is opened when the batch is made, before any file is staged (a syncfs reports the
    errors since); an error it reports, maybe another program's, is told apart by an fsync of each."""
    out = tmp_path / "chunks"
    seen: list[int] = []
    with run_lock(out, "chunks"):
        batch = SyncBatch(out)
        opened = batch._fd
        assert opened is not None
        monkeypatch.setattr(chunker.writer_batch, "_syncfs", lambda fd: seen.append(fd) or False)
        count = MIN_SYNCFS_FILES // 3 + 1
        for n in range(count):
            write_document(out / f"d{n}", artifact_set(f"t{n}"), f"chunks/d{n}", run_locked=True, batch=batch)
        assert batch.flush() == {}
        batch.close()
    assert seen == [opened] and len(fsyncs) == 3 * count
    assert not batch.synced_file_system
    assert [tag_of(out / f"d{n}") for n in range(count)] == [f"t{n}" for n in range(count)]


def test_a_discarded_batch_renames_nothing_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "chunks"
    with run_lock(out, "chunks"):
        write_document(out / "a", artifact_set("old"), "chunks/a", run_locked=True)
        batch = SyncBatch(out)
        write_document(out / "a", artifact_set("new"), "chunks/a", run_locked=True, batch=batch)
        batch.discard()
        assert batch.flush() == {}
    assert tag_of(out / "a") == "old"
    assert temporary(out / "a") == []


def test_a_batch_left_by_an_exception_discards_what_it_held_and_closes(tmp_path: Path) -> None:
    """The batch as the context of the work staging into it (the run, the workers' run, the
    export): an exception discards the staged files, renaming none, and closes the folder."""
    out = tmp_path / "chunks"
    with run_lock(out, "chunks"):
        write_document(out / "a", artifact_set("old"), "chunks/a", run_locked=True)
        with pytest.raises(KeyboardInterrupt), SyncBatch(out) as batch:
            write_document(out / "a", artifact_set("new"), "chunks/a", run_locked=True, batch=batch)
            raise KeyboardInterrupt
        assert len(batch) == 0 and batch.flush() == {}
        assert batch._fd is None
    assert tag_of(out / "a") == "old"
    assert temporary(out / "a") == []


SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))


def make_sources(tmp_path: Path, count: int) -> Path:
    sources = tmp_path / "sources"
    sources.mkdir()
    for n in range(count):
        (sources / f"d{n:02}.md").write_text(f"# Doc {n}\n\n## Part\n\nText {n} of the document.\n", encoding="utf-8")
    return sources


@needs_syncfs
def test_a_full_run_in_one_process_syncs_the_file_system_and_no_single_file(
    tmp_path: Path, fsyncs: list[int], syncfs_calls: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ends: list[Path] = []
    monkeypatch.setattr(chunker.writer, "_sync_file_system", lambda out_dir: ends.append(out_dir))
    count = MIN_SYNCFS_FILES // 3 + 2
    sources, out = make_sources(tmp_path, count), tmp_path / "chunks"
    summary = run(SETTINGS, sources, out)
    assert summary.exit_code == 0
    assert [d.status for d in summary.documents] == ["new"] * count
    assert syncfs_calls == [out] and ends == [out]  # the batch's data, then the renames
    assert fsyncs == []
    assert all((out / f"d{n:02}" / "report.json").is_file() for n in range(count))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_rename_failing_at_the_flush_fails_its_document_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    sources, out = make_sources(tmp_path, 4), tmp_path / "chunks"
    real = os.replace

    def failing(src: Any, dst: Any) -> None:
        if Path(dst).parent.name == "d01":
            raise OSError(errno.EIO, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)  # in this process: with workers, the renames are its own too
    summary = run(SETTINGS, sources, out, jobs=jobs, force_jobs=True)
    outcome = {d.stem: d for d in summary.documents}
    assert outcome["d01"].status == "failed" and outcome["d01"].exit_code == EXIT_OUTPUT
    assert "d01/chunks.json" in outcome["d01"].message
    assert [outcome[s].status for s in ("d00", "d02", "d03")] == ["new"] * 3
    assert summary.exit_code == EXIT_OUTPUT
    assert not (out / "d01" / "report.json").exists() and temporary(out / "d01") == []
    assert all((out / s / "report.json").is_file() for s in ("d00", "d02", "d03"))


@needs_syncfs
def test_a_full_run_with_workers_syncs_once_in_the_parent_and_no_process_fsyncs_a_file(
    tmp_path: Path, syncfs_calls: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the workers see the patched os.fsync only when forked")
    log = tmp_path / "fsyncs.log"  # written by every process, workers too
    real = os.fsync

    def logged(fd: int) -> None:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        real(fd)

    monkeypatch.setattr(os, "fsync", logged)
    ends: list[Path] = []
    monkeypatch.setattr(chunker.writer, "_sync_file_system", lambda out_dir: ends.append(out_dir))
    count = MIN_SYNCFS_FILES // 3 + 2
    sources, out = make_sources(tmp_path, count), tmp_path / "chunks"
    summary = run(SETTINGS, sources, out, jobs=2, force_jobs=True)
    assert summary.exit_code == 0
    assert [d.status for d in summary.documents] == ["new"] * count
    assert syncfs_calls == [out] and ends == [out]  # the staged data of all workers, then the renames
    assert not log.exists()  # neither the parent nor a worker synced a file of its own
    for n in range(count):
        assert (out / f"d{n:02}" / "report.json").is_file() and temporary(out / f"d{n:02}") == []
