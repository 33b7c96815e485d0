"""`chunker eval` as users run it: the clinic fixture end to end, the CI gate, forbidden text, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chunker.cli import run_cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLINIC = FIXTURES / "general_info.md"
CLINIC_CASES = FIXTURES / "general_info.cases.jsonl"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "general_info.md").write_text(CLINIC.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


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
    assert cli("--min-mrr", "1.01") == 1
    assert "below --min-mrr 1.01" in capsys.readouterr().err
    data = written(work)
    assert data["gate"]["passed"] is False and data["exit_code"] == 1
    assert data["gate"]["failures"] == [f"MRR@10 is {data['totals']['mrr_at_10']:.3f}, below --min-mrr 1.01"]


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
    assert "unknown retriever 'tfidf'" in capsys.readouterr().err


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
    assert f"{cases}:1: case 'o-1' names document 'pricing': no source for stem 'pricing'" in err


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
