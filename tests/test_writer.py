"""Writing artifacts: atomic replace, failure at every step, locking, concurrency, refusals."""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import multiprocessing
import os
import re
import signal
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import chunker.writer
from chunker.errors import EXIT_OUTPUT, OutputError
from chunker.folder_removal import remove_folder
from chunker.writer import (
    LOCK_NAME,
    folder_lock,
    run_lock,
    sync_written,
    write_atomic,
    write_document,
)

CTX = multiprocessing.get_context("fork")
NAMES = ("chunks.json", "meta.json", "report.json")


def artifact_set(tag: str, size: int = 200) -> dict[str, bytes]:
    """Three JSON artifacts; report.json holds the sha256 of the other two, as the pipeline's does."""
    chunks = json.dumps([{"chunk_id": f"{tag}-{i}", "text": tag * size} for i in range(3)]).encode()
    meta = json.dumps({"tag": tag, "title": f"Document {tag}"}).encode()
    report = json.dumps(
        {
            "tag": tag,
            "sha256": {
                "chunks.json": hashlib.sha256(chunks).hexdigest(),
                "meta.json": hashlib.sha256(meta).hexdigest(),
            },
        }
    ).encode()
    return {"chunks.json": chunks, "meta.json": meta, "report.json": report}


def read_set(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in NAMES if (folder / name).exists()}


def assert_complete_set(folder: Path) -> str:
    """The folder holds one consistent set (report hashes match); return its tag."""
    files = read_set(folder)
    assert sorted(files) == sorted(NAMES)
    parsed = {name: json.loads(data) for name, data in files.items()}
    report = parsed["report.json"]
    for name in ("chunks.json", "meta.json"):
        assert hashlib.sha256(files[name]).hexdigest() == report["sha256"][name], name
    assert parsed["meta.json"]["tag"] == report["tag"]
    tag: str = report["tag"]
    return tag


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- write_atomic ---------------------------------------------------------------


