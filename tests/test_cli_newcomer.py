"""What a newcomer following README.md is told when a selection or a source goes wrong: the option
typed (`--doc` or `--stem`) is the one named, the message says what was looked for and the closest
ids, a suggested command works, a broken symlink names its target, and a `documents:` key that
matches nothing names its line of the config file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chunker.cli import run_cli


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.strip()


def test_a_doc_that_matches_nothing_names_the_option_what_was_looked_for_and_the_closest_id(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["--doc", "guides/setpu"]) == 2
    err = _err(capsys)
    assert err.startswith("error: --doc 'guides/setpu': no source document has this id (looked for ")
    assert "sources/guides/setpu with .md, .markdown, .mdx, .qmd, .rmd, .rmarkdown, .txt" in err
    assert err.endswith("did you mean 'guides/setup'?")
    assert "stem" not in err  # the option typed was --doc
    assert run_cli(["--stem", "setpu"]) == 2
    err = _err(capsys)
    assert err.startswith("error: --stem 'setpu': no source document has this id or file name")
    assert err.endswith("did you mean 'setup' (guides/setup)?")


def test_a_doc_written_as_a_path_is_told_the_id_it_names(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for given in ("guides/setup.md", "sources/guides/setup.md"):
        assert run_cli(["--doc", given]) == 2
        err = _err(capsys)
        assert err.endswith("an id is the path below sources/ without extension: did you mean 'guides/setup'?"), err


def test_a_doc_that_is_no_id_names_the_option(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["--doc", "my guide"]) == 2
    assert _err(capsys).startswith("error: --doc 'my guide': not a document id")
    assert run_cli(["--doc", ""]) == 2
    assert _err(capsys).startswith("error: --doc is empty;")


@pytest.mark.parametrize("command", [["export", "--format", "jsonl"], ["view"]])
def test_export_and_view_suggest_close_chunked_ids_and_a_command_that_works(
    two_docs: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    assert run_cli(["--quiet"]) == 0
    assert run_cli([*command, "--doc", "guides/setpu"]) == 2
    err = _err(capsys)
    assert err.startswith("error: --doc 'guides/setpu': no chunks of this document in chunks")
    assert "did you mean 'guides/setup'?" in err
    # `chunker --stem guides/setpu` would be refused (a stem is no path): the hint says --doc
    assert err.endswith("run `chunker --doc guides/setpu` first")
    assert run_cli([*command, "--stem", "nosuch"]) == 2
    assert _err(capsys).endswith("run `chunker --stem nosuch` first")


def test_a_broken_symlink_names_the_link_and_its_missing_target(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.symlink("drafts/gone.md", two_docs / "sources" / "guides" / "broken.md")
    assert run_cli(["--quiet"]) == 3
    err = _err(capsys)
    assert "sources/guides/broken.md: a broken symlink: it points to drafts/gone.md, which does not exist" in err
    os.symlink(str(two_docs / "elsewhere.md"), two_docs / "sources" / "outside.md")
    assert run_cli(["--quiet"]) == 3
    assert f"(to {two_docs / 'elsewhere.md'}, which does not exist)" in _err(capsys)


def test_a_documents_key_that_matches_nothing_names_its_line(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (two_docs / "config.yaml").write_text(
        "max_chars: 1000\n\ndocuments:\n  guides/*:\n    strategy: faq\n  giudes/*:\n    max_chars: 900\n",
        encoding="utf-8",
    )
    assert run_cli(["--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["warnings"] == ["config.yaml:6: documents.giudes/* matches no source document (a misspelt id or glob?)"]


def test_check_repeats_no_warning_of_documents_it_finds_fresh_as_a_no_op_run_does(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (two_docs / "sources" / "faq.md").write_text("# FAQ\n\n## \n\nAn answer under a heading without text.\n", "utf-8")
    assert run_cli([]) == 0
    assert "warning: sources/faq.md:3: empty-heading: " in capsys.readouterr().out  # printed when chunked
    for argv in ([], ["--check"]):
        assert run_cli(argv) == 0
        out = capsys.readouterr().out
        assert "warning: sources/faq.md" not in out and "│ faq" not in out, (argv, out)
        assert "not listed, 1 of them with warnings (counted here)" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--out", ""],
        ["--out="],
        ["--sources", " "],
        ["--force", "--out", "", "-q"],
        ["export", "--out", ""],
        ["view", "--chunks="],
        ["eval", "--cases", ""],
    ],
)
def test_an_empty_path_option_is_refused_before_anything_is_written(
    two_docs: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # a CI variable that was not set (--out "$OUT") must not write chunks into the working folder
    before = sorted(p.name for p in two_docs.iterdir())
    assert run_cli(argv) == 2
    option = next(a for a in argv if a.startswith("--") and a not in ("--force",)).rstrip("=")
    assert _err(capsys) == f"error: {option} is empty: give a file or folder ('.' for the working folder)"
    assert sorted(p.name for p in two_docs.iterdir()) == before
