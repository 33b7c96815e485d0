"""The section contract the clinic users' retrieval eval depends on (general_info.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Chunk, ChunkingResult
from chunker.pipeline import chunk_markdown

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "general_info.md"


@pytest.fixture(scope="module")
def result() -> ChunkingResult:
    return chunk_markdown(FIXTURE.read_text(encoding="utf-8"), ChunkerConfig(), "general_info", str(FIXTURE))


def containing(result: ChunkingResult, needle: str) -> list[Chunk]:
    found = [c for c in result.chunks if needle.casefold() in c.content_original.casefold()]
    assert found, f"no chunk contains {needle!r}"
    return found


def test_every_chunk_has_a_section_that_does_not_start_with_a_digit(result: ChunkingResult) -> None:
    assert result.chunks
    for chunk in result.chunks:
        assert chunk.section.strip()
        assert not chunk.section[0].isdigit()


def test_no_frontmatter_text_reaches_any_chunk(result: ChunkingResult) -> None:
    for chunk in result.chunks:
        for leaked in ("Кузнецова", "update_log", "Прайс 2026", "intent:"):
            assert leaked not in chunk.content_for_embedding
    assert result.document_metadata["intent"] == "general_info"
    assert result.chunks[0].start_line == 16  # the first heading, right after the frontmatter


@pytest.mark.parametrize("needle", ["тимпанометр", "эндоскоп", "спирограф"])
def test_procedures_are_in_the_section_of_their_h2_and_say_so(result: ChunkingResult, needle: str) -> None:
    for chunk in containing(result, needle):
        assert chunk.section == "Направления приёма"
        assert "Направления приёма" in chunk.content_for_embedding


@pytest.mark.parametrize(
    ("needle", "subheading"),
    [("Терво", "### Оториноларингологи"), ("Созонова", "### Аллергологи-иммунологи")],
)
def test_doctors_keep_their_h2_section_and_their_h3_line(result: ChunkingResult, needle: str, subheading: str) -> None:
    for chunk in containing(result, needle):
        assert chunk.section == "Список врачей по специальностям"
        assert subheading in chunk.content_original


def test_h3_subsections_do_not_open_sections(result: ChunkingResult) -> None:
    sections = {c.section for c in result.chunks}
    assert not sections & {"Оториноларингологи", "Аллергологи-иммунологи", "Отоневролог", "Сурдоакустик"}


def test_numbered_list_of_tax_certificates_is_one_chunk_of_its_section(result: ChunkingResult) -> None:
    chunks = containing(result, "1. Лично — в клинике")
    assert len(chunks) == 1
    chunk = chunks[0]
    assert chunk.section == "Справки для налогового вычета"
    for item in ("1. Лично", "2. Через личный кабинет", "3. Клиника отправляет"):
        assert item in chunk.content_original
    assert "Лично — в клинике" not in {c.section for c in result.chunks}


def test_otoneurologist_is_not_merged_with_the_next_h2(result: ChunkingResult) -> None:
    for chunk in containing(result, "Отоневролог"):
        assert "Что взять с собой на приём" not in chunk.content_original


def test_no_chunk_crosses_an_h2_boundary(result: ChunkingResult) -> None:
    h2 = re.compile(r"^## (.+)$", re.MULTILINE)
    for chunk in result.chunks:
        headings = h2.findall(chunk.content_original)
        assert len(headings) <= 1
        if headings:
            assert headings[0] == chunk.section


def test_second_h1_and_its_h2_sections_are_normal_sections(result: ChunkingResult) -> None:
    late = [c for c in result.chunks if c.header_path and c.header_path[0].text == "Особые сценарии"]
    assert {c.section for c in late} == {"Пациент опаздывает на приём", "Пациент просит выписку из карты"}
    first = late[0]
    assert first.content_original.startswith("# Особые сценарии\n\n## Пациент опаздывает на приём")
    # The chunk starts with both heading lines, so no breadcrumb repeats them: only the document's
    # title (its first H1) names the document.
    title = result.chunks[0].header_path[0].text
    assert title != "Особые сценарии"
    assert first.content_for_embedding == f"{title}\n\n{first.content_original}"


def test_every_piece_of_a_long_section_carries_its_context() -> None:
    body = "\n\n".join(f"Пункт {i}. " + "Длинное предложение о правилах приёма пациентов. " * 6 for i in range(12))
    text = f"# Клиника\n\n## Правила\n\n{body}\n\n## Другое\n\nКоротко.\n"
    result = chunk_markdown(text, ChunkerConfig(), "rules", "rules.md")
    pieces = [c for c in result.chunks if c.section == "Правила"]
    assert len(pieces) >= 3
    assert pieces[0].content_for_embedding.startswith("# Клиника\n\n## Правила\n\n")
    for piece in pieces[1:]:
        assert piece.content_for_embedding.startswith("Клиника > Правила\n\n")
    assert all(piece.chars <= 1200 for piece in pieces)
    assert [c.section for c in result.chunks][-1] == "Другое"


def test_crlf_input_gives_the_same_chunks_as_lf_input() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    lf = chunk_markdown(text, ChunkerConfig(), "g", "g.md")
    crlf = chunk_markdown(text.replace("\n", "\r\n"), ChunkerConfig(), "g", "g.md")
    cr = chunk_markdown(text.replace("\n", "\r"), ChunkerConfig(), "g", "g.md")
    assert [c.to_dict() for c in lf.chunks] == [c.to_dict() for c in crlf.chunks] == [c.to_dict() for c in cr.chunks]


def test_code_fence_with_a_hash_line_is_code_not_a_heading() -> None:
    text = "## Build\n\n```sh\n# not a heading\nmake\n```\n\n## Next\n\nText.\n"
    result = chunk_markdown(text, ChunkerConfig(), "b", "b.md")
    assert [c.section for c in result.chunks] == ["Build", "Next"]
    assert "# not a heading" in result.chunks[0].content_original


def test_tables_lists_and_math_stay_whole_when_they_fit() -> None:
    rows = "\n".join(f"| r{i} | value number {i} |" for i in range(20))
    items = "\n".join(f"- item {i} with some words" for i in range(20))
    math = "$$\n" + "\n".join(f"x_{i} = {i}" for i in range(10)) + "\n$$"
    text = f"## A\n\n{'Intro sentence. ' * 30}\n\n| k | v |\n|---|---|\n{rows}\n\n{items}\n\n{math}\n"
    cfg = ChunkerConfig(max_chars=700, target_chars=400, min_chars=50)
    result = chunk_markdown(text, cfg, "a", "a.md")
    table = [c for c in result.chunks if "| r0 |" in c.content_original]
    assert len(table) == 1 and "| r19 |" in table[0].content_original and table[0].has_table
    lists = [c for c in result.chunks if "- item 0 " in c.content_original]
    assert len(lists) == 1 and "- item 19 " in lists[0].content_original
    maths = [c for c in result.chunks if "x_0 = 0" in c.content_original]
    assert len(maths) == 1 and "x_9 = 9" in maths[0].content_original and maths[0].has_math


def test_skipped_sections_are_reported_not_chunked() -> None:
    text = "# Doc\n\nIntro.\n\n## Indice\n\n1. Uno\n2. Due\n\n## Contenuto\n\nTesto.\n"
    result = chunk_markdown(text, ChunkerConfig(), "d", "d.md")
    assert "Indice" not in {c.section for c in result.chunks}
    assert [s.reason for s in result.diagnostics.skipped] == ["section 'Indice' is in skip_headings"]
    assert result.diagnostics.skipped[0].start_line == 5


EDITOR_NOTES = "Анализ материалов вики и предложения по дополнению"


def test_an_excluded_heading_removes_its_whole_subtree_reported_once_under_its_own_option() -> None:
    text = (
        "# Клиника\n\nТекст.\n\n## Приём\n\nПриём идёт.\n\n"
        f"# {EDITOR_NOTES}\n\nЗаметки.\n\n## Что устарело\n\nСтарое.\n\n### Детали\n\nЕщё.\n\n"
        "## Чего не хватает\n\nНового.\n\n# Контакты\n\nТелефон.\n"
    )
    result = chunk_markdown(text, ChunkerConfig(excluded_section_headings=(EDITOR_NOTES,)), "g", "g.md")
    assert [c.section for c in result.chunks] == ["Клиника", "Приём", "Контакты"]
    assert not any(w in c.content_original for c in result.chunks for w in ("Заметки", "Старое", "Ещё", "Нового"))
    skipped = result.diagnostics.skipped
    assert [s.reason for s in skipped] == [f"section '{EDITOR_NOTES}' is in excluded_section_headings"]
    assert (skipped[0].start_line, skipped[0].end_line) == (9, 23)


def test_a_skipped_heading_below_the_section_level_removes_only_its_own_subtree() -> None:
    text = "## Parte\n\nTesto.\n\n### Bibliografia\n\nRossi 1999.\n\n#### Note\n\nx.\n\n### Fine\n\nAltro.\n"
    result = chunk_markdown(text, ChunkerConfig(), "p", "p.md")
    kept = "\n".join(c.content_original for c in result.chunks)
    assert "Rossi" not in kept and "x." not in kept and "Testo." in kept and "Altro." in kept
    assert {c.section for c in result.chunks} == {"Parte"}
    assert [s.reason for s in result.diagnostics.skipped] == ["section 'Bibliografia' is in skip_headings"]


def test_skip_pre_heading_drops_and_reports_the_title_page() -> None:
    text = "Title page\n\nTable of contents\n\n# Real start\n\nBody.\n"
    kept = chunk_markdown(text, ChunkerConfig(), "stem-name", "d.md")
    assert kept.chunks[0].section == "stem-name"
    dropped = chunk_markdown(text, ChunkerConfig(skip_pre_heading=True), "stem-name", "d.md")
    assert dropped.chunks[0].section == "Real start"
    assert dropped.diagnostics.skipped[0].end_line == 3


def test_pre_heading_text_is_named_by_the_frontmatter_title() -> None:
    text = "---\ntitle: Manuale\n---\nTesto iniziale.\n\n## Primo\n\nAltro testo.\n"
    result = chunk_markdown(text, ChunkerConfig(), "m", "m.md")
    assert result.chunks[0].section == "Manuale"


def test_overlap_goes_into_embedding_text_only_and_stays_in_the_section() -> None:
    body = " ".join(f"Sentence number {i} explains one more detail." for i in range(60))
    text = f"## One\n\n{body}\n\n## Two\n\nOther text here.\n"
    result = chunk_markdown(text, ChunkerConfig(overlap_sentences=1), "o", "o.md")
    ones = [c for c in result.chunks if c.section == "One"]
    assert len(ones) >= 2
    last_sentence = ones[0].content_original.rstrip().rsplit(". ", 1)[-1]
    assert last_sentence in ones[1].content_for_embedding
    assert last_sentence not in ones[1].content_original
    two = next(c for c in result.chunks if c.section == "Two")
    assert "Sentence number" not in two.content_for_embedding


def test_a_long_section_is_cut_at_a_sub_heading_rather_than_inside_the_next_subsection() -> None:
    intro = "Overview of the procedure and who may apply for it, in two short sentences. Read on for details."
    long_a = " ".join(f"Step {i} of the application explains one more requirement in detail." for i in range(26))
    text = f"# Guide\n\n## Apply\n\n{intro}\n\n### Documents\n\n{long_a}\n\n### Fees\n\nThe fee is 20 euros.\n"
    result = chunk_markdown(text, ChunkerConfig(), "g", "g.md")
    first = result.chunks[0]
    assert intro in first.content_original
    assert "### Documents" not in first.content_original  # not: intro + half of "Documents", cut at a sentence
    documents = next(c for c in result.chunks if "### Documents" in c.content_original)
    assert documents.content_original.startswith("### Documents")
    assert {c.section for c in result.chunks} == {"Apply"}


def test_a_paragraph_ending_with_a_colon_stays_with_the_block_it_introduces() -> None:
    # The cut nearest the 800-char target would fall right after "For example:" (~720 chars in).
    before = " ".join(f"Sentence {i} says what the settings file holds." for i in range(15))  # ~700 chars
    code = "\n".join(f'"setting.{i}": "value number {i}",' for i in range(10))  # ~300 chars
    after = " ".join(f"Closing sentence {i} adds a remark." for i in range(14))  # ~500 chars
    text = f"## Settings\n\n{before}\n\nFor example:\n\n```json\n{code}\n```\n\n{after}\n"
    result = chunk_markdown(text, ChunkerConfig(), "s", "s.md")
    assert len(result.chunks) == 2
    holder = next(c for c in result.chunks if "For example:" in c.content_original)
    assert "```json" in holder.content_original  # not cut between the lead-in and its example
    assert not any(c.content_original.rstrip().endswith(":") for c in result.chunks)


def _deep_document(blank_lines: int) -> str:
    """H1 > H2 > H3 > H4 > H5 > H6, each level with two children, paragraphs under the H6s."""
    gap = "\n" * (blank_lines + 1)
    parts = ["# Regulation on vehicles"]
    for a in range(1, 3):
        parts.append(f"## Part {a} - Vehicles of class {a}")
        for b in range(1, 3):
            parts.append(f"### Chapter {a}.{b} - Approval")
            for c in range(1, 3):
                parts.append(f"#### Title {a}.{b}.{c} - Brakes")
                for d in range(1, 3):
                    parts.append(f"##### Article {a}.{b}.{c}.{d} - Testing")
                    for e in range(1, 3):
                        parts.append(f"###### § {a}{b}{c}{d}{e} Inspection interval")
                        parts.append(f"The interval for vehicles of this kind is {a + b + c + d + e} months. " * 6)
    return gap.join(parts) + "\n"


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("blank_lines", [0, 2])
@pytest.mark.parametrize("prefix", ["breadcrumb", "blockquote"])
def test_every_chunk_of_a_deep_document_names_its_section_once(depth: int, blank_lines: int, prefix: str) -> None:
    """However deep the heading path, the context line keeps the chunk's section (the H2); the
    blockquote line names the document by its H1; a breadcrumb does not repeat a heading the
    chunk starts with (the blockquote line is the full path by design)."""
    cfg = ChunkerConfig(context_depth=depth, context_prefix=prefix)
    result = chunk_markdown(_deep_document(blank_lines), cfg, "reg", "reg.md")
    assert len(result.chunks) > 10
    for chunk in result.chunks:
        assert chunk.section.startswith("Part "), chunk.section
        embedding = chunk.content_for_embedding
        assert chunk.section in embedding, (chunk.chunk_id, embedding[:200])
        head = embedding[: len(embedding) - len(chunk.content_original)]
        if prefix == "blockquote":
            assert head.startswith("> Kontext: Regulation on vehicles > "), head
            continue
        for heading in chunk.header_path:
            if heading.text in head:
                assert heading.text not in chunk.content_original[:400], (chunk.chunk_id, heading.text, embedding[:300])


def test_the_document_title_comes_from_a_title_key_in_any_case() -> None:
    text = "---\nTitle: Straßenverkehrs-Zulassungs-Ordnung\n---\n# StVZO\n\n## § 1 Anwendungsbereich\n\nText.\n"
    result = chunk_markdown(text, ChunkerConfig(context_prefix="blockquote"), "stvzo", "stvzo.md")
    assert result.chunks[-1].content_for_embedding.startswith("> Kontext: Straßenverkehrs-Zulassungs-Ordnung > ")


def test_the_heading_prefix_is_not_added_to_a_chunk_that_starts_with_its_section_heading() -> None:
    text = "# Intro\n\nText.\n\n# Special cases\n\n## Patient is late\n\nCall us.\n\n## Records\n\nAsk us.\n"
    result = chunk_markdown(text, ChunkerConfig(context_prefix="heading"), "doc", "doc.md")
    for chunk in result.chunks:
        heading = f"## {chunk.section}" if chunk.section in ("Patient is late", "Records") else f"# {chunk.section}"
        assert chunk.content_for_embedding.count(heading + "\n") == 1, chunk.content_for_embedding


@pytest.mark.parametrize("prefix", ["breadcrumb", "heading", "blockquote"])
@pytest.mark.parametrize("marker", ["```", "~~~", "````"])
def test_a_heading_that_starts_with_a_fence_marker_never_opens_a_fence_in_a_context_line(
    prefix: str, marker: str
) -> None:
    body = "Some text about the example. " * 30
    text = f"# {marker}js example\n\n{body}\n\n{body}\n\n## {marker} Second\n\n{body}\n\n{body}\n"
    result = chunk_markdown(text, ChunkerConfig(context_prefix=prefix), "doc", "doc.md")
    assert len(result.chunks) > 2
    assert [d.code for d in result.diagnostics.errors] == []


@pytest.mark.parametrize("sentences", [1, 2, 3])
def test_overlap_never_carries_a_code_fence_into_the_next_chunk(sentences: int) -> None:
    prose = "First part of the text. Second part here. Third part follows. "
    code = "```python\n" + "".join(f"print('line {k}.')  # step {k}. Done.\n" for k in range(30)) + "```\n"
    text = "# Doc\n\n## Section\n\n" + (prose * 8 + "\n\n" + code + "\nFourth part. " + prose * 8 + "\n\n") * 3
    result = chunk_markdown(text, ChunkerConfig(overlap_sentences=sentences), "doc", "doc.md")
    assert len(result.chunks) > 3
    assert [d.code for d in result.diagnostics.errors] == []


FILLER_BEFORE_SECTION = """# Computed