def test_write_atomic_creates_and_replaces_a_file(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_write_atomic_gives_the_usual_file_permissions(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    write_atomic(target, b"{}")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask


def test_a_temporary_name_already_taken_is_skipped_and_left_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Temporary files are named by process id and a counter, created with O_EXCL: a file a killed
    run of the same process id left at the next name, or a symlink there, is neither written nor
    followed; the next number is taken."""
    monkeypatch.setattr(chunker.writer, "_temp_numbers", itertools.count())
    pid = os.getpid()
    stale = tmp_path / f".a.json.{pid}-0.tmp"
    stale.write_bytes(b"stale")
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"victim")
    (tmp_path / f".a.json.{pid}-1.tmp").symlink_to(victim)
    staged: list[str] = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (staged.append(os.path.basename(src)), real_replace(src, dst)))
    write_atomic(tmp_path / "a.json", b"new")
    assert staged == [f".a.json.{pid}-2.tmp"]
    assert (tmp_path / "a.json").read_bytes() == b"new"
    assert stale.read_bytes() == b"stale" and victim.read_bytes() == b"victim"


def test_write_atomic_writes_everything_when_the_os_writes_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, bytes(data)[:7]))
    write_atomic(tmp_path / "a.json", b"x" * 1000)
    assert (tmp_path / "a.json").read_bytes() == b"x" * 1000


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "disk full"),
        (errno.EDQUOT, "disk full"),
        (errno.EFBIG, "file too large"),
        (errno.EROFS, "not writable"),
        (errno.EACCES, "not writable"),
        (errno.EIO, "Input/output error"),
    ],
)
def test_write_errors_say_what_went_wrong_and_keep_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    target = tmp_path / "a.json"
    target.write_bytes(b"old")

    def fail(fd: int, data: bytes) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "write", fail)
    with pytest.raises(OutputError) as info:
        write_atomic(target, b"new", display="chunks/x/a.json")
    assert words in str(info.value)
    assert str(info.value).startswith("chunks/x/a.json: ")
    assert info.value.exit_code == EXIT_OUTPUT
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_a_folder_where_no_file_can_be_created_is_not_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(chunker.writer, "_create_temp", refuse)
    with pytest.raises(OutputError, match="not writable \\(read-only file system\\)"):
        write_atomic(tmp_path / "a.json", b"x")


def test_replacing_over_a_symlink_replaces_the_link_not_its_target(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("VICTIM ORIGINAL\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "chunks.json").symlink_to(victim)
    write_document(folder, artifact_set("new"), "chunks/out")
    assert victim.read_text() == "VICTIM ORIGINAL\n"
    assert not (folder / "chunks.json").is_symlink()
    assert assert_complete_set(folder) == "new"


# -- write_document -------------------------------------------------------------


def test_write_document_creates_the_folder_and_writes_every_artifact(tmp_path: Path) -> None:
    folder = tmp_path / "chunks" / "doc"
    write_document(folder, artifact_set("a"), "chunks/doc")
    assert assert_complete_set(folder) == "a"
    assert sorted(p.name for p in folder.iterdir()) == sorted([*NAMES, LOCK_NAME])


def test_report_json_is_renamed_last_whatever_the_order_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    renamed: list[str] = []
    real_replace = os.replace

    def spy(src: Any, dst: Any, **kwargs: Any) -> None:
        renamed.append(Path(dst).name)
        real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", spy)
    files = artifact_set("a")
    write_document(tmp_path / "doc", {"report.json": files["report.json"], **files}, "chunks/doc")
    assert renamed == ["chunks.json", "meta.json", "report.json"]


def test_stale_temporary_files_of_killed_runs_are_removed(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    folder.mkdir()
    (folder / ".chunks.json.abc123.tmp").write_bytes(b"[{trunc")
    (folder / "other.tmp").write_bytes(b"")
    write_document(folder, artifact_set("a"), "chunks/doc")
    assert leftovers(folder) == []
    assert_complete_set(folder)


@pytest.mark.parametrize("name", ["", ".", "..", "../x.json", "/abs.json", "sub/x.json", ".lock", "x.tmp", "a\x00b"])
def test_artifact_names_that_are_not_plain_file_names_are_refused(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "doc"
    with pytest.raises(OutputError, match="not a plain file name"):
        write_document(folder, {name: b"x"}, "chunks/doc")
    assert not folder.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_symlinked_output_folder_is_refused_and_nothing_is_written_through_it(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    chunks = tmp_path / "chunks"
    chunks.mkdir()
    (chunks / "doc").symlink_to(outside)
    with pytest.raises(OutputError, match="symlink"):
        write_document(chunks / "doc", artifact_set("a"), "chunks/doc")
    assert list(outside.iterdir()) == []


def test_a_symlinked_lock_file_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    folder.mkdir()
    target = tmp_path / "elsewhere.txt"
    (folder / LOCK_NAME).symlink_to(target)
    with pytest.raises(OutputError, match="symlink"):
        write_document(folder, artifact_set("a"), "chunks/doc")
    assert not target.exists()


def test_a_file_in_place_of_the_output_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "doc").write_text("not a folder\n")
    with pytest.raises(OutputError, match="not a folder"):
        write_document(tmp_path / "doc", artifact_set("a"), "chunks/doc")
    assert (tmp_path / "doc").read_text() == "not a folder\n"


def test_an_output_folder_below_a_file_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "chunks").write_text("a file")
    with pytest.raises(OutputError, match="cannot create the output folder") as info:
        write_document(tmp_path / "chunks" / "doc", artifact_set("a"), "chunks/doc")
    assert str(info.value).startswith("chunks/doc: ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_output_folder_is_reported_as_not_writable(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    write_document(folder, artifact_set("old"), "chunks/doc")
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="not writable"):
            write_document(folder, artifact_set("new"), "chunks/doc")
    finally:
        folder.chmod(0o700)
    assert assert_complete_set(folder) == "old"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_parent_folder_is_reported_as_not_writable(tmp_path: Path) -> None:
    chunks = tmp_path / "chunks"
    chunks.mkdir()
    chunks.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="not writable"):
            write_document(chunks / "doc", artifact_set("new"), "chunks/doc")
    finally:
        chunks.chmod(0o700)


# -- failure at every step --------------------------------------------------------


@contextmanager
def failing(monkeypatch: pytest.MonkeyPatch, name: str, at: int, code: int = errno.ENOSPC) -> Iterator[list[int]]:
    """Make ``os.<name>`` raise OSError(code) at its ``at``-th call (0: never); yields the call count.

    os.write also writes short (at most 64 bytes a call), so one file takes many writes.
    """
    real: Callable[..., Any] = getattr(os, name)
    calls = [0]

    def patched(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == at:
            raise OSError(code, os.strerror(code))
        if name == "write":
            fd, data = args
            return real(fd, bytes(data)[:64])
        return real(*args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(os, name, patched)
        yield calls


def count_calls(monkeypatch: pytest.MonkeyPatch, folder: Path, name: str) -> int:
    write_document(folder, artifact_set("old"), "chunks/doc")
    with failing(monkeypatch, name, 0) as calls:
        write_document(folder, artifact_set("new"), "chunks/doc")
    return calls[0]


@pytest.mark.parametrize("name", ["write", "fsync", "replace"])
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG])
def test_a_failure_at_every_call_keeps_the_previous_set_valid_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, code: int
) -> None:
    total = count_calls(monkeypatch, tmp_path / "count", name)
    assert total >= 3
    old, new = artifact_set("old"), artifact_set("new")
    for at in range(1, total + 1):
        folder = tmp_path / f"run{at}"
        write_document(folder, old, "chunks/doc")
        raised: OutputError | None = None
        with failing(monkeypatch, name, at, code):
            try:
                write_document(folder, new, "chunks/doc")
            except OutputError as exc:
                raised = exc
        assert leftovers(folder) == [], f"{name} #{at}"
        files = read_set(folder)
        assert sorted(files) == sorted(NAMES), f"{name} #{at}"
        for artifact, data in files.items():
            assert data in (old[artifact], new[artifact]), f"{name} #{at}: {artifact} is neither old nor new"
        if raised is None:
            # Only the best-effort fsync of the folder may fail without an error.
            assert name == "fsync", f"{name} #{at} failed silently"
            assert files == new
        else:
            assert ("disk full" if code == errno.ENOSPC else "file too large") in str(raised)
            assert files["report.json"] == old["report.json"], f"{name} #{at}: report.json must be renamed last"
            if name in ("write", "fsync"):
                assert files == old, f"{name} #{at}: a failed write must not touch the previous set"
        # The next run succeeds and leaves one complete set.
        write_document(folder, new, "chunks/doc")
        assert assert_complete_set(folder) == "new"


def _killed_writer(folder: str, at: int) -> None:
    """Child: write a new set, dying (like SIGKILL) at the ``at``-th os.write."""
    real_write = os.write
    calls = [0]

    def write(fd: int, data: bytes) -> int:
        calls[0] += 1
        if calls[0] == at:
            os.kill(os.getpid(), signal.SIGKILL)
        return real_write(fd, bytes(data)[:100])

    os.write = write  # type: ignore[assignment]
    write_document(Path(folder), artifact_set("new"), "chunks/doc")
    os._exit(0)


def test_a_run_killed_at_any_write_leaves_old_or_new_files_and_the_next_run_cleans_up(tmp_path: Path) -> None:
    old, new = artifact_set("old"), artifact_set("new")
    total = sum(-(-len(data) // 100) for data in new.values())
    for at in range(1, total + 2):
        folder = tmp_path / f"run{at}"
        write_document(folder, old, "chunks/doc")
        child = CTX.Process(target=_killed_writer, args=(str(folder), at))
        child.start()
        child.join(30)
        assert child.exitcode in (-signal.SIGKILL, 0)
        for artifact, data in read_set(folder).items():
            assert data in (old[artifact], new[artifact])
        write_document(folder, new, "chunks/doc")
        assert leftovers(folder) == []
        assert assert_complete_set(folder) == "new"


# -- locking and concurrency ------------------------------------------------------


def _hold_lock(folder: str, ready: Any, release: Any) -> None:
    with folder_lock(Path(folder), "chunks/doc"):
        ready.set()
        release.wait(30)


def test_a_held_lock_makes_another_run_fail_with_busy_after_the_timeout(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    ready, release = CTX.Event(), CTX.Event()
    holder = CTX.Process(target=_hold_lock, args=(str(folder), ready, release))
    holder.start()
    try:
        assert ready.wait(10)
        with pytest.raises(OutputError, match=re.escape("busy: another chunker run holds chunks/doc/.lock")) as info:
            write_document(folder, artifact_set("a"), "chunks/doc", timeout=0.3)
        assert info.value.exit_code == EXIT_OUTPUT
        assert not (folder / "chunks.json").exists()
    finally:
        release.set()
        holder.join(10)
    write_document(folder, artifact_set("a"), "chunks/doc", timeout=5)
    assert assert_complete_set(folder) == "a"


def test_a_run_waits_for_the_lock_and_then_writes(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    ready, release = CTX.Event(), CTX.Event()
    holder = CTX.Process(target=_hold_lock, args=(str(folder), ready, release))
    holder.start()
    assert ready.wait(10)
    timer = CTX.Process(target=_set_later, args=(release, 0.3))
    timer.start()
    write_document(folder, artifact_set("a"), "chunks/doc", timeout=10)
    holder.join(10)
    timer.join(10)
    assert assert_complete_set(folder) == "a"


def _set_later(event: Any, delay: float) -> None:
    import time

    time.sleep(delay)
    event.set()


def test_the_lock_is_reentrant_across_sequential_runs_and_the_lock_file_may_remain(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    with folder_lock(folder, "chunks/doc"):
        pass
    with folder_lock(folder, "chunks/doc", timeout=0):
        pass
    assert (folder / LOCK_NAME).exists()


def _write_tagged(folder: str, tag: str, start: Any) -> None:
    start.wait(10)
    write_document(Path(folder), artifact_set(tag, size=50_000), "chunks/doc")


def test_six_concurrent_writers_leave_one_complete_valid_set(tmp_path: Path) -> None:
    folder = tmp_path / "chunks" / "doc"
    start = CTX.Barrier(6)
    procs = [CTX.Process(target=_write_tagged, args=(str(folder), f"w{i}", start)) for i in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 6
    assert assert_complete_set(folder) in {f"w{i}" for i in range(6)}
    assert leftovers(folder) == []


# -- remove_folder ----------------------------------------------------------------


def test_remove_folder_removes_an_orphaned_document_folder(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    write_document(folder, artifact_set("a"), "chunks/doc")
    (folder / ".chunks.json.x.tmp").write_bytes(b"")
    remove_folder(folder, "chunks/doc")
    assert not folder.exists()


def test_remove_folder_of_a_missing_folder_does_nothing(tmp_path: Path) -> None:
    remove_folder(tmp_path / "missing")


def test_remove_folder_refuses_a_folder_with_a_foreign_subfolder(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    write_document(folder, artifact_set("a"), "chunks/doc")
    (folder / "keep").mkdir()
    with pytest.raises(OutputError, match="keep/"):
        remove_folder(folder, "chunks/doc")
    assert assert_complete_set(folder) == "a"


def test_remove_folder_refuses_a_folder_with_a_foreign_file(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    write_document(folder, artifact_set("a"), "chunks/doc")
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(OutputError, match=re.escape("notes.txt")):
        remove_folder(folder, "chunks/doc")
    assert (folder / "notes.txt").read_text() == "mine"
    assert assert_complete_set(folder) == "a"


def test_remove_folder_refuses_a_symlinked_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_document(outside, artifact_set("a"), "outside")
    (tmp_path / "doc").symlink_to(outside)
    with pytest.raises(OutputError, match="symlink"):
        remove_folder(tmp_path / "doc")
    assert assert_complete_set(outside) == "a"


def test_remove_folder_removes_a_symlinked_artifact_but_not_its_target(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    folder = tmp_path / "doc"
    folder.mkdir()
    (folder / "chunks.json").symlink_to(victim)
    remove_folder(folder)
    assert not folder.exists()
    assert victim.read_text() == "keep"


# -- run lock and durability --------------------------------------------------------


@pytest.mark.parametrize(("durability", "per_document"), [("full", 3), ("run", 0), ("none", 0)])
def test_a_write_under_the_run_lock_takes_no_folder_lock_and_syncs_as_the_durability_says(
    tmp_path: Path, fsyncs: list[int], durability: str, per_document: int
) -> None:
    out = tmp_path / "chunks"
    with run_lock(out, "chunks"):
        fsyncs.clear()  # counted from here
        calls = fsyncs
        write_document(out / "doc", artifact_set("a"), "chunks/doc", durability=durability, run_locked=True)  # type: ignore[arg-type]
        assert len(calls) == per_document  # the files only; no folder fsync per document
        sync_written(out, [out / "doc"], durability)  # type: ignore[arg-type]
        assert len(calls) == per_document + (2 if durability == "full" else 0)  # chunks/doc and chunks/
    assert assert_complete_set(out / "doc") == "a"
    assert sorted(p.name for p in (out / "doc").iterdir()) == sorted(NAMES)  # no .lock in the folder
    assert (out / LOCK_NAME).is_file()


def test_a_run_lock_makes_another_run_fail_with_busy_after_the_timeout(tmp_path: Path) -> None:
    out = tmp_path / "chunks"
    ready, release = CTX.Event(), CTX.Event()
    holder = CTX.Process(target=_hold_run_lock, args=(str(out), ready, release))
    holder.start()
    try:
        assert ready.wait(10)
        busy = re.escape("busy: another chunker run holds chunks/.lock")
        with pytest.raises(OutputError, match=busy), run_lock(out, "chunks", timeout=0.3):
            pass
    finally:
        release.set()
        holder.join(10)
    with run_lock(out, "chunks", timeout=5):
        pass


def _hold_run_lock(out: str, ready: Any, release: Any) -> None:
    with run_lock(Path(out), "chunks"):
        ready.set()
        release.wait(30)


def test_a_symlinked_output_folder_can_hold_the_run_lock(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere"
    real.mkdir()
    (tmp_path / "chunks").symlink_to(real)
    with run_lock(tmp_path / "chunks", "chunks"):
        assert (real / LOCK_NAME).is_file()
