"""What a run says about where its chunks went, and the command ``--check`` tells a user to run: the
user's own --sources, --out and --config (quoted for a shell), so that pasting it updates what was checked."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.cli_messages import rerun_command

PAGE = "# Guide\n\n## Part\n\nText of the part, long enough for a chunk of its own.\n"


def _tree(root: Path) -> list[str]:
    """Sources, output and config in folders whose names a shell would split or expand."""
    src = root / "my docs"
    src.mkdir()
    (src / "guide.md").write_text(PAGE, encoding="utf-8")
    config = root / "it's $HOME.yaml"
    config.write_text("max_chars: 1000\n", encoding="utf-8")
    return ["--sources", str(src), "--out", str(root / "out dir"), "--config", str(config)]


def test_check_ends_with_a_command_to_paste_holding_the_users_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _tree(tmp_path)
    assert run_cli([*args, "--quiet"]) == 0
    (tmp_path / "my docs" / "guide.md").write_text(PAGE + "\nMore text.\n", encoding="utf-8")
    (tmp_path / "my docs" / "new.md").write_text(PAGE, encoding="utf-8")
    capsys.readouterr()
    assert run_cli([*args, "--check", "--quiet"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[:2] == [
        f"error: {tmp_path}/my docs/guide.md: stale: its artifacts are not what a run would write now",
        f"error: {tmp_path}/my docs/new.md: stale: not chunked (no {tmp_path}/out dir/new yet)",
    ]
    prefix = "2 stale documents; to bring the chunks up to date run: "
    assert lines[2].startswith(prefix) and len(lines) == 3
    words = shlex.split(lines[2][len(prefix) :])
    assert words[1:] == args  # each path one word again, $HOME not expanded
    assert run_cli([*words[1:], "--quiet"]) == 0  # what pasting it runs
    assert run_cli([*args, "--check", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_the_command_names_only_the_options_given_and_the_documents_checked() -> None:
    assert rerun_command(Path("sources"), Path("chunks"), None).split(" ", 1)[1:] == []
    command = rerun_command(Path("docs"), Path("chunks"), None, ["a b"], ["guides/x"], keep_orphans=True)
    assert command.endswith(" --sources docs --stem 'a b' --doc guides/x --keep-orphans")


def test_the_totals_line_says_where_the_chunks_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = _tree(tmp_path)
    capsys.readouterr()
    assert run_cli(args) == 0
    out = capsys.readouterr().out
    assert f"1 document (1 new) · 1 chunk in {tmp_path}/out dir/ · 0 errors" in " ".join(out.split())


def test_with_the_default_folders_the_line_and_the_command_stay_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "guide.md").write_text(PAGE, encoding="utf-8")
    capsys.readouterr()
    assert run_cli([]) == 0
    assert "1 document (1 new) · 1 chunk in chunks/ · 0 errors" in capsys.readouterr().out
    (tmp_path / "sources" / "guide.md").write_text(PAGE + "\nMore.\n", encoding="utf-8")
    assert run_cli(["--check"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("1 stale document; to bring the chunks up to date run: ")
    assert shlex.split(err[-1].split(" run: ", 1)[1])[1:] == []  # nothing but the program