<div class="options-api">
  <VueSchoolLink href="https://example.org/lesson" title="Free lesson"/>
</div>

<div class="composition-api">
  <VueSchoolLink href="https://example.org/other" title="Free lesson"/>
</div>

## Basic example

Expressions in templates are convenient, but they are meant for simple operations only.
"""

OLD_ANCHORS_BEFORE_HEADING = """<!-- Old headings. Do not remove or links may break. -->

<a id="yielding"></a>

### Yielding Control to the Runtime

Rust only pauses async blocks and hands control back to a runtime at an await point.
"""


@pytest.mark.parametrize(
    ("text", "section_level", "path", "line"),
    [
        (FILLER_BEFORE_SECTION, 2, ["Computed", "Basic example"], "Computed > Basic example\n\n"),
        # the chunk opens with its heading past the comment and the anchor (a label line):
        # no line says it again, as without the anchor
        (OLD_ANCHORS_BEFORE_HEADING, "auto", ["Yielding Control to the Runtime"], ""),
    ],
)
def test_a_chunk_that_starts_with_filler_before_its_heading_carries_that_headings_path(
    text: str, section_level: int | str, path: list[str], line: str
) -> None:
    # a run of filler blocks (layout tags, anchors, comments) goes with the heading after it: the chunk's
    # heading path, section path and context line are those of that heading's section, as its section is
    cfg = ChunkerConfig.from_mapping({"section_level": section_level, "context_title": False})
    first = chunk_markdown(text, cfg, "doc", "doc.md").chunks[0]
    assert first.section == path[-1]
    assert [h.text for h in first.header_path] == path
    assert first.section_path == " > ".join(path)
    assert first.content_for_embedding == line + first.content_original
    plain = chunk_markdown(text.replace('<a id="yielding"></a>\n\n', ""), cfg, "doc", "doc.md").chunks[0]
    assert plain.content_for_embedding == line + plain.content_original


def test_the_chunks_after_a_skipped_subtree_name_their_section_in_the_context_line() -> None:
    # the section goes on after the left-out H3: its chunks still carry the H2 they belong to
    text = "# Цены\n\n## Стоимость\n\nПриём 2 500 ₽.\n\n### Indice\n\n1. a\n\n### Возврат\n\nВернём за 10 дней.\n"
    result = chunk_markdown(text, ChunkerConfig(), "c", "c.md")
    last = result.chunks[-1]
    assert last.section == "Стоимость" and last.content_original.startswith("### Возврат")
    assert last.content_for_embedding.startswith("Цены > Стоимость\n\n### Возврат")


@pytest.mark.parametrize("prefix", ["breadcrumb", "blockquote"])
def test_a_context_line_too_long_for_its_budget_shortens_the_title_not_the_section(prefix: str) -> None:
    title = "Verordnung über die Erteilung von Inbetriebnahmegenehmigungen für das Eisenbahnsystem"
    text = (
        f"---\ntitle: {title}\n---\n# {title} (EIGV)\n\n"
        "## Teil 2 - Genehmigung für das Inverkehrbringen\n\n"
        "### Kapitel 1 - Erteilung einer Genehmigung\n\n"
        "#### § 9 Erfordernis der Genehmigung\n\n" + "Die Genehmigung ist zu erteilen. " * 30 + "\n"
    )
    cfg = ChunkerConfig(context_prefix=prefix, max_chars=480, target_chars=300, min_chars=40)  # prefix <= 120
    result = chunk_markdown(text, cfg, "eigv", "eigv.md")
    assert len(result.chunks) > 2
    for chunk in result.chunks[1:]:
        head = chunk.content_for_embedding.split("\n\n", 1)[0]
        assert len(head) <= 120 and "…" in head, head
        assert "Teil 2 - Genehmigung für das Inverkehrbringen" in head, head
        assert head.endswith("§ 9 Erfordernis der Genehmigung"), head
