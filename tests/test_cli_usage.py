"""What the command says to a user who mistypes: unknown options, `documents:` keys written as
paths, and the summary table without a stray title line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.cli_messages import rerun_command


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--bogus"], "error: no such option --bogus (chunker --help lists the options)"),
        (["--forse"], "error: no such option --forse; did you mean --force? (chunker --help lists the options)"),
        (
            ["export", "--formt", "md"],
            "error: no such option --formt; did you mean --format? (chunker export --help lists the options)",
        ),
        (["eval"], "error: missing option '--cases' (chunker eval --help lists the options)"),
    ],
)
def test_a_command_line_mistake_is_one_line_and_exit_2(
    two_docs: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    assert run_cli(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == expected
    assert "Possible options" not in captured.err and "Usage:" not in captured.err
    assert captured.out == ""


def test_help_and_version_still_exit_0(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["--help"]) == 0
    assert "Usage:" in capsys.readouterr().out
    assert run_cli(["--version"]) == 0
    assert capsys.readouterr().out.startswith("chunker ")


def test_the_summary_table_has_no_title_line(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 documents (2 new)")
    assert lines[1].startswith("┏") and "chunker" not in lines


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        (
            "sources/guides/setup.md",
            "keys are document ids, the path below sources/ without extension: did you mean 'guides/setup'?",
        ),
        (
            "./guides/setup.md",
            "keys are document ids, the path below sources/ without extension: did you mean 'guides/setup'?",
        ),
        ("guides/setpu", "did you mean 'guides/setup'?"),
        ("setup", "did you mean 'guides/setup'?"),
        ("nothing-like-it*", "a misspelt id or glob?"),
    ],
)
def test_a_documents_key_that_matches_nothing_gets_the_closest_id(
    two_docs: Path, capsys: pytest.CaptureFixture[str], key: str, hint: str
) -> None:
    (two_docs / "config.yaml").write_text(f"documents:\n  {key}:\n    strategy: faq\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["warnings"] == [f"config.yaml:2: documents.{key} matches no source document ({hint})"]


def test_a_run_over_an_empty_sources_folder_is_refused_and_removes_nothing(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["--quiet"]) == 0
    (two_docs / "empty").mkdir()
    capsys.readouterr()
    assert run_cli(["--sources", "empty"]) == 2
    err = capsys.readouterr().err
    types = ".md, .markdown, .mdx, .qmd, .Rmd, .Rmarkdown, .txt"
    assert err.startswith(f"error: no source documents ({types}) in empty/: nothing to chunk;")
    assert "--allow-empty" in err and len(err.strip().splitlines()) == 1
    assert (two_docs / "chunks" / "faq" / "chunks.json").is_file()  # not removed as orphans
    assert run_cli(["--sources", "empty", "--check"]) == 2
    assert run_cli(["--sources", "empty", "--allow-empty", "--quiet"]) == 0
    assert not (two_docs / "chunks" / "faq").exists()  # asked for: the output of sources that are gone goes


def test_a_run_whose_globs_left_out_every_source_names_them(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (two_docs / "config.yaml").write_text("include: ['docs/**']\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli([]) == 2
    err = capsys.readouterr().err
    assert "(not-included 2): nothing to chunk; check --sources and include: ['docs/**'] (globs are read" in err
    (two_docs / "config.yaml").write_text("exclude: ['*.md']\n", encoding="utf-8")
    assert run_cli([]) == 2
    assert "check --sources and exclude: ['*.md'] (globs" in capsys.readouterr().err
    (two_docs / "config.yaml").write_text("include: ['*.md']\n", encoding="utf-8")
    (two_docs / "empty").mkdir()
    assert run_cli(["--sources", "empty"]) == 2  # nothing left out by a glob: --sources alone
    assert "nothing to chunk; check --sources (or pass --allow-empty" in capsys.readouterr().err


def test_a_batch_over_an_empty_listing_is_refused_before_the_manifest_is_written(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyarrow")
    assert run_cli(["batch", "--out", "build", "--jobs", "1", "--quiet"]) == 0
    manifest = (two_docs / "build" / "documents" / "manifest.parquet").read_bytes()
    (two_docs / "empty").mkdir()
    capsys.readouterr()
    assert run_cli(["batch", "--sources", "empty", "--out", "build", "--jobs", "1"]) == 2
    assert "no source documents" in capsys.readouterr().err
    assert (two_docs / "build" / "documents" / "manifest.parquet").read_bytes() == manifest
    assert run_cli(["batch", "--sources", "empty", "--out", "build", "--jobs", "1", "--allow-empty", "--quiet"]) == 0


def test_a_path_given_as_stem_is_told_the_id_to_give_to_doc(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert run_cli(["--stem", "./sources/guides/setup.md"]) == 2
    assert "select the document at that path with --doc 'guides/setup' (its id:" in capsys.readouterr().err
    assert run_cli(["--doc", "guides/setup", "--quiet"]) == 0


@pytest.mark.parametrize("out", ["sources", "sources/guides/exported", "./sources/"])
def test_an_export_into_the_sources_folder_is_refused(
    two_docs: Path, capsys: pytest.CaptureFixture[str], out: str
) -> None:
    assert run_cli(["--quiet"]) == 0
    capsys.readouterr()
    assert run_cli(["export", "--format", "md", "--out", out]) == 2
    err = capsys.readouterr().err
    assert f"the export folder {Path(out)} lies inside the sources folder sources (of " in err
    assert sorted(p.name for p in (two_docs / "sources").rglob("*")) == ["faq.md", "guides", "setup.md"]
    assert run_cli(["export", "--format", "md", "--out", "exported", "--quiet"]) == 0


def test_an_output_path_that_is_a_file_is_named_as_such(two_docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (two_docs / "afile").write_text("x", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["--out", "afile"]) == 4
    assert capsys.readouterr().err.strip() == (
        "error: afile: cannot create the output folder: a file is in the way (the path exists and is not a folder)"
    )


def test_check_names_a_document_that_was_never_chunked_as_such(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["--quiet"]) == 0
    (two_docs / "sources" / "new.md").write_text("# New\n\nText.\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["--check", "--quiet"]) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        "error: sources/new.md: stale: not chunked (no chunks/new yet)",
        f"1 stale document; to bring the chunks up to date run: {rerun_command(Path('sources'), Path('chunks'), None)}",
    ]
    (two_docs / "chunks" / "new").mkdir()
    assert run_cli(["--check", "--quiet"]) == 1
    assert "not chunked (its artifacts in chunks/new are missing or unreadable)" in capsys.readouterr().err
    assert run_cli(["--quiet"]) == 0
    assert run_cli(["--check", "--quiet"]) == 0


def test_a_folder_given_as_a_document_lists_the_documents_inside(
    two_docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert run_cli(["--doc", "guides"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: --doc 'guides': sources/guides is a folder of 1 document(s) (guides/setup), not a document; "
        "select one with --doc ID, or run without --stem/--doc for all"
    )
    assert run_cli(["--quiet"]) == 0
    for command in (["export", "--format", "md"], ["view"]):
        assert run_cli([*command, "--doc", "guides"]) == 2
        assert capsys.readouterr().err.strip() == (
            f"error: {Path('chunks/guides')} is a folder of 1 chunked document(s) (guides/setup), not a document; "
            "select one with --doc ID, or give none for all"
        )
