"""A read-only output folder (a CI cache mounted read-only, an artifact unpacked on a read-only
volume): a run with nothing to write succeeds; one that must write fails naming the file. The lock
file cannot be opened for writing there (EROFS), but a lock can be held on it opened read-only."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from chunker.cli import run_cli


def _read_only_lock(monkeypatch: pytest.MonkeyPatch, out: Path) -> None:
    """The output's file system refuses to open its lock file for writing, as a read-only mount does."""
    real = os.open

    def fake(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if os.path.abspath(path) == str(out / ".lock") and flags & (os.O_RDWR | os.O_WRONLY | os.O_CREAT):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", fake)


def test_a_run_with_nothing_to_write_succeeds_on_a_read_only_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It exited 4 'cannot create the lock file .lock: not writable (read-only file system)' (a real
    read-only tmpfs, bench/HOSTILE.md eleventh pass)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    assert run_cli(["-q", "--jobs", "1"]) == 0
    _read_only_lock(monkeypatch, tmp_path / "chunks")
    assert run_cli(["-q", "--jobs", "1"]) == 0
    assert "lock" not in capsys.readouterr().err


def test_a_read_only_output_without_a_lock_file_is_still_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (tmp_path / "chunks").mkdir()
    _read_only_lock(monkeypatch, tmp_path / "chunks")
    assert run_cli(["-q", "--jobs", "1"]) == 4
    assert "read-only file system" in capsys.readouterr().err
