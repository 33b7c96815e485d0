"""Characters and encodings: strict UTF-8 with the bad line named, BOM removed before the
frontmatter is looked for, CRLF and lone CR normalised, U+2028/U+2029/NEL/FF/VT kept as
characters of a line (never counted as line breaks), NUL kept and reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _hostile import Case, assert_contract, cases_matching, run_case, run_source

ENCODING_CASES = (
    r"^(nul_bytes|invalid_utf8_latin1|bom_frontmatter|crlf_line_endings|cr_only_line_endings"
    r"|unicode_line_separators|zero_width_and_bidi)$"
)


@pytest.mark.parametrize("case", cases_matching(ENCODING_CASES))
def test_every_encoding_case_of_the_suite_passes(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_case(case, tmp_path, capsys, monkeypatch)


UNDECODABLE = {
    "cp1252_quotes_after_crlf": (b"# T\r\n\r\nok\r\nok\r\n\x93quoted\x94\r\n", 5),
    "latin1_after_lone_cr": (b"# T\r\rok\r\xe9t\xe9\r", 4),
    "utf8_encoded_surrogate": (b"# T\n\n\xed\xa0\x80\n", 3),
    "overlong_slash": (b"# T\n\nok\n\xc0\xaf\n", 4),
    "cut_at_end_of_file": (b"# T\n\nok \xe2\x82", 3),
    "shift_jis": ("# T\n\nあいう\n".encode("shift_jis"), 3),
    "latin1_after_nel_and_lsep": ("# T\n\na\u0085b\u2028c\n".encode() + b"\xe9\n", 4),
    "utf16_with_bom": ("\ufeff# T\n\ntext\n".encode("utf-16-le"), 1),
    "utf16_without_bom": ("# Title\n\nsome text here\n".encode("utf-16-be"), 1),
    "utf32_with_bom": ("\ufeff# T\n".encode("utf-32"), 1),
}


@pytest.mark.parametrize("name", sorted(UNDECODABLE))
def test_a_source_that_is_not_utf8_exits_3_naming_file_and_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, line = UNDECODABLE[name]
    out = run_source(tmp_path, data, capsys, monkeypatch)
    assert_contract(out, "error", line=str(line))
    assert out.code == 3
    assert f"sources/doc.md:{line}:" in out.stderr
    assert not out.folder.exists()


LINE_ENDINGS = {
    "crlf": "\r\n",
    "cr": "\r",
    "mixed": None,
}


@pytest.mark.parametrize("name", sorted(LINE_ENDINGS))
def test_frontmatter_is_found_and_lines_are_counted_whatever_the_line_endings(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["---", "title: ZQXTITLE", "---", "# Heading", "", "para one", "", "```", "code", "```", "", "ZQXEND"]
    ending = LINE_ENDINGS[name]
    if ending is None:
        text = "".join(line + ("\r\n", "\r", "\n")[k % 3] for k, line in enumerate(lines))
    else:
        text = ending.join(lines) + ending
    out = run_source(tmp_path, b"\xef\xbb\xbf" + text.encode(), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])
    assert out.artifact("meta.json")["document_metadata"]["title"] == "ZQXTITLE"
    chunks = out.chunks()
    assert "title: ZQXTITLE" not in out.chunk_text() and "\r" not in out.chunk_text()
    assert chunks[-1]["end_line"] == 12


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e"])
def test_characters_that_splitlines_breaks_on_do_not_shift_line_numbers(
    separator: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f"# One{separator}still one\n\nbody{separator}more{separator}text\n\n## Two\n\nZQXEND at line 7\n"
    out = run_source(tmp_path, text.encode(), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])
    last = out.chunks()[-1]
    assert last["end_line"] == 7
    assert separator in out.chunk_text()


def test_nul_characters_are_kept_and_reported_with_their_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "# T\x00itle\n\nline\x00two\n\n```\n\x00\n```\n\nZQXEND\n"
    out = run_source(tmp_path, text.encode(), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])
    assert out.chunk_text().count("\x00") == 3
    nul = [w for w in out.report()["warnings"] if w["code"] == "nul-byte"]
    assert nul and nul[0]["line"] == 1 and re.search(r"lines 1, 3, 6", nul[0]["message"])


def test_a_second_bom_inside_the_text_is_kept_as_a_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, b"\xef\xbb\xbf# T\n\nword\xef\xbb\xbfword ZQXEND\n", capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])
    assert "\ufeff" in out.chunk_text()


def test_visually_equal_headings_with_invisible_marks_get_unique_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marks = ["", "\u200b", "\u200d", "\u200f", "\u202e", "\u2066", "\ufeff", "\u00ad"]
    text = "".join(f"## Setup{m}\n\nbody {k}\n\n" for k, m in enumerate(marks)) + "ZQXEND\n"
    out = run_source(tmp_path, text.encode(), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])
    keys = [c["chunk_key"] for c in out.chunks()]
    assert len(keys) == len(set(keys))
