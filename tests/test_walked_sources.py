"""A source the walk found as a plain file (no symlink on its way below sources/) is inside by
construction: the run resolves only the others (chunker/sources.py, SourceFile.walked)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from chunker import runner_document
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings
from chunker.source_walk import scan

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
    real = runner_document.check_inside

    def spy(path: Path, *args: Any) -> None:
        checked.append(path.name)
        real(path, *args)

    monkeypatch.setattr(runner_document, "check_inside", spy)
    summary = run(SETTINGS, sources, tmp_path / "chunks")
    assert sorted(checked) == ["linked.md", "out.md"]  # was every source
    status = {d.stem: d.status for d in summary.documents}
    assert status == {"a": "new", "guides/b": "new", "linked": "new", "guides/out": "failed"}
    failed = next(d for d in summary.documents if d.stem == "guides/out")
    assert "symlink points outside" in failed.message and failed.exit_code == 3


@pytest.mark.parametrize("where", ["below", "same", "outside", "dotted", "absolute"])
def test_the_walk_shows_every_path_as_display_path_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """The walk joins each folder's display with the names in it (one relpath per folder): the
    same text as :func:`~chunker.path_display.display_path` of every path, wherever the working directory is."""
    from chunker.path_display import display_path

    sources = tree(tmp_path)
    (sources / "guides" / "deep er").mkdir()
    (sources / "guides" / "deep er" / "ä b.md").write_text(TEXT, encoding="utf-8")
    (sources / "guides" / "notes.txt.bak").write_text(TEXT, encoding="utf-8")
    odd = os.fsdecode(b"caf\xe9.md")  # not UTF-8: shown as caf\xe9.md
    (sources / odd).write_text(TEXT, encoding="utf-8")
    (tmp_path / "other").mkdir()
    cwd, given = {
        "below": (tmp_path, Path("sources")),
        "same": (sources, Path(".")),
        "outside": (tmp_path / "other", Path("../sources")),
        "dotted": (tmp_path, Path("other/../sources")),
        "absolute": (tmp_path / "other", sources),
    }[where]
    monkeypatch.chdir(cwd)
    from chunker import path_display as module

    shown: list[tuple[str, str]] = []
    real = module.Displays.__call__

    def call(self: Any, path: Path) -> str:
        text = real(self, path)
        shown.append((text, display_path(path)))
        return text

    monkeypatch.setattr(module.Displays, "__call__", call)
    found = scan(given)
    assert len(shown) == len(found.found) + len(found.left_out) and all(a == b for a, b in shown)
    assert any("caf\\xe9" in x.display for x in found.left_out)
