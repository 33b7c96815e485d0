"""A source the walk found as a plain file (no symlink on its way below sources/) is inside by
construction: the run resolves only the others (chunker/sources.py, SourceFile.walked)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from chunker import runner
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings
from chunker.sources import scan

SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))
TEXT = "# Title\n\nSome words of a page.\n"


def tree(tmp_path: Path) -> Path:
    sources = tmp_path / "sources"
    (sources / "guides").mkdir(parents=True)
    (sources / "a.md").write_text(TEXT, encoding="utf-8")
    (sources / "guides" / "b.md").write_text(TEXT, encoding="utf-8")
    os.symlink(sources / "a.md", sources / "linked.md")  # inside: chunked, after a check
    (tmp_path / "outside.md").write_text(TEXT, encoding="utf-8")
    os.symlink(tmp_path / "outside.md", sources / "guides" / "out.md")  # outside: refused
    return sources


def test_the_walk_marks_the_sources_that_are_no_symlinks(tmp_path: Path) -> None:
    found = {s.stem: s.walked for s in scan(tree(tmp_path)).found}
    assert found == {"a": True, "guides/b": True, "guides/out": False, "linked": False}


def test_only_symlinked_sources_are_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sources = tree(tmp_path)
    checked: list[str] = []
    real = runner.check_inside

    def spy(path: Path, *args: Any) -> None:
        checked.append(path.name)
        real(path, *args)

    monkeypatch.setattr(runner, "check_inside", spy)
    summary = run(SETTINGS, sources, tmp_path / "chunks")
    assert sorted(checked) == ["linked.md", "out.md"]  # was every source
    status = {d.stem: d.status for d in summary.documents}
    assert status == {"a": "new", "guides/b": "new", "linked": "new", "guides/out": "failed"}
    failed = next(d for d in summary.documents if d.stem == "guides/out")
    assert "symlink points outside" in failed.message and failed.exit_code == 3
