"""Blocks, fences and sizes: unclosed and nested fences, oversize code/tables/paragraphs,
headings without body, empty files. Every chunk keeps its fences balanced, nothing is
dropped, and what cannot hold (an orphan heading, an unclosed fence) is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from _hostile import Case, assert_contract, cases_matching, run_case, run_source

BLOCK_CASES = (
    r"^(baseline_valid|unclosed_fence_eof|mixed_fences|big_code_block|big_table_2000_rows|paragraph_no_sentence_end"
    r"|trailing_heading|only_headings|duplicate_headings|empty|frontmatter_only)$"
)


@pytest.mark.parametrize("case", cases_matching(BLOCK_CASES))
def test_every_block_case_of_the_suite_passes(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_case(case, tmp_path, capsys, monkeypatch)


VARIANTS = {
    "tilde_fence_unclosed": "# T\n\nintro\n\n~~~~ sh\n" + "echo ZQXIN\n" * 500,
    "fence_unclosed_in_quote": "# T\n\n> ```\n" + "> line ZQXIN\n" * 300,
    "fence_unclosed_in_list": "# T\n\n- item\n\n  ```\n" + "  code ZQXIN\n" * 300,
    "longer_closing_fence": "# T\n\n```\n" + "x = 1\n" * 400 + "``````\n\nZQXIN\n",
    "backtick_info_with_backtick": "# T\n\n``` a`b\nZQXIN\n```\n",
    "fence_in_html_block": "# T\n\n<div>\n```\n</div>\n\nZQXIN\n",
    "math_block_unclosed": "# T\n\n$$\n" + "x^2\n" * 800 + "ZQXIN\n",
    "huge_html_block": "# T\n\n<table>\n" + "<tr><td>cell</td></tr>\n" * 500 + "ZQXIN\n</table>\n",
    "table_without_body": "# T\n\n| a | b |\n|---|---|\n\nZQXIN\n",
    "table_2000_wide_rows": "# T\n\n| a | b |\n|---|---|\n" + "| " + "w " * 2000 + "| x |\n" + "| ZQXIN | y |\n",
    "indented_code_huge": "# T\n\n" + "    code line\n" * 2000 + "    ZQXIN\n",
    "setext_headings_only": "".join(f"Title {i}\n=====\n\n" for i in range(200)) + "ZQXIN\n=====\n",
    "thematic_breaks_only": "---\n\n***\n\n___\n\n" * 100 + "ZQXIN\n",
    "blank_lines_only_with_text_at_end": "\n" * 50_000 + "ZQXIN",
    "no_final_newline_in_fence": "# T\n\n```\nZQXIN",
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_unseen_block_variants_keep_text_and_balance_fences(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, VARIANTS[name].encode(), capsys, monkeypatch)
    assert_contract(out, "any", ["ZQXIN"])
    if out.code:  # only a fence the source never closes fails the run (fail_on_broken_fence)
        assert out.code == 1 and {e["code"] for e in out.report()["errors"]} == {"unclosed-fence"}, out.stderr


def test_an_unclosed_fence_is_closed_in_the_chunk_and_reported_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, b"# T\n\ntext\n\n```python\nprint('ZQXIN')\n", capsys, monkeypatch)
    assert_contract(out, "error", ["ZQXIN"], line="5")  # fail_on_broken_fence: exit 1, artifacts written
    errors = out.report()["errors"]
    assert any(e["code"] == "unclosed-fence" and e["line"] == 5 for e in errors), errors
    last = out.chunks()[-1]
    assert last["added_lines"] and last["content_original"].endswith("```")


def test_a_zero_byte_file_gives_no_chunks_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, b"", capsys, monkeypatch)
    assert_contract(out, "ok")
    assert out.chunks() == []
    assert any(w["code"] == "empty" for w in out.report()["warnings"])


@pytest.mark.parametrize(
    ("text", "reported"),
    [
        ("# T\n\n    ```\n    indented code\n\nText.\n", False),  # indented code: no fence at all
        ("# T\n\n<div>\n```\n</div>\n\nText.\n", False),  # HTML block
        ("# T\n\n- item\n\n  ```\n  code\n  ```\n\nText.\n", False),
        ("# T\n\n> ```\n> code\n> ```\n\nText.\n", False),
        ("# T\n\n- item\n\n  ```\n  code\n\nText.\n", True),  # the fence ends with its list item
        ("# T\n\n> ```\n> code\n\nText.\n", True),  # ... with its quote
        ("# T\n\n```\ncode\n", True),
    ],
)
def test_unclosed_fence_is_reported_exactly_where_the_parser_sees_one(text: str, reported: bool) -> None:
    from chunker.config import ChunkerConfig
    from chunker.pipeline import chunk_markdown

    result = chunk_markdown(text, ChunkerConfig(), "doc", "doc.md")
    codes = [d.code for d in result.diagnostics.diagnostics]
    assert ("unclosed-fence" in codes) is reported, codes
    assert [d.code for d in result.diagnostics.errors if d.code != "unclosed-fence"] == []
