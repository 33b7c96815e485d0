"""Deep nesting of lists and quotes: the parser's nesting limit never loses text silently.

markdown-it-py stops nesting at ``maxNesting`` and drops what lies deeper (with the
``commonmark`` preset, the rest of the document after a list nested 10 deep); raising
the limit blindly gives ``RecursionError``. Chunk text comes from source lines, so
everything is kept, and a ``nesting-limit`` warning says where structure was flattened.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _hostile import Case, assert_contract, cases_matching, run_case, run_source

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


@pytest.mark.parametrize("case", cases_matching(r"^nest_"))
def test_every_nesting_case_of_the_suite_keeps_its_sentinels(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_case(case, tmp_path, capsys, monkeypatch)


VARIANTS = {
    "quote_list_alternating_on_one_line": "> - " * 5000 + "ZQXDEEP\n\nafter ZQXAFTER\n",
    "ordered_items_on_one_line": "1. " * 30000 + "ZQXDEEP\n\nafter ZQXAFTER\n",
    "star_items_on_one_line": "* " * 50000 + "ZQXDEEP\n\nafter ZQXAFTER\n",
    "quoted_lists_growing_per_line": "".join(">" * i + " - item\n" for i in range(1, 120)) + "ZQXDEEP\n\nZQXAFTER\n",
    "indented_list_200_deep": "".join("  " * i + "- level\n" for i in range(200))
    + "  " * 200
    + "- ZQXDEEP\n\nZQXAFTER\n",
    "ordered_list_40_deep": "".join("   " * i + "1. x\n" for i in range(40))
    + "   " * 40
    + "1. ZQXDEEP\n\n# After\n\nZQXAFTER\n",
    "mixed_list_and_quote_lines": "".join("  " * i + ("- " if i % 2 else "> ") + f"item {i}\n" for i in range(80))
    + "  " * 80
    + "- ZQXDEEP\n\n# After\n\nZQXAFTER\n",
    "fence_deep_in_lists": "".join("  " * i + "- x\n" for i in range(70))
    + "  " * 70
    + "```\n"
    + "  " * 70
    + "ZQXDEEP\n"
    + "  " * 70
    + "```\n\nZQXAFTER\n",
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_unseen_nesting_variants_keep_all_text_through_the_command(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, VARIANTS[name].encode(), capsys, monkeypatch)
    assert_contract(out, "any", ["ZQXDEEP", "ZQXAFTER"], line="1")


def test_a_list_nested_past_the_limit_is_reported_with_its_line() -> None:
    text = "# Title\n\nintro\n\n" + "".join("  " * i + "- x\n" for i in range(80)) + "\nZQXAFTER\n"
    result = chunk_markdown(text, ChunkerConfig(), "doc", "sources/doc.md")
    warnings = [d for d in result.diagnostics.warnings if d.code == "nesting-limit"]
    assert warnings and warnings[0].line is not None and warnings[0].line >= 5
    assert not result.diagnostics.errors
    assert "ZQXAFTER" in "".join(c.content_original for c in result.chunks)


@pytest.mark.parametrize("limit", [8, 20, 200])
def test_any_configured_nesting_limit_keeps_the_text_below_it(limit: int) -> None:
    text = "> " * 300 + "ZQXDEEP\n\n" + "".join("  " * i + "- y\n" for i in range(250)) + "\nZQXAFTER\n"
    result = chunk_markdown(text, ChunkerConfig(max_nesting=limit), "doc", "sources/doc.md")
    joined = "".join(c.content_original for c in result.chunks)
    assert "ZQXDEEP" in joined and "ZQXAFTER" in joined
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
