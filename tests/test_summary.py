"""The run summary on the terminal: totals first, a table of what changed or has findings, findings
grouped by code, a progress bar with a known total, names never cut, stale documents named."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.models import Diagnostic
from chunker.report import render_run
from chunker.report_table import TABLE_ROWS, summary_table, table_rows
from chunker.runner import run
from chunker.settings import Settings
from chunker.summary import DocOutcome, RunSummary

TESTS = Path(__file__).resolve().parent
GUIDE = (TESTS.parent / "sources" / "chunker-guide.md").read_text(encoding="utf-8")
KITCHEN = (TESTS / "fixtures" / "kitchen_sink.md").read_text(encoding="utf-8")  # 1 error, 1 warning
LONG = "a-very-long-document-name-that-a-narrow-terminal-would-cut-in-the-middle-of-its-words"


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    files = {f"doc-{k}.md": GUIDE.replace("Chunker guide", f"Guide {k}") for k in range(6)}
    return make_work({**files, "kitchen.md": KITCHEN}, config="max_chars: 200\ntarget_chars: 150\nmin_chars: 20\n")


def output(capsys: pytest.CaptureFixture[str], *args: str, code: int | None = None) -> tuple[str, str]:
    capsys.readouterr()
    result = run_cli(list(args))
    if code is not None:
        assert result == code
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_totals_come_before_the_table_and_count_documents_by_status(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = output(capsys, code=1)
    totals = next(line for line in out.splitlines() if line.startswith("7 documents"))
    assert totals.startswith("7 documents (7 new) · ")
    assert " · 1 error in 1 document · 1 warning in 1 document · " in totals
    assert re.search(r" · \d+ chunks in chunks/ · ", totals) and re.search(r" · \d+\.\d s$", totals)
    assert out.index(totals) < out.index("┃ document")


def test_the_table_lists_only_documents_that_changed_failed_or_have_findings(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output(capsys)
    (work / "sources" / "doc-3.md").write_text(GUIDE + "\n## More\n\nNew text here.\n", encoding="utf-8")
    out, _ = output(capsys, code=1)
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│")]
    assert rows == ["doc-3", "kitchen"]  # changed; unchanged but holding an error and a warning
    assert "5 unchanged document(s) not listed; --verbose lists every one" in out
    assert out.splitlines()[0].startswith("7 documents (1 changed, 6 unchanged)")
    out, _ = output(capsys, "--verbose", code=1)
    assert len([line for line in out.splitlines() if line.startswith("│")]) == 7


def test_the_note_on_documents_not_listed_names_their_real_status(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output(capsys)
    out, _ = output(capsys, "--force", code=1)
    assert any(line.startswith("7 documents (7 rebuilt)") for line in out.splitlines())
    assert "unchanged document(s) not listed" not in out
    assert "6 rebuilt document(s) not listed; --verbose lists every one" in out


def test_findings_are_repeated_after_the_table_grouped_by_code(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, err = output(capsys, code=1)
    assert "error: sources/kitchen.md:48: unclosed-fence:" in err
    table_end = out.index("└")
    assert out.index("errors by code: unclosed-fence 1 in 1 document") > table_end
    assert out.index("warnings by code: frontmatter-duplicate-key 1 in 1 document") > table_end
    out, _ = output(capsys, code=1)  # unchanged: counted again, not printed line by line again
    assert "warnings by code: frontmatter-duplicate-key 1 in 1 document" in out
    assert "kitchen.md:3: warning" not in out


def test_the_progress_hook_gets_the_total_before_the_first_document(work: Path) -> None:
    calls: list[int | None] = []

    def hook(total: int | None = None) -> None:
        calls.append(total)

    run(Settings(defaults=ChunkerConfig()), work / "sources", work / "chunks", progress=hook)
    assert calls == [7] + [None] * 7


def test_long_names_wrap_in_a_narrow_terminal_and_are_never_cut() -> None:
    doc = DocOutcome(LONG, f"sources/{LONG}.md", "new", 0, {"total_chunks": 3})
    for width in (60, 80, 100, 200):
        with open(os.devnull, "w", encoding="utf-8") as sink:
            console = Console(width=width, record=True, file=sink)
            console.print(summary_table(RunSummary((doc,)), width=width))
        text = console.export_text()
        assert "…" not in text, width
        cells = "".join(line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│"))
        assert cells.startswith(LONG), width


def test_check_names_every_stale_document_even_with_quiet(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output(capsys)
    for k in (1, 4):
        (work / "sources" / f"doc-{k}.md").write_text(GUIDE + f"\nEdited {k}.\n", encoding="utf-8")
    out, err = output(capsys, "--check", "--quiet", code=1)
    assert out == ""
    assert "error: sources/doc-1.md: stale:" in err and "error: sources/doc-4.md: stale:" in err
    assert "doc-2" not in err


def test_force_reports_rebuilt_for_the_same_chunks_and_changed_when_they_differ(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output(capsys)
    chunks = work / "chunks" / "doc-2" / "chunks.json"
    chunks.write_text(chunks.read_text(encoding="utf-8").replace("Guide 2", "Guide two"), encoding="utf-8")
    out, _ = output(capsys, "--force", "--verbose", code=1)
    status = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in out.splitlines() if "│" in line}
    assert status["doc-2"] == "changed"  # its chunks.json on disk differed from what the run wrote
    assert {status[f"doc-{k}"] for k in (0, 1, 3, 4, 5)} == {"rebuilt"}
    assert "\n7 documents (1 changed, 6 rebuilt) · " in out


def test_export_prints_one_line_unless_verbose(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output(capsys)
    out, _ = output(capsys, "export", "--format", "jsonl", code=0)
    assert out.splitlines() == ["export jsonl: 7 document(s), 7 file(s) in chunks/_export"]
    out, _ = output(capsys, "export", "--format", "jsonl", "--verbose", code=0)
    assert len(out.splitlines()) == 7 and out.splitlines()[0] == "doc-0: 1 file(s) in chunks/_export"
    out, _ = output(capsys, "export", "--format", "jsonl", "--quiet", code=0)
    assert out == ""


def test_output_paths_are_shown_relative_to_the_working_directory_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resolved working directory is kept per directory: a change of directory is seen."""
    from chunker.summary import output_display

    folder = tmp_path / "a" / "chunks" / "doc"
    folder.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert output_display(folder) == "a/chunks/doc"
    monkeypatch.chdir(tmp_path / "a")
    assert output_display(folder) == "chunks/doc"
    monkeypatch.chdir(folder)
    assert output_display(folder) == "."
    monkeypatch.chdir(tmp_path / "a" / "chunks")
    assert output_display(tmp_path / "elsewhere") == str(tmp_path / "elsewhere")


