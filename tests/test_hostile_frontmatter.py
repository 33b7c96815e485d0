"""Malicious or broken YAML frontmatter, end to end through the command: refused or
converted with the frontmatter's file line in every message, never executed, never
expanded into huge outputs, and the body always kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from _hostile import Case, assert_contract, cases_matching, run_case, run_source, strings


@pytest.mark.parametrize("case", cases_matching(r"^(fm_|frontmatter_only$|baseline_valid$)"))
def test_every_frontmatter_case_of_the_suite_passes(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_case(case, tmp_path, capsys, monkeypatch)


def document(yaml_text: str) -> bytes:
    return ("---\n" + yaml_text + "---\n# Body\n\nThe body ZQXBODY.\n").encode()


REFUSED = {
    # name: (YAML between the --- lines, file line the message must name)
    "alias_bomb_of_mappings": (
        "a0: &a0 {k: v}\n" + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9)),
        "6",
    ),
    "merge_key_chain": (
        "a0: &a0 {k: v}\n" + "".join(f"a{i}: &a{i} {{<<: [*a{i - 1}]}}\n" for i in range(1, 100)),
        "34",
    ),
    "aliases_of_a_long_string": ('a: &a "' + "x" * 60_000 + '"\nb: [' + ", ".join(["*a"] * 1000) + "]\n", "3"),
    "mapping_nested_by_indentation": ("".join("  " * i + f"k{i}:\n" for i in range(100)) + "  " * 100 + "v\n", "65"),
    "block_sequence_nested_on_one_line": ("x: " + "- " * 300 + "v\n", "2"),
    "flow_mappings_nested": ("x: " + "{a: " * 500 + "1" + "}" * 500 + "\n", "2"),
    "python_name_tag": ("title: t\ncmd: !!python/name:os.system\n", "3"),
    "python_object_new": ("x: !!python/object/new:os.system [echo ZQXPWNED]\n", "2"),
    "unknown_local_tag": ("title: t\n\nx: !secret value\n", "4"),
    "invalid_date": ("title: t\nwhen: 2021-02-30\n", "3"),
    "float_tag_on_text": ("n: !!float abc\n", "2"),
    "integer_of_5000_digits": ("n: " + "7" * 5000 + "\n", "2"),
    "tab_indentation": ("a:\n\tb: 1\n", "3"),
    "unhashable_key": ("? [a, b]\n: 1\n", "2"),
    "too_large": ("k: " + "v" * 70_000 + "\n", "2"),
    "lone_surrogate_escape": ('title: "\\ud800"\n', "2"),
    "lone_surrogate_escape_nested": ('title: t\nmeta:\n  tags: [a, "b\\udfff"]\n', "4"),
    "lone_surrogate_escape_in_a_key": ('title: t\n"k\\ud800": v\n', "3"),
    "surrogate_pair_escape": ('title: "\\ud83d\\ude00"\n', "2"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_hostile_frontmatter_is_refused_with_its_line_and_the_body_is_still_chunked(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml_text, line = REFUSED[name]
    out = run_source(tmp_path, document(yaml_text), capsys, monkeypatch)
    assert_contract(out, "any", line=line)
    total = sum(p.stat().st_size for p in out.folder.glob("*.json")) if out.folder.exists() else 0
    assert total < 2_000_000
    assert not (out.work / "ZQXPWNED").exists()
    if out.code == 1:  # fail_on_bad_frontmatter (the default): artifacts written, the run fails
        assert "frontmatter" in out.stderr
        assert "ZQXBODY" in out.chunk_text()


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_with_the_lenient_policy_bad_frontmatter_is_a_warning_and_the_run_succeeds(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml_text, _ = REFUSED[name]
    config = "min_chars: 200\ntarget_chars: 800\nmax_chars: 1500\nfail_on_bad_frontmatter: false\n"
    out = run_source(tmp_path, document(yaml_text), capsys, monkeypatch, config=config)
    assert_contract(out, "ok", ["ZQXBODY"])
    codes = {w["code"] for w in out.report()["warnings"]}
    assert any(code.startswith("frontmatter") for code in codes), codes


CONVERTED = {
    "dates_and_times": ("title: T\nd: 2020-01-02\nt: 2020-01-02 03:04:05\n", {"d": "2020-01-02"}),
    "set_and_binary": ("s: !!set {b: null, a: null}\nb: !!binary aGVsbG8=\n", {"s": ["a", "b"], "b": "aGVsbG8="}),
    "huge_int_and_nan": ("i: 1180591620717411303424\nf: .nan\ng: -.inf\n", {"i": "1180591620717411303424", "f": "nan"}),
    "non_string_keys": (
        "1: one\nnull: nothing\n2020-01-01: day\n",
        {"1": "one", "null": "nothing", "2020-01-01": "day"},
    ),
    "small_anchors": ("base: &b {x: 1}\nuse: *b\nmerged:\n  <<: *b\n  y: 2\n", {"merged": {"x": 1, "y": 2}}),
}


@pytest.mark.parametrize("name", sorted(CONVERTED))
def test_values_json_cannot_hold_are_converted_into_meta_json(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml_text, expected = CONVERTED[name]
    out = run_source(tmp_path, document(yaml_text), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXBODY"])
    metadata = out.artifact("meta.json")["document_metadata"]
    for key, value in expected.items():
        assert metadata[key] == value


NOT_METADATA = {
    "thematic_break_then_prose": "\nIntro ZQXKEPT paragraph.\n\n",
    "thematic_break_then_rules": "\n***\n\n___ ZQXKEPT\n\n",
    "list_root": "- ZQXKEPT\n- b\n",
    "scalar_root": "just ZQXKEPT text\n",
    "heading_and_text": "# ZQXKEPT heading\ntext\n",
}


@pytest.mark.parametrize("name", sorted(NOT_METADATA))
def test_a_block_between_dashes_that_is_not_metadata_is_kept_as_body_with_a_warning(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, document(NOT_METADATA[name]), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXKEPT", "ZQXBODY"])
    assert any(w["code"].startswith("frontmatter") and w["line"] in (1, 2) for w in out.report()["warnings"])


def test_an_unclosed_frontmatter_keeps_its_lines_as_body_with_a_warning_on_line_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, b"---\ntitle: ZQXKEPT\n\n# Heading\n\nBody ZQXBODY.\n", capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXKEPT", "ZQXBODY"])
    assert any(w["code"] == "frontmatter-unclosed" and w["line"] == 1 for w in out.report()["warnings"])


INDENTED_DASHES = {
    # name: YAML with an indented '---' line in its text (markdown-it's front_matter plugin closes the block there)
    "literal_block_scalar": "title: ZQXFM1\nnotes: |\n  ZQXFM2 notes\n  ---\n  secret_token: ZQXFM3\nend: ZQXFM4\n",
    "folded_scalar_three_spaces": "title: ZQXFM1\nnotes: >\n   ---\n   secret_token ZQXFM2\nend: ZQXFM3\n",
    "trailing_blanks_and_more_dashes": "notes: |\n  -----  \n  ZQXFM1: 1\n  --- \nother: ZQXFM2\n",
    "nested_mapping": "meta:\n  notes: |\n   ZQXFM1\n   ---\n   ZQXFM2\n  author: ZQXFM3\n",
}


@pytest.mark.parametrize("name", sorted(INDENTED_DASHES))
def test_an_indented_dash_line_inside_the_yaml_does_not_close_the_frontmatter(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml_text = INDENTED_DASHES[name]
    out = run_source(tmp_path, document(yaml_text), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXBODY"])
    assert out.artifact("meta.json")["document_metadata"] == yaml.safe_load(yaml_text)
    title = str(yaml.safe_load(yaml_text).get("title", ""))
    text = "\n".join(strings(out.chunks()))
    assert "ZQXFM" not in (text.replace(title, "") if title else text)  # the title names the document, no more
    closing_line = yaml_text.count("\n") + 2
    skipped = [(s["start_line"], s["end_line"]) for s in out.report()["skipped"] if s["reason"] == "frontmatter"]
    assert skipped == [(1, closing_line)]


def test_frontmatter_closed_only_by_an_indented_dash_line_is_unclosed_and_kept_as_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, b"---\ntitle: ZQXKEPT\n  ---\n# Heading\n\nBody ZQXBODY.\n", capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXKEPT", "ZQXBODY"])
    assert out.artifact("meta.json")["document_metadata"] == {}
    assert any(w["code"] == "frontmatter-unclosed" and w["line"] == 1 for w in out.report()["warnings"])


def test_keys_that_are_one_python_key_are_reported_as_duplicates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, document("1: one\ntitle: t\ntrue: yes\n1.0: again\n"), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXBODY"])
    duplicates = [w for w in out.report()["warnings"] if w["code"] == "frontmatter-duplicate-key"]
    assert [w["line"] for w in duplicates] == [4, 5]


def test_a_surrogate_escape_in_the_title_never_reaches_the_artifacts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The title goes into every breadcrumb: a lone surrogate there made the run an internal error (exit 5).
    out = run_source(tmp_path, document('title: "\\ud800"\n'), capsys, monkeypatch)
    assert_contract(out, "error", ["ZQXBODY"], line="2")
    assert out.code == 1 and "surrogate" in out.stderr
    assert out.artifact("meta.json")["document_metadata"] == {}
    assert all("\ufffd" not in c["content_for_embedding"] for c in out.chunks())
