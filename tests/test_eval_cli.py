"""`chunker eval` as users run it: the clinic fixture end to end, the CI gate, forbidden text, exit codes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chunker.cli import run_cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLINIC = FIXTURES / "general_info.md"
CLINIC_CASES = FIXTURES / "general_info.cases.jsonl"


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    return make_work({"general_info.md": CLINIC.read_text(encoding="utf-8")})


def cli(*args: str) -> int:
    return run_cli(["eval", "--cases", str(CLINIC_CASES), *args])


def written(work: Path, name: str = "general_info.cases") -> dict[str, Any]:
    data = json.loads((work / "chunks" / "_eval" / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def one_case(work: Path, section: str) -> Path:
    path = work / "one.jsonl"
    case = {
        "id": "x-01",
        "doc": "general_info",
        "query": "Работаете ли вы в воскресенье?",
        "expected_doc_section": section,
        "expected_text_contains": "воскресенье",
    }
    path.write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_the_clinic_cases_all_find_their_section_in_the_top_5_with_the_default_config(work: Path) -> None:
    assert cli() == 0
    data = written(work)
    assert data["retriever"] == "bm25" and data["k"] == 5
    assert data["totals"]["cases"] == 12
    assert data["totals"]["section_hit_at_k"] == 1.0
    assert data["totals"]["text_hit_at_k"] == 1.0
    assert [c["id"] for c in data["cases"]] == [f"gi-{n:02d}" for n in range(1, 13)]
    assert all(c["section_hit_at_k"] for c in data["cases"])
    assert data["chunks"]["documents"] == {"general_info": data["chunks"]["count"]}
    assert data["gate"]["passed"] is True and data["exit_code"] == 0
    assert (work / "chunks" / "general_info" / "chunks.json").is_file()


def test_eval_reuses_fresh_artifacts_instead_of_rewriting_them(work: Path) -> None:
    assert cli() == 0
    chunks = work / "chunks" / "general_info" / "chunks.json"
    before = (chunks.stat().st_ino, chunks.stat().st_mtime_ns)
    assert cli() == 0
    assert (chunks.stat().st_ino, chunks.stat().st_mtime_ns) == before


def test_json_prints_one_summary_line_on_stdout(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli("--json") == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["totals"]["section_hit_at_k"] == 1.0
    assert summary["misses"] == [] and summary["exit_code"] == 0
    assert summary["report"].endswith("general_info.cases.json")


def test_the_table_shows_totals_on_the_terminal(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli() == 0
    out = capsys.readouterr().out
    assert "gi-12" in out and "Totals" in out and "general_info.cases.json" in out


def test_min_mrr_above_what_is_reached_fails_the_gate_with_exit_1(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli("--min-mrr", "0.99") == 1  # the clinic cases reach 0.875
    assert "below --min-mrr 0.99" in capsys.readouterr().err
    data = written(work)
    assert data["gate"]["passed"] is False and data["exit_code"] == 1
    assert data["gate"]["failures"] == [f"MRR@10 is {data['totals']['mrr_at_10']:.3f}, below --min-mrr 0.99"]


def test_min_hit_at_k_fails_when_the_expected_section_does_not_exist(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = one_case(work, "Раздела нет")
    assert run_cli(["eval", "--cases", str(cases), "--min-hit-at-k", "0.9"]) == 1
    err = capsys.readouterr().err
    assert "section hit@5 is 0.000, below --min-hit-at-k 0.9" in err
    data = written(work, "one")
    assert data["cases"][0]["section_hit_at_k"] is False
    assert data["cases"][0]["top"], "a miss lists what came back instead"


def test_min_hit_at_k_passes_when_it_is_reached(work: Path) -> None:
    assert cli("--min-hit-at-k", "1.0", "--min-mrr", "0.5") == 0


def test_forbid_passes_when_frontmatter_text_never_reaches_a_chunk(work: Path) -> None:
    forbid = work / "forbid.txt"
    forbid.write_text("Кузнецова\nвынесли мета-блок\n\n", encoding="utf-8")
    assert cli("--forbid", str(forbid)) == 0
    assert written(work)["gate"]["forbidden_found"] == []


def test_forbid_fails_and_names_stem_chunk_and_string_when_one_is_present(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forbid = work / "forbid.txt"
    forbid.write_text("Тимпанометрия\n", encoding="utf-8")
    assert cli("--forbid", str(forbid)) == 1
    found = written(work)["gate"]["forbidden_found"]
    assert found and {f["stem"] for f in found} == {"general_info"} and found[0]["string"] == "Тимпанометрия"
    err = capsys.readouterr().err
    assert f"general_info / {found[0]['chunk_id']} contains 'Тимпанометрия'" in err


def test_forbid_scans_every_document_of_the_sources_not_only_those_the_cases_name(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = "# Notes\n\n## Open\n\nInternal: ask Kuznetsova.\n"
    (work / "sources" / "editor_notes.md").write_text(notes, encoding="utf-8")
    forbid = work / "forbid.txt"
    forbid.write_text("ask Kuznetsova\n", encoding="utf-8")
    assert cli("--forbid", str(forbid)) == 1
    data = written(work)
    hit = {"stem": "editor_notes", "chunk_id": "chk_000001", "string": "ask Kuznetsova", "line": 5}
    assert data["gate"]["forbidden_found"] == [hit]
    err = capsys.readouterr().err
    assert (
        "error: sources/editor_notes.md:5: forbidden text: editor_notes / chk_000001 contains 'ask Kuznetsova'" in err
    )
    assert data["chunks"]["documents"] == {"general_info": data["chunks"]["count"]}  # retrieval: the cases' documents


def test_many_forbidden_hits_print_the_first_twenty_then_a_count_and_the_report_lists_them_all(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(30):  # 30 documents, each with a TODO and a FIXME in one chunk
        page = f"# Page {n}\n\nTODO: write. FIXME later.\n"
        (work / "sources" / f"page{n:02d}.md").write_text(page, encoding="utf-8")
    forbid = work / "forbid.txt"
    forbid.write_text("TODO\nFIXME\n", encoding="utf-8")
    assert cli("--forbid", str(forbid)) == 1
    assert len(written(work)["gate"]["forbidden_found"]) == 60
    lines = [line for line in capsys.readouterr().err.splitlines() if "forbidden text:" in line]
    assert len(lines) == 21, lines
    assert lines[0] == "error: sources/page00.md:3: forbidden text: page00 / chk_000001 contains 'TODO'"
    assert lines[-1] == (
        "error: forbidden text: 60 in 30 document(s) ('TODO' 30; 'FIXME' 30); 40 not shown above, "
        "every one is in chunks/_eval/general_info.cases.json"
    )


def test_a_missing_forbid_file_is_a_usage_error(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--forbid", "nope.txt") == 2
    assert "nope.txt: forbidden-strings file not found" in capsys.readouterr().err


def test_a_bad_cases_file_exits_2_naming_file_and_line(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = work / "bad.jsonl"
    good = CLINIC_CASES.read_text(encoding="utf-8").splitlines()[0]
    bad.write_text(good + "\n{not json\n", encoding="utf-8")
    assert run_cli(["eval", "--cases", str(bad)]) == 2
    assert f"{bad}:2: invalid JSON" in capsys.readouterr().err
    assert not (work / "chunks" / "_eval").exists()


def test_a_missing_cases_file_exits_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["eval", "--cases", "absent.jsonl"]) == 2
    assert "absent.jsonl: case file not found" in capsys.readouterr().err


def test_dense_without_a_model_exits_2_saying_how_to_provide_one(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli("--retriever", "dense") == 2
    err = capsys.readouterr().err
    assert "--model PATH" in err and "chunker[dense]" in err
    assert not (work / "chunks").exists(), "nothing is chunked before the options are known to be usable"


def test_dense_with_a_model_folder_that_does_not_exist_exits_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--retriever", "dense", "--model", "no-such-model") == 2
    assert "model directory not found: no-such-model" in capsys.readouterr().err


def test_an_unknown_retriever_exits_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--retriever", "tfidf") == 2
    assert "--retriever must be one of bm25, dense, got 'tfidf'" in capsys.readouterr().err


def test_a_case_naming_a_document_without_source_exits_2_naming_the_case(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = work / "other.jsonl"
    cases.write_text(
        '{"id": "o-1", "doc": "pricing", "query": "q", "expected_doc_section": "s", "expected_text_contains": "t"}\n',
        encoding="utf-8",
    )
    assert run_cli(["eval", "--cases", str(cases)]) == 2
    err = capsys.readouterr().err
    assert f"{cases}:1: case 'o-1': document 'pricing': no source document has this id or file name" in err


def test_stem_keeps_only_the_cases_of_that_document(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--stem", "general_info") == 0
    assert written(work)["totals"]["cases"] == 12
    assert cli("--stem", "pricing") == 2
    assert "no case names document(s) pricing" in capsys.readouterr().err


def test_a_document_that_cannot_be_read_stops_the_eval_with_its_exit_code(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / "general_info.md").write_bytes(b"# Title\n\n\xff\xfe broken\n")
    assert cli() == 3
    assert "general_info.md" in capsys.readouterr().err
    assert not (work / "chunks" / "_eval").exists()


def test_k_below_1_is_refused_by_the_option_parser(work: Path) -> None:
    assert cli("--k", "0") == 2


@pytest.mark.parametrize("option", ["--min-hit-at-k", "--min-mrr"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-0.5", "1.5"])
def test_a_gate_threshold_outside_0_to_1_exits_2_before_anything_is_chunked(
    work: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    # A NaN threshold made every gate pass (exit 0).
    assert cli(option, value) == 2
    assert f"{option} must be a number within 0..1" in capsys.readouterr().err
    assert not (work / "chunks").exists()


def test_a_k_too_large_for_the_report_exits_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--k", "99999999999999999999999") == 2  # was exit 5: orjson's 64-bit limit
    assert "k must be a positive integer of at most 1000000" in capsys.readouterr().err


CASE = '{"id": "a", "doc": "general_info", "query": "Q", "expected_doc_section": "S", "expected_text_contains": "t"}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "x": ' + "[" * 50_000 + "]" * 50_000 + "}", "invalid JSON: nested too deeply"),
        (CASE[:-1] + ', "n": ' + "9" * 5000 + "}", "invalid JSON: a number of more than 4300 digits"),
        (CASE.replace('"Q"', '"\\ud800 x"'), "field 'query' holds the escape \\ud800, a lone UTF-16 surrogate"),
    ],
)
def test_a_case_json_cannot_read_or_the_report_cannot_hold_exits_2_naming_file_and_line(
    work: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    # /tmp/fuzz/repro/eval_deep.jsonl, eval_bigint.jsonl, eval_surrogate.jsonl: each was exit 5.
    cases = work / "bad.jsonl"
    cases.write_text(CASE.replace('"a"', '"first"') + "\n\n" + line + "\n", encoding="utf-8")
    assert run_cli(["eval", "--cases", str(cases)]) == 2
    err = capsys.readouterr().err
    assert f"{cases}:3: {message}" in err, err
    assert "internal error" not in err


def test_a_cases_or_forbid_file_whose_name_is_not_utf8_gets_its_report(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The name's byte 0xff becomes a lone surrogate in Python: the JSON report could not hold it (exit 5).
    name = os.fsdecode(b"cases-\xff.jsonl")
    (work / name).write_text(CLINIC_CASES.read_text(encoding="utf-8"), encoding="utf-8")
    forbid = os.fsdecode(b"forbid-\xff.txt")
    (work / forbid).write_text("ZQXNEVER\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["eval", "--cases", name, "--forbid", forbid, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["cases_file"] == "cases-\\xff.jsonl"
    assert summary["gate"]["forbid_file"] == "forbid-\\xff.txt"
    assert summary["report"].endswith("cases-\\xff.json")
    assert written(work, os.fsdecode(b"cases-\xff"))["cases_file"] == "cases-\\xff.jsonl"
    assert run_cli(["eval", "--cases", name]) == 0
    assert "cases-\\xff.json" in capsys.readouterr().out


def test_chunks_json_with_a_nested_value_where_text_belongs_exits_4_naming_it(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Reused because report.json vouches for it (hash and size updated): str() of a list nested
    # 1000 deep was a RecursionError, exit 5.
    import hashlib

    assert cli() == 0
    folder = work / "chunks" / "general_info"
    text = (folder / "chunks.json").read_text(encoding="utf-8")
    section = '"section": ' + json.dumps(json.loads(text)[0]["section"], ensure_ascii=False)
    assert section in text
    raw = text.replace(section, '"section": ' + "[" * 1000 + '"x"' + "]" * 1000, 1).encode()
    (folder / "chunks.json").write_bytes(raw)
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    report["artifacts"]["chunks.json"] = hashlib.sha256(raw).hexdigest()
    report["artifact_sizes"]["chunks.json"] = len(raw)
    (folder / "report.json").write_text(json.dumps(report), encoding="utf-8")
    capsys.readouterr()
    assert cli() == 4
    err = capsys.readouterr().err
    assert "chunks/general_info/chunks.json: chunk 0 has a 'section' that is not a string" in err, err


def test_a_case_whose_section_no_chunk_has_is_flagged_as_one_that_can_never_hit(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["eval", "--cases", str(one_case(work, "Адрес и график работ"))]) == 0  # a typo
    assert "no chunk of general_info has the section 'Адрес и график работ'" in capsys.readouterr().out
    assert written(work, "one")["cases"][0]["section_exists"] is False
    assert run_cli(["eval", "--cases", str(one_case(work, "Адрес и график работы"))]) == 0
    assert "can never hit" not in capsys.readouterr().out
    assert written(work, "one")["cases"][0]["section_exists"] is True
