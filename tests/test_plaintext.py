"""Plain-text sources: heading heuristics (numbered, ALL-CAPS, FAQ), then the shared pipeline.

Golden files: tests/fixtures/txt/<case>.txt next to <case>.<strategy>.json. Regenerate with
`python -m pytest tests/test_plaintext.py --update-golden` and review the diff. Invariants are
asserted before the comparison, so a regenerated golden never blesses a loss.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import dumps
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.plaintext import caps_heading, chunk_text, numbered_heading, text_blocks
from chunker.runner import run
from chunker.settings import Settings

TXT = Path(__file__).resolve().parent / "fixtures" / "txt"
CASES = sorted(p.stem for p in TXT.glob("*.txt"))
CFG = ChunkerConfig()


def chunked(case: str, cfg: ChunkerConfig = CFG) -> tuple[str, ChunkingResult]:
    text = (TXT / f"{case}.txt").read_text(encoding="utf-8")
    return text, chunk_text(text, cfg, case, f"tests/fixtures/txt/{case}.txt")


def assert_invariants(text: str, result: ChunkingResult) -> None:
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    for chunk in result.chunks:
        assert chunk.content_original == text[chunk.start_offset : chunk.end_offset]
        assert chunk.chars <= CFG.max_chars
    covered = "".join(c.content_original for c in result.chunks)
    assert "".join(covered.split()) == "".join(text.split())


def headings(result: ChunkingResult) -> list[tuple[int, int, str]]:
    return [(b.start_line, b.heading_level, b.header_path[-1].text) for b in result.blocks if b.kind == "heading"]


def golden_payload(text: str, result: ChunkingResult) -> dict[str, Any]:
    return {
        "decisions": result.diagnostics.decisions,
        "blocks": [[b.kind, b.start_line, b.end_line, b.heading_level] for b in result.blocks],
        "chunks": [
            {
                "lines": [c.start_line, c.end_line],
                "header_path": [h.text for h in c.header_path],
                "chunk_key": c.chunk_key,
                "content_type": c.content_type,
                "content_for_embedding": c.content_for_embedding,
            }
            for c in result.chunks
        ],
    }


@pytest.mark.parametrize("strategy", ["headings", "faq"])
@pytest.mark.parametrize("case", CASES)
def test_plain_text_output_matches_the_reviewed_golden_file(case: str, strategy: str, update_golden: bool) -> None:
    text, result = chunked(case, replace(CFG, strategy=strategy))
    assert_invariants(text, result)
    actual = dumps(golden_payload(text, result))
    expected_path = TXT / f"{case}.{strategy}.json"
    if update_golden or not expected_path.exists():
        expected_path.write_bytes(actual)
        if not update_golden:
            pytest.fail(f"{expected_path.name} did not exist; written now, review and commit it")
    assert orjson.loads(actual) == orjson.loads(expected_path.read_bytes())


def test_numbered_headings_of_a_russian_wiki_export_get_levels_from_their_depth() -> None:
    _, result = chunked("ru_wiki_numbered")
    assert headings(result) == [
        (3, 2, "1. Введение"),
        (7, 3, "1.1 Назначение документа"),
        (11, 2, "2. Установка"),
        (20, 3, "2.1 Требования к серверу"),
        (23, 3, "2.2 Настройка доступа"),
        (27, 5, "7.3.1.1 Резервное копирование журнала"),
    ]
    assert result.diagnostics.decisions["txt_headings"]["numbered"] == [3, 7, 11, 20, 23, 27]
    assert any(d.code == "txt-numbered-headings" and d.severity == "info" for d in result.diagnostics.diagnostics)


def test_a_numbered_list_inside_a_section_stays_a_list() -> None:
    _, result = chunked("ru_wiki_numbered")
    lists = [b for b in result.blocks if b.kind == "list"]
    assert [(b.start_line, b.end_line) for b in lists] == [(15, 18)]
    assert lists[0].header_path[-1].text == "2. Установка"
    assert len(lists[0].joints) == 3
    holder = [c for c in result.chunks if lists[0].id in c.block_ids]
    assert len(holder) == 1 and lists[0].content in holder[0].content_original


def test_a_numbered_line_ending_with_a_full_stop_is_body_text() -> None:
    _, result = chunked("ru_wiki_numbered")
    last = result.blocks[-1]
    assert (last.kind, last.start_line) == ("paragraph", 31)


def test_consecutive_numbered_lines_are_a_list_not_headings() -> None:
    _, result = chunked("numbered_list")
    assert headings(result) == []
    assert [(b.kind, b.start_line, b.end_line) for b in result.blocks if b.kind == "list"] == [("list", 3, 6)]
    assert result.diagnostics.decisions["txt_headings"]["numbered"] == []


def test_numbered_lines_separated_only_by_blank_lines_are_not_headings() -> None:
    _, result = chunked("numbered_list")
    assert [b.kind for b in result.blocks if b.start_line >= 10] == ["paragraph"] * 3


def test_all_caps_lines_standing_alone_are_level_two_headings() -> None:
    _, result = chunked("caps_headings")
    assert headings(result) == [(1, 2, "ОБЩИЕ ПОЛОЖЕНИЯ"), (6, 2, "ПРИЁМ ОБРАЩЕНИЙ"), (12, 2, "ESCALATION RULES")]
    assert [c.header_path[-1].text for c in result.chunks] == ["ОБЩИЕ ПОЛОЖЕНИЯ", "ПРИЁМ ОБРАЩЕНИЙ", "ESCALATION RULES"]


def test_an_all_caps_line_inside_a_paragraph_is_not_a_heading() -> None:
    text, result = chunked("caps_headings")
    line = text.split("\n").index("VIP CLIENTS ARE SERVED FIRST") + 1
    assert line not in result.diagnostics.decisions["txt_headings"]["caps"]
    assert any(b.kind == "paragraph" and b.start_line < line <= b.end_line for b in result.blocks)


def test_a_heading_line_is_not_repeated_as_context_before_its_own_chunk() -> None:
    _, result = chunked("caps_headings")
    first = result.chunks[0]
    # the document's name (its file name: no title, no H1), then the chunk, which starts with its heading
    assert first.content_for_embedding.startswith("caps_headings\n\nОБЩИЕ ПОЛОЖЕНИЯ\n\nНастоящий")


def test_with_strategy_faq_every_question_and_answer_pair_is_one_chunk() -> None:
    _, result = chunked("faq_ru", replace(CFG, strategy="faq"))
    pairs = [c for c in result.chunks if c.header_path]
    assert [c.content_original.split("\n", 1)[0] for c in pairs] == [
        "В: Как восстановить пароль?",
        "В: Можно ли сменить адрес электронной почты?",
        "Вопрос: Сколько устройств можно подключить",
        "Q: Is there an English interface?",
    ]
    assert pairs[1].content_original.endswith("Старый адрес перестанет работать сразу после подтверждения.")
    assert "Если устройств больше" in pairs[2].content_original
    assert result.diagnostics.decisions["txt_headings"]["faq"] == [3, 6, 10, 16]
    assert result.diagnostics.decisions["faq"]["questions"] == 4


def test_a_question_spanning_two_lines_is_one_heading() -> None:
    _, result = chunked("faq_ru")
    question = next(b for b in result.blocks if b.start_line == 10)
    assert (question.kind, question.end_line, question.heading_level) == ("heading", 11, CFG.faq_level)
    assert question.header_path[-1].text.endswith("к одной учётной записи?")


@pytest.mark.parametrize(
    ("option", "rule", "case"),
    [
        ("txt_numbered_headings", "numbered", "ru_wiki_numbered"),
        ("txt_underlined_headings", "underlined", "pep_like"),
        ("txt_caps_headings", "caps", "caps_headings"),
        ("txt_faq", "faq", "faq_ru"),
    ],
)
def test_each_heuristic_can_be_switched_off(option: str, rule: str, case: str) -> None:
    text, on = chunked(case)
    _, off = chunked(case, ChunkerConfig.from_mapping({option: False}))
    assert on.diagnostics.decisions["txt_headings"][rule]
    assert off.diagnostics.decisions["txt_headings"][rule] == []
    assert off.diagnostics.decisions["txt_headings"]["enabled"][rule] is False
    assert headings(off) == []
    assert_invariants(text, off)


def test_markdown_sources_never_get_the_plain_text_heuristics() -> None:
    text = (TXT / "caps_headings.txt").read_text(encoding="utf-8")
    result = chunk_markdown(text, CFG, "caps", "caps.md")
    assert [b for b in result.blocks if b.kind == "heading"] == []
    assert "txt_headings" not in result.diagnostics.decisions


def test_offsets_refer_to_the_text_after_newline_normalisation() -> None:
    text = "\ufeffГЛАВА ПЕРВАЯ\r\n\r\nТекст главы.\r\n"
    result = chunk_text(text, CFG, "crlf", "crlf.txt")
    assert headings(result) == [(1, 2, "ГЛАВА ПЕРВАЯ")]
    assert not result.diagnostics.errors
    assert result.chunks[0].content_original == "ГЛАВА ПЕРВАЯ\n\nТекст главы."


def test_empty_text_gives_no_chunks_and_a_warning() -> None:
    result = chunk_text("\n\n  \n", CFG, "empty", "empty.txt")
    assert result.chunks == ()
    assert [d.code for d in result.diagnostics.warnings] == ["empty"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1. Введение", (2, "1. Введение")),
        ("2.3 Установка", (3, "2.3 Установка")),
        ("7.3.1.1 Title", (5, "7.3.1.1 Title")),
        ("1. введение", None),
        ("1. Введение.", None),
        ("2024 Release notes", None),
        ("3 Items", None),
        ("1. " + "Очень " * 20 + "длинная строка", None),
    ],
)
def test_the_shape_of_a_numbered_heading(line: str, expected: tuple[int, str] | None) -> None:
    assert numbered_heading(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ОБЩИЕ ПОЛОЖЕНИЯ", True),
        ("FAQ AND NOTES 2", True),
        ("Общие положения", False),
        ("OK", False),
        ("123", False),
        # a sentence of a script without case that holds an acronym is no capitalised title
        ("使用 HTTP 协议发送请求。", False),
        ("这是一个 API 说明。", False),
        ("APIリファレンス", False),
    ],
)
def test_the_shape_of_an_all_caps_heading(line: str, expected: bool) -> None:
    assert caps_heading(line) is expected


def test_chinese_paragraphs_with_acronyms_are_no_sections() -> None:
    text = "这是一个 API 说明。\n\n第二段文字，没有标题。\n\n使用 HTTP 协议发送请求。\n\n更多内容在这里。\n"
    result = chunk_text(text, CFG, "zh", "zh.txt")
    assert {chunk.section for chunk in result.chunks} == {"zh"}
    assert not [d for d in result.diagnostics.warnings if d.code == "orphan-heading"]


def test_every_block_is_an_exact_slice_of_the_text() -> None:
    text = (TXT / "ru_wiki_numbered.txt").read_text(encoding="utf-8")
    blocks, _ = text_blocks(text, CFG)
    for block in blocks:
        assert block.content == text[block.start_offset : block.end_offset]
        assert block.content == block.content.strip()


def test_the_runner_chunks_a_txt_source_with_the_plain_text_heuristics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "wiki.txt").write_bytes((TXT / "ru_wiki_numbered.txt").read_bytes())
    summary = run(Settings(defaults=CFG), sources, tmp_path / "chunks")
    assert summary.exit_code == 0, summary.to_dict()
    report = orjson.loads((tmp_path / "chunks" / "wiki" / "report.json").read_bytes())
    assert report["decisions"]["txt_headings"]["numbered"] == [3, 7, 11, 20, 23, 27]


def test_yaml_frontmatter_of_a_plain_text_goes_to_metadata_never_into_a_chunk() -> None:
    text = "---\ntitle: Report\npassword: ZQXLEAK\n---\nINTRODUCTION\n\nThe body text of the report.\n"
    result = chunk_text(text, ChunkerConfig(), "report", "report.txt")
    assert result.document_metadata == {"title": "Report", "password": "ZQXLEAK"}
    assert all("ZQXLEAK" not in c.content_original + c.content_for_embedding for c in result.chunks)
    assert "The body text of the report." in result.chunks[-1].content_original
    assert result.diagnostics.skipped[0].reason == "frontmatter"


@pytest.mark.parametrize(
    "text",
    [
        "---\nJust a line of prose between rules.\n---\nBody.\n",  # no YAML key: rules, kept as text
        "---\ntitle: Open\nnever closed\n",
        "---\ntitle: Indented\n  ---\nBody.\n",  # an indented '---' is YAML text: never closed
    ],
)
def test_plain_text_that_only_looks_like_frontmatter_is_kept(text: str) -> None:
    result = chunk_text(text, ChunkerConfig(), "doc", "doc.txt")
    assert result.document_metadata == {}
    body = "".join(c.content_original for c in result.chunks)
    assert all(line in body for line in text.splitlines() if line.strip())


def test_numbered_list_items_of_a_pep_are_not_headings_and_underlined_titles_are() -> None:
    _, result = chunked("pep_like")
    assert headings(result) == [
        (1, 1, "Style Guide for Python Code"),
        (4, 2, "Introduction"),
        (22, 2, "Code Lay-out"),
        (27, 2, "Tabs or Spaces?"),
    ]
    assert result.diagnostics.decisions["txt_headings"]["numbered"] == []
    assert result.diagnostics.decisions["txt_headings"]["underlined"] == [1, 4, 22, 27]
    tabs = next(c for c in result.chunks if "preferred indentation" in c.content_original)
    assert tabs.section == "Tabs or Spaces?"
    assert all(c.section != "4. When the code needs to remain compatible with older versions of" for c in result.chunks)


def test_the_numbered_list_of_the_issue_report_stays_body_text_under_no_heading() -> None:
    text = (
        "Some reasons:\n\n1. When applying the guideline would make the code less readable, even\n"
        "   for someone who is used to reading code.\n\n2. To be consistent.\n\nCode Lay-out\n============\n\n"
        "Use 4 spaces per indentation level.\n"
    )
    result = chunk_text(text, CFG, "list", "list.txt")
    assert [(c.section, c.start_line) for c in result.chunks] == [("list", 1), ("Code Lay-out", 8)]


def test_a_numbered_title_next_to_a_list_item_numbered_after_it_is_a_list_item() -> None:
    text = "Intro\n\n1. Download the archive\n\n2. Unpack it into /opt.\n"
    result = chunk_text(text, CFG, "l", "l.txt")
    assert headings(result) == []


def test_over_and_underlined_titles_take_levels_in_order_of_appearance() -> None:
    text = "=====\nGuide\n=====\n\nIntro.\n\nPart\n====\n\nBody.\n\nDetail\n------\n\nMore.\n"
    result = chunk_text(text, CFG, "g", "g.txt")
    assert headings(result) == [(1, 1, "Guide"), (7, 2, "Part"), (12, 3, "Detail")]
    assert_invariants(text, result)


@pytest.mark.parametrize(
    "text",
    [
        "---\ntitle: T\n---\nBody.\n",
        "----\ntitle: T\n---\nmore: yaml\n----\nBody.\n",  # closed by as many dashes as opened it
        "---\ntitle: T\n...\nBody.\n",
        "---\ntitle: T\n---  \nBody.\n",
        "---\n---\nBody.\n",
        "---\nJust prose.\n---\nBody.\n",
        "---\ntitle: Open\nnever closed\n",
        "---\nnotes: |\n  ---\n  text\n---\nBody.\n",
        "---\n- a list\n---\nBody.\n",
        "---\ntitle: [unclosed\n---\nBody.\n",
        "--- x\ntitle: T\n---\nBody.\n",
    ],
)
def test_plain_text_and_markdown_read_frontmatter_by_the_same_rule(text: str) -> None:
    plain = chunk_text(text, ChunkerConfig(), "doc", "doc.txt")
    markdown = chunk_markdown(text, ChunkerConfig(), "doc", "doc.md")
    assert plain.document_metadata == markdown.document_metadata
    assert plain.diagnostics.skipped == markdown.diagnostics.skipped
    codes = {d.code for d in markdown.diagnostics.diagnostics if d.code.startswith("frontmatter")}
    assert {d.code for d in plain.diagnostics.diagnostics if d.code.startswith("frontmatter")} == codes
