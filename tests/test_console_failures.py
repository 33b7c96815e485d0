"""Console write failures: stdout not writable exits 4, a closed pipe keeps the command's code,
stderr not writable keeps the real code, Ctrl-C says 'interrupted'. Real processes, real streams."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _signals import interruptible

CHUNKER = [sys.executable, "-m", "chunker"]
needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    sources = tmp_path / "sources"
    sources.mkdir()
    for i in range(40):
        (sources / f"d{i}.md").write_text(f"# D{i}\n\n## One\n\nSome text of document {i}.\n", encoding="utf-8")
    return tmp_path


@needs_dev_full
@pytest.mark.parametrize("args", [[], ["--json"], ["--force", "--json"]])
def test_stdout_on_a_full_disk_exits_4_with_a_message_not_as_an_internal_error(work: Path, args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*CHUNKER, *args], cwd=work, stdout=full, stderr=subprocess.PIPE, timeout=120, check=False
        )
    assert done.returncode == 4, done.stderr
    err = done.stderr.decode()
    assert "cannot write to stdout: No space left on device" in err
    assert "internal error" not in err and "Traceback" not in err
    assert (work / "chunks" / "d0" / "report.json").is_file()  # the run itself was done


def test_json_summary_with_stdout_closed_exits_4_not_5(work: Path) -> None:
    done = subprocess.run(
        [*CHUNKER, "--json"],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    err = done.stderr.decode()
    assert done.returncode == 4, err
    assert "cannot write to stdout" in err and "AttributeError" not in err


def test_a_quiet_run_with_stdout_closed_writes_nothing_there_and_exits_0(work: Path) -> None:
    done = subprocess.run(
        [*CHUNKER, "--quiet"],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 0, done.stderr
    assert (work / "chunks" / "d0" / "chunks.json").is_file()


@needs_dev_full
def test_an_error_with_stderr_on_a_full_disk_keeps_its_own_exit_code(work: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [*CHUNKER, "--stem", "nosuch"], cwd=work, stdout=subprocess.PIPE, stderr=full, timeout=120
        )
    assert done.returncode == 2


@pytest.mark.parametrize("args", [["--force"], ["--force", "--json"]])
def test_a_reader_that_closes_the_pipe_early_leaves_exit_0(work: Path, args: list[str]) -> None:
    proc = subprocess.Popen([*CHUNKER, *args], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # like `| head -1` that has already exited
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert err == ""


def test_ctrl_c_during_a_run_says_interrupted_and_exits_130(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "big.md").write_text(("# H\n\n" + "word " * 50 + "\n\n") * 100_000, encoding="utf-8")
    proc = subprocess.Popen(
        [*CHUNKER, "--stem", "big"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=interruptible,
    )
    time.sleep(2.5)  # imports done, chunking under way (the document takes several seconds)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err.decode().strip() == "error: interrupted"
