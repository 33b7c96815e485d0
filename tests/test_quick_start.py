"""The README's quick start leaves the repository as it found it: what it writes is ignored by git."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from chunker.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]


def test_every_file_the_shipped_example_writes_into_chunks_is_ignored_by_the_repository(
    make_work: Callable[..., Path],
) -> None:
    # a newcomer's `.venv/bin/chunker` in a fresh clone left chunks/.chunker-cache.json and chunks/.lock
    # untracked in `git status` (.gitignore held chunks/*/ only)
    git = shutil.which("git")
    if git is None or not (ROOT / ".gitignore").is_file():
        pytest.skip("needs git and the repository's .gitignore")
    work = make_work({"chunker-guide.md": (ROOT / "sources" / "chunker-guide.md").read_text(encoding="utf-8")})
    assert run_cli([]) == 0
    assert run_cli(["view"]) == 0 and run_cli(["export", "--format", "jsonl"]) == 0
    written = sorted(p.relative_to(work).as_posix() for p in (work / "chunks").rglob("*") if p.is_file())
    assert {"chunks/.chunker-cache.json", "chunks/.lock", "chunks/chunker-guide/chunks.json"} <= set(written)
    ignored = subprocess.run(
        [git, "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"],
        input="\n".join(written) + "\n",
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert [p for p in written if p not in ignored] == []
    kept = subprocess.run(
        [git, "-C", str(ROOT), "check-ignore", "--no-index", "chunks/.gitkeep"], capture_output=True, check=False
    )
    assert kept.returncode == 1  # the placeholder that keeps chunks/ in the repository is not ignored
