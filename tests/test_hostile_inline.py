"""Pathological inline syntax: chunking needs block structure only, so the inline parser
(where markdown-it-py spends seconds and gigabytes on such input) never runs over a
document, and hard cuts never leave a chunk with an open backtick fence."""

from __future__ import annotations

from pathlib import Path

import pytest
from _hostile import Case, assert_contract, cases_matching, run_case, run_source

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


@pytest.mark.parametrize("case", cases_matching(r"^inline_"))
def test_every_inline_case_of_the_suite_passes(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_case(case, tmp_path, capsys, monkeypatch)


VARIANTS = {
    "underscore_openers": "_a " * 100_000,
    "mixed_emphasis_ladder": "".join("*" * (i % 30 + 1) + "a" + "_" * (i % 7 + 1) + " " for i in range(50_000)),
    "image_openers": "![" * 100_000,
    "unclosed_autolinks": "<http://a" * 50_000,
    "entity_run": "&amp;&#x41;&#65;" * 30_000,
    "backslash_run": "\\" * 300_000,
    "inline_html_openers": "<a " * 100_000,
    "link_titles_unclosed": '[a](b "c' * 40_000,
    "dollar_math_openers": "$a " * 100_000,
    "backtick_ladder_down": " ".join("`" * n for n in range(700, 0, -1)),
    "heading_of_emphasis": "# " + "*a" * 100_000,
    "setext_heading_of_links": "[a](b " * 50_000 + "\n===",
    "table_cells_of_emphasis": "| a | b |\n|---|---|\n"
    + "".join(f"| {'*a' * 50} | {'[x' * 50} |\n" for _ in range(2000)),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_unseen_inline_pathologies_are_chunked_with_the_text_kept(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "# Inline\n\n" + VARIANTS[name] + "\n\nlast words ZQXEND\n"
    out = run_source(tmp_path, text.encode(), capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXEND"])


def test_a_hard_cut_inside_a_backtick_ladder_never_starts_a_chunk_line_with_an_open_fence() -> None:
    text = "```` " * 2000 + "\n\n" + " ".join("`" * (n % 12 + 3) for n in range(3000)) + "\n"
    result = chunk_markdown(text, ChunkerConfig(min_chars=20, target_chars=60, max_chars=100), "doc", "sources/doc.md")
    assert len(result.chunks) > 10
    assert not [d for d in result.diagnostics.diagnostics if d.code in ("broken-fence", "content-loss")]


def test_the_document_parser_does_not_run_the_inline_rule() -> None:
    from chunker.parse import markdown_parser

    md = markdown_parser(ChunkerConfig().max_nesting)
    tokens = md.parse("a *b* [c](d)\n")
    assert all(not t.children for t in tokens)