def test_a_run_over_many_documents_lists_the_most_urgent_and_counts_the_rest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Thousands of new documents get a summary, not a listing: at most TABLE_ROWS rows, every
    document with an error or a warning among them before mere changes, the rest counted."""
    warn = (Diagnostic("warning", "orphan-heading", "orphan heading", 3),)
    docs = [DocOutcome(f"doc-{k:04}", f"sources/doc-{k:04}.md", "new", 0, {"total_chunks": 2}) for k in range(1000)]
    docs[700] = DocOutcome("doc-0700", "sources/doc-0700.md", "failed", 1, message="sources/doc-0700.md: bad")
    for k in (5, 999):
        docs[k] = DocOutcome(f"doc-{k:04}", f"sources/doc-{k:04}.md", "new", 0, {"total_chunks": 2}, warn)
    summary = RunSummary(tuple(docs))
    rows = [d.stem for d in table_rows(summary)]
    assert len(rows) == TABLE_ROWS < len(docs)
    assert {"doc-0700", "doc-0005", "doc-0999"} <= set(rows)
    assert rows == sorted(rows)  # in the run's order
    assert rows[:4] == ["doc-0000", "doc-0001", "doc-0002", "doc-0003"]  # then changes, the run's first
    assert len(table_rows(summary, verbose=True)) == 1000
    render_run(lambda hook: summary, expected=1000, sources=tmp_path, quiet=False, json_out=False)
    out = capsys.readouterr().out
    assert len([line for line in out.splitlines() if line.startswith("│ doc-")]) == TABLE_ROWS
    assert f"{1000 - TABLE_ROWS} new document(s) not listed; --verbose lists every one" in out


def test_documents_with_findings_beyond_the_table_are_counted_in_its_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    warn = (Diagnostic("warning", "overflow", "too big", 9),)
    docs = tuple(DocOutcome(f"d{k:03}", f"sources/d{k:03}.md", "new", 0, {}, warn) for k in range(TABLE_ROWS + 7))
    render_run(lambda hook: RunSummary(docs), expected=len(docs), sources=tmp_path, quiet=False, json_out=False)
    out = capsys.readouterr().out
    assert "7 new document(s) not listed, 7 of them with warnings (counted here); --verbose lists every one" in out


def test_a_warning_of_every_page_of_a_large_tree_is_printed_50_times_then_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from chunker.report import WARNINGS_PER_RUN

    unclosed = Diagnostic("warning", "container-unclosed", "the container ':::tip' is never closed", 5)
    other = Diagnostic("warning", "overflow", "too big", 9)
    docs = [DocOutcome(f"p{k:03}", f"sources/p{k:03}.md", "new", 0, {}, (unclosed,)) for k in range(300)]
    docs[7] = DocOutcome("p007", "sources/p007.md", "new", 0, {}, (unclosed, other))
    docs.append(DocOutcome("old", "sources/old.md", "unchanged", 0, {}, (unclosed,)))  # printed when chunked
    summary = RunSummary(tuple(docs))
    render_run(lambda hook: summary, expected=len(docs), sources=tmp_path, quiet=False, json_out=False)
    lines = capsys.readouterr().out.splitlines()
    assert (
        len([line for line in lines if line.startswith("warning: sources/") and ": container-unclosed: " in line])
        == WARNINGS_PER_RUN
        == 50
    )
    assert "warning: sources/p007.md:9: overflow: too big" in lines  # another code has its own 50
    assert (
        "warning: container-unclosed: 250 more not printed (300 in 300 documents; each document's report.json "
        "has them all, --verbose prints every one)"
    ) in lines
    render_run(lambda hook: summary, expected=len(docs), sources=tmp_path, quiet=False, json_out=False, verbose=True)
    lines = capsys.readouterr().out.splitlines()
    assert (
        len([line for line in lines if line.startswith("warning: sources/") and ": container-unclosed: " in line])
        == 300
    )
    assert not any("more not printed" in line for line in lines)


def test_output_an_exclude_glob_removes_is_named_50_times_then_counted(
    make_work: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # nodejs/nodejs.org's pages: adding exclude: ['blog/**'] removed 1,050 folders, one 'removed ...' line each
    from chunker.report import REMOVALS_PER_RUN

    pages = {f"blog/post-{k:03}.md": f"# Post {k}\n\nNews of the week {k}.\n" for k in range(REMOVALS_PER_RUN + 30)}
    work = make_work({**pages, "index.md": "# Home\n\nWelcome.\n"})
    output(capsys, code=0)
    (work / "config.yaml").write_text("exclude: ['blog/**']\n", encoding="utf-8")
    out, _ = output(capsys, code=0)
    named = [line for line in out.splitlines() if line.startswith("removed chunks/blog/post-")]
    assert len(named) == REMOVALS_PER_RUN == 50
    assert (
        "removed 30 more output folder(s) not named here (80 in all; no source document has its id now: the file is "
        "gone or renamed, or include/exclude leaves it out); --json lists every one, --verbose prints every one"
    ) in out.splitlines()
    assert "81 documents (1 unchanged, 80 removed)" in out
    for k in range(80):  # every one removed, named or not
        assert not (work / "chunks" / "blog" / f"post-{k:03}").exists()


def test_every_removal_is_named_with_verbose_and_listed_by_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import json

    removed = [DocOutcome(f"blog/p{k:04}", f"chunks/blog/p{k:04}", "removed", 0) for k in range(1050)]
    off = [
        DocOutcome(
            f"api/a{k:02}", f"sources/api/a{k:02}.md", "off", 0, delta={"added": 0, "removed": 2, "unchanged": 0}
        )
        for k in range(60)
    ]
    summary = RunSummary(tuple(removed + off))
    render_run(lambda hook: summary, expected=None, sources=tmp_path, quiet=False, json_out=False)
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if line.startswith("removed chunks/blog/p")]) == 50
    assert len([line for line in lines if line.startswith("removed the chunks of sources/api/a")]) == 50
    assert any(line.startswith("removed 1,000 more output folder(s) not named here (1,050 in all; ") for line in lines)
    assert (
        "removed the chunks of 10 more document(s) not named here (60 in all; strategy: off); --json lists every "
        "one, --verbose prints every one"
    ) in lines
    render_run(lambda hook: summary, expected=None, sources=tmp_path, quiet=False, json_out=False, verbose=True)
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if line.startswith("removed chunks/blog/p")]) == 1050
    assert not any(" more output folder(s) not named here " in line for line in lines)
    render_run(lambda hook: summary, expected=None, sources=tmp_path, quiet=False, json_out=True)
    listed = json.loads(capsys.readouterr().out)["documents"]
    assert sum(1 for d in listed if d["status"] == "removed") == 1050


@pytest.mark.parametrize("quiet", [False, True])
def test_check_of_a_tree_never_chunked_names_50_stale_documents_then_counts_them(
    make_work: Callable[..., Path], capsys: pytest.CaptureFixture[str], quiet: bool
) -> None:
    # facebook/react-native-website: --check before any run printed 1,830 'stale: not chunked' lines, --quiet too
    from chunker.report import REMOVALS_PER_RUN

    pages = {f"docs/page-{k:03}.md": f"# Page {k}\n\nText of page {k}.\n" for k in range(REMOVALS_PER_RUN + 30)}
    make_work(pages)
    _, err = output(capsys, "--check", *(["--quiet"] if quiet else []), code=1)
    lines = err.splitlines()
    named = [line for line in lines if line.startswith("error: sources/docs/page-") and ": stale: " in line]
    assert len(named) == REMOVALS_PER_RUN == 50
    assert (
        "error: stale: 30 more stale document(s) not named here (80 in all); --json lists every one, --verbose "
        "prints every one"
    ) in lines
    assert lines[-1].startswith("80 stale documents; to bring the chunks up to date run: ")
    _, err = output(capsys, "--check", "--quiet", "--verbose", code=1)
    assert sum(1 for line in err.splitlines() if ": stale: not chunked (" in line) == 80
    out, _ = output(capsys, "--check", "--json", code=1)
    assert sum(1 for d in json.loads(out)["documents"] if d["status"] == "stale") == 80


def test_stale_documents_of_a_check_are_named_up_to_the_limit_whatever_made_them_stale(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # artifacts out of date (no message) and folders whose source is gone (a message) share the one limit
    edited = [DocOutcome(f"a/p{k:03}", f"sources/a/p{k:03}.md", "stale", 1) for k in range(40)]
    gone = [
        DocOutcome(f"b/p{k:03}", f"chunks/b/p{k:03}", "stale", 1, message=f"chunks/b/p{k:03}: stale") for k in range(40)
    ]
    summary = RunSummary(tuple(edited + gone))
    render_run(lambda hook: summary, expected=None, sources=tmp_path, quiet=True, json_out=False)
    lines = capsys.readouterr().err.splitlines()
    assert sum(1 for line in lines if line.startswith("error: sources/a/")) == 40
    assert sum(1 for line in lines if line.startswith("error: chunks/b/")) == 10
    assert "error: stale: 30 more stale document(s) not named here (80 in all)" in lines[-2]


def test_errors_a_fail_on_option_makes_are_named_with_it_and_the_way_to_make_them_warnings(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = output(capsys, code=1)
    assert (
        "errors by code: unclosed-fence 1 in 1 document (fail_on_broken_fence: false in the config makes them warnings)"
        in out
    )
    assert "warnings by code: frontmatter-duplicate-key 1 in 1 document\n" in out  # a warning names no option
