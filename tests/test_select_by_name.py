"""`--stem NAME` in export, view and eval finds a document of a tree by its file name, as the main
command does; their output goes inside the --chunks folder by default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker.cli import run_cli

PAGE = "# {title}\n\n## Setup\n\nInstall {title} and run it.\n\n## Usage\n\nCall {title} from the shell.\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A documentation tree chunked into out/ (not the default chunks/)."""
    for doc in ("usage/nextjs", "api/store", "guide/index", "ref/index"):
        path = tmp_path / "docs" / f"{doc}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE.format(title=doc.rsplit("/", 1)[-1]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--sources", "docs", "--out", "out", "--quiet"]) == 0
    return tmp_path


def test_export_of_a_bare_name_exports_the_one_document_of_that_name(tree: Path) -> None:
    assert run_cli(["export", "--format", "jsonl", "--chunks", "out", "--stem", "nextjs", "--quiet"]) == 0
    assert sorted(p.relative_to(tree / "out" / "_export").as_posix() for p in tree.glob("out/_export/**/*.jsonl")) == [
        "usage/nextjs.jsonl"
    ]


def test_view_of_a_bare_name_writes_the_page_of_that_document(tree: Path) -> None:
    assert run_cli(["view", "--chunks", "out", "--stem", "nextjs", "--stem", "store", "--quiet"]) == 0
    names = json.loads((tree / "out" / "_view" / ".chunker-view.json").read_text(encoding="utf-8"))["pages"]
    assert len(names) == 2 and all(n.startswith(("usage_nextjs", "api_store")) for n in names), names


@pytest.mark.parametrize("command", [["export", "--format", "md"], ["view"]])
def test_a_name_several_chunked_documents_share_is_refused_listing_their_ids(
    tree: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli([*command, "--chunks", "out", "--stem", "index"]) == 2
    err = capsys.readouterr().err
    assert "stem 'index' names 2 chunked documents (guide/index, ref/index)" in err
    assert not (tree / "out" / "_export").exists() and not (tree / "out" / "_view").exists()


def test_an_unknown_name_is_still_named_as_having_no_chunks(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["export", "--format", "md", "--chunks", "out", "--stem", "nosuch"]) == 2
    assert "--stem 'nosuch': no chunks of this document in out" in capsys.readouterr().err


def test_export_and_view_write_inside_the_chunks_folder_they_read_by_default(tree: Path) -> None:
    assert run_cli(["export", "--format", "jsonl", "--chunks", "out", "--quiet"]) == 0
    assert run_cli(["view", "--chunks", "out", "--quiet"]) == 0
    assert (tree / "out" / "_export" / "api" / "store.jsonl").is_file()
    assert (tree / "out" / "_view" / "index.html").is_file()
    assert not (tree / "chunks").exists()  # not a chunks/ folder next to out/
    # and a run over the same output afterwards takes neither for a document nor an orphan
    assert run_cli(["--sources", "docs", "--out", "out", "--check", "--quiet"]) == 0


def test_eval_of_a_bare_name_runs_the_cases_of_that_document(tree: Path) -> None:
    cases = tree / "cases.jsonl"
    lines = [
        {"id": "n1", "doc": "usage/nextjs", "query": "install nextjs", "expected_doc_section": "Setup",
         "expected_text_contains": "Install"},
        {"id": "s1", "doc": "api/store", "query": "call store", "expected_doc_section": "Usage",
         "expected_text_contains": "Call"},
    ]  # fmt: skip
    cases.write_text("".join(json.dumps(c) + "\n" for c in lines), encoding="utf-8")
    args = ["eval", "--cases", str(cases), "--sources", "docs", "--out", "out", "--json"]
    assert run_cli([*args, "--stem", "nextjs"]) == 0
    report = json.loads((tree / "out" / "_eval" / "cases.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in report["cases"]] == ["n1"]


def _cases(tree: Path, *docs: str) -> Path:
    """A cases file of one case per document in ``docs``, each asking for its Setup section."""
    cases = tree / "cases.jsonl"
    lines = [
        {"id": f"i{n}", "doc": doc, "query": "install index", "expected_doc_section": "Setup",
         "expected_text_contains": "Install"}
        for n, doc in enumerate(docs)
    ]  # fmt: skip
    cases.write_text("".join(json.dumps(c) + "\n" for c in lines), encoding="utf-8")
    return cases


def test_eval_refuses_a_name_two_case_documents_share_and_says_to_use_doc(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _cases(tree, "guide/index", "ref/index")
    args = ["eval", "--cases", str(cases), "--sources", "docs", "--out", "out"]
    assert run_cli([*args, "--stem", "index"]) == 2
    assert "stem 'index' names 2 case documents (guide/index, ref/index); select one with --doc ID" in (
        capsys.readouterr().err
    )
    assert run_cli([*args, "--doc", "ref/index", "--json"]) == 0


@pytest.mark.parametrize("command", [["export", "--format", "jsonl"], ["view"]])
def test_without_chunks_in_the_default_folder_the_message_points_at_chunks_option(
    tree: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(command) == 2  # the run wrote out/, not chunks/
    err = capsys.readouterr().err
    assert "no chunks folder chunks; run `chunker` first, or give the folder it wrote (its --out) with --chunks" in err


@pytest.mark.parametrize("command", [[], ["export", "--format", "md"], ["view"]])
def test_stem_of_a_name_a_top_level_page_shares_with_pages_below_is_refused(
    tree: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A site's top-level index.md has the id `index`, as its name: `--stem index` still names every
    page called index (it chose the top-level one alone before), and `--doc index` selects it."""
    (tree / "docs" / "index.md").write_text(PAGE.format(title="home"), encoding="utf-8")
    assert run_cli(["--sources", "docs", "--out", "out", "--quiet"]) == 0
    where = ["--sources", "docs", "--out", "out"] if not command else ["--chunks", "out"]
    capsys.readouterr()
    assert run_cli([*command, *where, "--stem", "index"]) == 2
    assert "--stem 'index' names 3 " in capsys.readouterr().err
    assert run_cli([*command, *where, "--doc", "index", "--quiet"]) == 0


def test_eval_stem_of_a_name_a_case_document_has_as_its_id_and_others_share_is_refused(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tree / "docs" / "index.md").write_text(PAGE.format(title="home"), encoding="utf-8")
    cases = _cases(tree, "index", "ref/index")
    args = ["eval", "--cases", str(cases), "--sources", "docs", "--out", "out"]
    assert run_cli([*args, "--stem", "index"]) == 2
    assert "--stem 'index' names 2 case documents (index, ref/index)" in capsys.readouterr().err
    assert run_cli([*args, "--doc", "index", "--json"]) == 0
