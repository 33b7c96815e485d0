"""Every command writes its messages in one form, the severity first, then where, then what
(`error: sources/x.md:3: ...`, `warning: config.yaml:2: ...`), so `grep '^error:'` finds every
error of a run; a value outside a choice is said the same way by every option; the totals count
the warnings of the run itself; `chunker batch --verbose` exists, as its summary says."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.report import render_run
from chunker.summary import DocOutcome, RunSummary

TABLE_CHARS = frozenset("┏┃┡│└━┳╇┴─")


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    files = {
        "good.md": "# Good\n\n## Part\n\nText of the part.\n",
        "fence.md": "# Fence\n\n```python\nnever closed\n",
        "empty-heading.md": "# Title\n\n## \n\nText under no name.\n",
    }
    work = make_work(files, config="documents:\n  nothere:\n    strategy: faq\n")
    os.symlink("gone.md", work / "sources" / "broken.md")
    return work


def _messages(text: str) -> list[str]:
    """The message lines of a run's output: not the table, the totals or the notes under the table."""
    skip = ("errors by code", "warnings by code")
    return [
        line
        for line in text.splitlines()
        if line
        and not TABLE_CHARS & set(line)
        and not line.startswith(skip)
        and not re.match(r"\d[\d,]* documents? \(", line)
        and " not listed" not in line
    ]


def test_every_message_of_a_run_starts_with_its_severity_then_where(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli([]) == 3
    captured = capsys.readouterr()
    lines = _messages(captured.err) + _messages(captured.out)
    assert lines
    for line in lines:
        assert line.startswith(("error: ", "warning: ")), line
    assert "error: sources/fence.md:3: unclosed-fence: " in captured.err
    assert "error: sources/broken.md: a broken symlink" in captured.err
    assert "warning: sources/empty-heading.md:3: empty-heading: " in captured.out
    assert "warning: config.yaml:2: documents.nothere matches no source document" in captured.out
    (work / "sources" / "broken.md").unlink()
    (work / "sources" / "good.md").write_text("# Good\n\n## Part\n\nChanged.\n", encoding="utf-8")
    assert run_cli(["--check"]) == 1
    err = capsys.readouterr().err
    assert "error: sources/good.md: stale: its artifacts are not what a run would write now\n" in err
    assert "1 stale document; to bring the chunks up to date run: " in err
    assert run_cli(["--doc", "nothere"]) == 2
    assert capsys.readouterr().err.startswith("error: --doc 'nothere': ")


def test_the_totals_count_the_warnings_of_the_run_itself(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "sources" / "broken.md").unlink()
    (work / "sources" / "fence.md").unlink()
    (work / "sources" / "empty-heading.md").unlink()
    assert run_cli([]) == 0
    out = capsys.readouterr().out
    assert " · 0 errors · 1 warning of the run · " in out  # the config key printed above it


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["export", "--format", "xml"], "error: --format must be one of md, jsonl, got 'xml'"),
        (["--durability", "fast"], "error: --durability must be one of full, run, none, got 'fast'"),
        (["schema", "chunk"], "error: the schema must be one of chunks, meta, report, export, summary, got 'chunk'"),
    ],
)
def test_a_value_outside_a_choice_is_said_one_way(
    work: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    assert run_cli(["--quiet"]) == 3
    capsys.readouterr()
    assert run_cli(argv) == 2
    assert capsys.readouterr().err.strip() == expected


def test_counts_of_thousands_have_separators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tuple(DocOutcome(f"d{k:04}", f"sources/d{k:04}.md", "unchanged", 0, {}) for k in range(1234))
    render_run(lambda hook: RunSummary(docs), expected=None, sources=tmp_path, quiet=False, json_out=False)
    assert "1,234 unchanged document(s) not listed; --verbose lists every one" in capsys.readouterr().out


def test_batch_takes_the_verbose_its_summary_mentions(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    (work / "sources" / "broken.md").unlink()
    assert run_cli(["batch", "--out", "build", "--quiet"]) == 1
    assert run_cli(["batch", "--out", "build"]) == 1
    assert "--verbose lists every one" in capsys.readouterr().out
    assert run_cli(["batch", "--out", "build", "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "│ good " in out and "unchanged" in out


def test_errors_of_one_code_over_a_large_tree_are_printed_50_times_then_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chunker.models import Diagnostic

    fence = (Diagnostic("error", "unclosed-fence", "a code fence in lines 3-4 is never closed", 3),)
    docs = tuple(DocOutcome(f"p{k:04}", f"sources/p{k:04}.md", "unchanged", 1, {}, fence) for k in range(5000))
    render_run(lambda hook: RunSummary(docs), expected=None, sources=tmp_path, quiet=True, json_out=False)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 52  # then the line naming the option (the summary's, which --quiet prints on stderr)
    assert lines[0] == "error: sources/p0000.md:3: unclosed-fence: a code fence in lines 3-4 is never closed"
    assert lines[-2] == (
        "error: unclosed-fence: 4,950 more not printed (5,000 in 5,000 documents; each document's report.json has "
        "them all, --verbose prints every one)"
    )
    assert lines[-1].startswith("errors by code: unclosed-fence 5,000 in 5,000 documents (fail_on_broken_fence")
    render_run(lambda hook: RunSummary(docs), expected=None, sources=tmp_path, quiet=True, json_out=False, verbose=True)
    assert len(capsys.readouterr().err.splitlines()) == 5001


def test_quiet_export_and_view_print_no_warnings(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "sources" / "broken.md").unlink()
    assert run_cli(["--quiet"]) == 1
    assert run_cli(["export", "--format", "md", "--quiet"]) == 0
    (work / "chunks" / "_export" / "good" / "009-mine.md").write_text("my notes\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["export", "--format", "md", "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert run_cli(["export", "--format", "md"]) == 0
    assert "left alone: chunks/_export/good/009-mine.md" in capsys.readouterr().err
    (work / "sources" / "good.md").write_text("# Good\n\nEdited since it was chunked.\n", encoding="utf-8")
    assert run_cli(["view", "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert run_cli(["view"]) == 0
    assert "warning: " in capsys.readouterr().err


def test_an_eval_warning_about_a_case_names_its_line_of_the_case_file(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / "broken.md").unlink()
    rows = [
        {
            "id": "g-1",
            "doc": "good",
            "query": "part text",
            "expected_doc_section": "Part",
            "expected_text_contains": "x",
        },
        {"id": "g-2", "doc": "good", "query": "part", "expected_doc_section": "Prat", "expected_text_contains": "Text"},
    ]
    (work / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert run_cli(["eval", "--cases", "cases.jsonl"]) == 0
    out = capsys.readouterr().out
    assert "warning: cases.jsonl:2: case 'g-2': no chunk of good has the section 'Prat', so it can never hit" in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--jobs", "-1"], "error: invalid value for '--jobs' / '-j': -1: it must be 0 or more (chunker --help"),
        (["eval", "--cases", "c.jsonl", "--k", "0"], "error: invalid value for '--k': 0: it must be 1 or more"),
    ],
)
def test_a_number_out_of_range_is_said_in_words(
    work: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    assert run_cli(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(expected) and "x>=" not in err, err
