"""Something else in place of a file chunker wrote (a FIFO, a device, a symlink to /dev/zero, an
edited report.json): runs, --check, view and export neither hang, nor read without end, nor fail
with an internal error."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chunker.cli import run_cli

DOC = "# Title\n\nSome text here.\n\n## Section\n\nMore text.\n"


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    work = make_work({"a.md": DOC})
    assert run_cli([]) == 0
    return work


def _replace_with_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


@pytest.mark.parametrize("name", ["a/meta.json", "a/report.json", "a/chunks.json", ".chunker-cache.json"])
def test_a_fifo_in_place_of_an_output_file_is_replaced_not_opened(work: Path, deadline: None, name: str) -> None:
    before = (work / "chunks" / "a" / "chunks.json").read_bytes()
    _replace_with_fifo(work / "chunks" / name)
    assert run_cli([]) == 0
    assert (work / "chunks" / name).is_file()
    assert (work / "chunks" / "a" / "chunks.json").read_bytes() == before


def test_check_and_export_do_not_open_a_fifo_in_place_of_an_artifact(work: Path, deadline: None) -> None:
    _replace_with_fifo(work / "chunks" / "a" / "report.json")
    assert run_cli(["--check"]) == 1  # stale: a run would write it again
    _replace_with_fifo(work / "chunks" / "a" / "chunks.json")
    assert run_cli(["export", "--format", "jsonl"]) == 2  # "cannot read chunks.json: not a regular file"


def test_devices_are_not_read_as_output_files(tmp_path: Path) -> None:
    from chunker.regular import read_regular

    link = tmp_path / "chunks.json"
    link.symlink_to("/dev/zero")
    for path in (Path("/dev/zero"), link):
        with pytest.raises(OSError, match="not a regular file"):
            read_regular(path)
    (tmp_path / "x.json").write_bytes(b"[1]")
    assert read_regular(tmp_path / "x.json") == b"[1]"


@pytest.mark.parametrize("report", [None, "{}", "[]", '{"skipped": 5, "errors": 3, "warnings": "x"}'])
def test_view_shows_a_document_whose_report_is_missing_or_edited(work: Path, report: str | None) -> None:
    path = work / "chunks" / "a" / "report.json"
    if report is None:
        path.unlink()
    else:
        path.write_text(report, encoding="utf-8")
    assert run_cli(["view"]) == 0
    assert any((work / "chunks" / "_view").rglob("a*.html"))
