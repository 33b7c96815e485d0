"""`chunker eval` on large or broken case files: streamed within limits, summarised on the terminal,
invalid UTF-8 named by line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from chunker import eval_cases
from chunker.cli import run_cli
from chunker.errors import UsageError
from chunker.eval_cases import MAX_CASE_FILE_BYTES, MAX_CASES, load_cases
from chunker.eval_table import SHOWN_CASES, SHOWN_MISSES

DOC = "# Guide\n\n## Install\n\nRun the installer and wait.\n\n## Usage\n\nCall the tool with a file name.\n"


def case_line(n: int, section: str = "Install") -> str:
    return json.dumps(
        {
            "id": f"c{n}",
            "doc": "guide",
            "query": f"how to install {n}",
            "expected_doc_section": section,
            "expected_text_contains": "installer",
        }
    )


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    return make_work({"guide.md": DOC})


def test_invalid_utf8_in_a_case_file_is_named_by_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes((case_line(1) + "\n" + case_line(2) + "\n").encode() + b'{"id": "c\xff3"}\n')
    with pytest.raises(UsageError, match=r"cases\.jsonl:3: invalid UTF-8 byte 0xff at column 10") as info:
        load_cases(path)
    assert info.value.line == 3


def test_a_case_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with path.open("wb") as fh:
        fh.truncate(MAX_CASE_FILE_BYTES + 1)  # sparse: nothing to read, all the more to refuse
    with pytest.raises(UsageError, match=r"huge\.jsonl: case file is .* bytes, more than .*split it"):
        load_cases(path)


def test_a_case_line_over_the_line_limit_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(case_line(1) + "\n" + '{"id": "' + "x" * eval_cases.MAX_CASE_LINE_BYTES + '"}\n', encoding="utf-8")
    with pytest.raises(UsageError, match=r"cases\.jsonl:2: line is longer than"):
        load_cases(path)


def test_more_cases_than_the_limit_are_refused_naming_the_first_line_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(eval_cases, "MAX_CASES", 5)
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(case_line(n) + "\n" for n in range(7)), encoding="utf-8")
    with pytest.raises(UsageError, match=r"cases\.jsonl:6: case file holds more than 5 cases"):
        load_cases(path)


def test_cr_and_crlf_line_ends_and_a_bom_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + f"{case_line(1)}\r\n{case_line(2)}\r{case_line(3)}".encode())
    assert [(c.id, c.line) for c in load_cases(path)] == [("c1", 1), ("c2", 2), ("c3", 3)]


def test_a_large_case_set_prints_a_summary_by_document_not_a_row_per_case(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count = SHOWN_CASES + 400
    cases = work / "cases.jsonl"
    cases.write_text(
        "".join(case_line(n, "Install" if n % 2 else "Nowhere") + "\n" for n in range(count)), encoding="utf-8"
    )
    assert run_cli(["eval", "--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    assert f"{count:,} cases by document" in out
    assert " c11 " not in out and "│ c11 " not in out  # a hit: no row of its own
    assert out.count("can never hit") == SHOWN_MISSES
    assert f"and {count // 2 - SHOWN_MISSES:,} more misses" in out
    assert len(out.splitlines()) < 40 * SHOWN_MISSES
    data = json.loads((work / "chunks" / "_eval" / "cases.json").read_text(encoding="utf-8"))
    assert len(data["cases"]) == count  # the report keeps every case


@pytest.mark.slow
def test_a_case_file_with_more_cases_than_the_limit_exits_2_in_bounded_memory(work: Path) -> None:
    cases = work / "many.jsonl"
    line_count = MAX_CASES + 50_000
    with cases.open("w", encoding="utf-8") as fh:
        for n in range(line_count):
            fh.write(case_line(n) + "\n")
    size = cases.stat().st_size
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunker", "eval", "--cases", str(cases), "--json"],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss * 1024
    assert proc.returncode == 2, err
    assert f"case file holds more than {MAX_CASES:,} cases" in err
    assert peak < 10 * size + 400 * 2**20, f"peak RSS {peak:,} for a {size:,}-byte case file"
