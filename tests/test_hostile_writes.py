"""Write faults and concurrency, end to end: disk full, a file-size limit, a read-only
output, a kill at every write() and rename, six concurrent runs on one stem. Each leaves
the previous or the new artifacts, complete and valid, never a truncated JSON file, and
the next run succeeds."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _hostile import ARTIFACTS, Outcome, make_work, run_in

OLD = "# Guide\n\n## Install\n\nRun the installer. ZQXOLD\n\n## Use\n\nCall it.\n"
NEW = OLD + "\n## More\n\n" + "A new section with more text. ZQXNEW " * 40 + "\n"
BIG = NEW + "\n## Table\n\n| a | b |\n|---|---|\n" + "".join(f"| row {i} | {'x' * 60} |\n" for i in range(3000))

KILLER = """
import os, signal, sys
target, at = os.environ["ZQX_KILL_CALL"], int(os.environ["ZQX_KILL_AT"])
real = getattr(os, target)
calls = 0
def hooked(*args, **kwargs):
    global calls
    calls += 1
    if calls == at:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args, **kwargs)
setattr(os, target, hooked)
from chunker.cli import run_cli
sys.exit(run_cli(sys.argv[1:]))
"""


def snapshot(folder: Path) -> dict[str, bytes]:
    return {n: (folder / n).read_bytes() for n in ARTIFACTS if (folder / n).is_file()}


def assert_complete_set(folder: Path) -> None:
    """Three valid JSON files whose report.json holds the sha256 of the other two."""
    files = snapshot(folder)
    assert sorted(files) == sorted(ARTIFACTS)
    for data in files.values():
        json.loads(data)
    hashes = json.loads(files["report.json"])["artifacts"]
    for name in ("chunks.json", "meta.json"):
        assert hashes[name] == hashlib.sha256(files[name]).hexdigest(), name


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.fixture
def previous(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A work folder holding a good previous run of `doc`, whose source has changed since."""
    work = make_work(tmp_path)
    (work / "sources" / "doc.md").write_text(OLD, encoding="utf-8")
    assert run_in(work, "doc", capsys, monkeypatch).code == 0
    (work / "sources" / "doc.md").write_text(NEW, encoding="utf-8")
    return work


def child(work: Path, *args: str, env: dict[str, str] | None = None, fsize: int | None = None) -> Outcome:
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    proc = subprocess.run(
        [sys.executable, "-c", KILLER if env else "from chunker.cli import main; main()", *args],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
        preexec_fn=limit,
        stdin=subprocess.DEVNULL,
    )
    return Outcome(proc.returncode, proc.stderr, proc.stdout, work, "doc")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO])
def test_a_write_error_exits_4_and_keeps_the_previous_artifacts_byte_for_byte(
    code: int, previous: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunker.writer

    folder = previous / "chunks" / "doc"
    before = snapshot(folder)
    real_write = os.write
    calls = {"n": 0}

    def failing(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] >= 2:  # the first artifact is staged, the second hits the fault
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    monkeypatch.setattr(chunker.writer.os, "write", failing)
    out = run_in(previous, "doc", capsys, monkeypatch)
    monkeypatch.setattr(chunker.writer.os, "write", real_write)
    assert out.code == 4, out.stderr
    assert "chunks/doc" in out.stderr
    if code in (errno.ENOSPC, errno.EDQUOT):
        assert "disk full" in out.stderr
    assert snapshot(folder) == before and no_temp_files(folder)
    assert run_in(previous, "doc", capsys, monkeypatch).code == 0
    assert "ZQXNEW" in (folder / "chunks.json").read_text(encoding="utf-8")


def test_a_file_size_limit_exits_4_and_keeps_the_previous_artifacts(previous: Path) -> None:
    (previous / "sources" / "doc.md").write_text(BIG, encoding="utf-8")
    folder = previous / "chunks" / "doc"
    before = snapshot(folder)
    out = child(previous, "--stem", "doc", fsize=64 * 1024)
    assert out.code == 4, (out.code, out.stderr)
    assert "file too large" in out.stderr and "chunks/doc" in out.stderr
    assert "Traceback" not in out.stderr
    assert snapshot(folder) == before and no_temp_files(folder)


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_an_output_folder_where_nothing_can_be_created_exits_4_saying_not_writable(
    code: int, previous: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunker.writer

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(code, os.strerror(code))

    folder = previous / "chunks" / "doc"
    before = snapshot(folder)
    create_temp = chunker.writer._create_temp
    monkeypatch.setattr(chunker.writer, "_create_temp", refused)
    out = run_in(previous, "doc", capsys, monkeypatch)
    monkeypatch.setattr(chunker.writer, "_create_temp", create_temp)
    assert out.code == 4 and "not writable" in out.stderr and "chunks/doc" in out.stderr
    assert snapshot(folder) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_chunks_folder_exits_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    (work / "sources" / "doc.md").write_text(OLD, encoding="utf-8")
    (work / "chunks").mkdir()
    (work / "chunks").chmod(0o555)
    try:
        out = run_in(work, "doc", capsys, monkeypatch)
    finally:
        (work / "chunks").chmod(0o755)
    assert out.code == 4 and "not writable" in out.stderr


@pytest.mark.parametrize("call", ["write", "fsync", "replace"])
def test_a_kill_at_every_call_leaves_old_or_new_artifacts_and_the_next_run_succeeds(call: str, previous: Path) -> None:
    folder = previous / "chunks" / "doc"
    old_chunks = (folder / "chunks.json").read_bytes()
    reference = make_work(previous.parents[2] / "reference")
    (reference / "sources" / "doc.md").write_text(NEW, encoding="utf-8")
    assert child(reference, "--stem", "doc").code == 0
    new_chunks = (reference / "chunks" / "doc" / "chunks.json").read_bytes()
    killed = 0
    for at in range(1, 60):
        out = child(previous, "--stem", "doc", "--force", env={"ZQX_KILL_CALL": call, "ZQX_KILL_AT": str(at)})
        if out.code != -signal.SIGKILL:
            assert out.code == 0, out.stderr
            break
        killed += 1
        files = snapshot(folder)
        for data in files.values():
            json.loads(data)  # never truncated
        assert files.get("chunks.json", old_chunks) in (old_chunks, new_chunks)
    else:
        pytest.fail("the run was still being killed after 59 calls")
    assert killed >= 3
    assert_complete_set(folder)
    assert (folder / "chunks.json").read_bytes() == new_chunks
    assert no_temp_files(folder)


def test_six_concurrent_runs_on_one_stem_leave_one_complete_valid_set(previous: Path) -> None:
    command = [sys.executable, "-c", "from chunker.cli import main; main()", "--stem", "doc", "--force"]
    procs = [
        subprocess.Popen(command, cwd=previous, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    results = [(p.wait(timeout=300), p.stderr.read() if p.stderr else "") for p in procs]
    for proc in procs:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert any(code == 0 for code, _ in results)
    for code, stderr in results:
        assert code in (0, 4), stderr
        assert "Traceback" not in stderr
        if code == 4:
            assert "busy" in stderr
    folder = previous / "chunks" / "doc"
    assert_complete_set(folder)
    assert "ZQXNEW" in (folder / "chunks.json").read_text(encoding="utf-8")
    assert no_temp_files(folder)
