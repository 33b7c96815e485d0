"""Strategies (headings with auto level, faq, pages, recursive), Ziffer, chunk keys, context prefix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.core import build_artifacts
from chunker.models import Block, ChunkingResult, Heading
from chunker.pack.keys import chunk_keys, ziffer_of
from chunker.pipeline import chunk_markdown

LAWS = Path(__file__).resolve().parent / "data" / "corpus" / "de-gesetze"
"""Two laws vendored from the shared corpus (tests/data/SOURCES.md)."""


def law(name: str) -> str:
    return (LAWS / name / "index.md").read_text(encoding="utf-8")


def assert_valid(result: ChunkingResult) -> None:
    errors = [(d.code, d.message) for d in result.diagnostics.errors]
    assert not errors
    codes = {d.code for d in result.diagnostics.diagnostics}
    assert "content-loss" not in codes
    assert "broken-fence" not in codes


def heading_in_force(result: ChunkingResult, level: int, offset: int, title: str) -> str:
    """Text of the last heading of level <= ``level`` that starts at or before ``offset``."""
    current = title
    for block in result.blocks:
        if block.start_offset > offset:
            break
        if block.kind == "heading" and block.heading_level <= level:
            current = block.header_path[-1].text
    return current


def body_starts(result: ChunkingResult, chunk_blocks: tuple[str, ...]) -> list[int]:
    """Start offsets of the non-heading blocks of a chunk (block ids may carry a ``.n`` piece suffix)."""
    by_id: dict[str, Block] = {b.id: b for b in result.blocks}
    starts = []
    for block_id in chunk_blocks:
        block = by_id.get(block_id.split(".")[0])
        if block is not None and block.kind != "heading":
            starts.append(block.start_offset)
    return starts


# -- headings: a real German law --------------------------------------------------------


@pytest.mark.parametrize(("name", "level"), [("bausparkv_2015", 2), ("bgsg_1994", 5)])
def test_auto_picks_the_level_of_the_numbered_paragraphs_of_a_law(name: str, level: int) -> None:
    result = chunk_markdown(law(name), ChunkerConfig(section_level="auto"), name, name)
    decision = result.diagnostics.decisions["section_level"]
    assert decision["chosen"] == level
    assert decision["by"] == "auto"
    assert_valid(result)


@pytest.mark.parametrize("name", ["bausparkv_2015", "bgsg_1994"])
def test_no_chunk_of_a_law_crosses_a_section_and_its_section_is_the_heading_in_force(name: str) -> None:
    result = chunk_markdown(law(name), ChunkerConfig(section_level="auto"), name, name)
    level = result.diagnostics.decisions["section_level"]["chosen"]
    title = result.document_metadata.get("Title", name)
    assert len(result.chunks) > 10
    for chunk in result.chunks:
        starts = body_starts(result, chunk.block_ids) or [chunk.start_offset]
        in_force = {heading_in_force(result, level, s, title) for s in starts}
        assert len(in_force) == 1, f"{chunk.chunk_id} crosses sections: {in_force}"
        if chunk.section != name:  # the document title stands for text before any heading
            assert chunk.section == in_force.pop()


@pytest.mark.parametrize("name", ["bausparkv_2015", "bgsg_1994"])
def test_every_chunk_under_a_paragraph_heading_carries_its_ziffer(name: str) -> None:
    result = chunk_markdown(law(name), ChunkerConfig(section_level="auto"), name, name)
    numbered = 0
    for chunk in result.chunks:
        match = re.match(r"(§§? \d+[a-z]?)\b", chunk.section)
        if match:
            numbered += 1
            assert chunk.ziffer == match.group(1)
            assert chunk.to_dict()["ziffer"] == match.group(1)
    assert numbered >= 10


def test_auto_is_not_fooled_by_a_level_that_appears_twice() -> None:
    parts = ["# Verordnung\n"]
    for k in range(1, 31):
        parts.append(f"## {k}.{k % 4} Regel {k}\n\n" + f"Inhalt der Regel {k}. " * 8 + "\n")
        if k in (4, 20):
            parts.append(f"### Hinweis {k}\n\nKurz.\n")
    result = chunk_markdown("\n".join(parts), ChunkerConfig(section_level="auto"), "vo", "vo")
    assert result.diagnostics.decisions["section_level"]["chosen"] == 2
    assert {c.ziffer for c in result.chunks} >= {"1.1", "12.0", "30.2"}
    assert_valid(result)


def test_the_auto_decision_reaches_report_json() -> None:
    import orjson

    text = "# T\n\n## A\n\nText a.\n\n## B\n\nText b.\n\n## C\n\nText c.\n"
    cfg = ChunkerConfig(section_level="auto")
    result = chunk_markdown(text, cfg, "t", "t")
    report = orjson.loads(build_artifacts(result, cfg, "0" * 64)["report.json"])
    assert report["decisions"]["section_level"]["chosen"] == 2
    assert report["decisions"]["section_level"]["levels"]["2"]["headings"] == 3


# -- ziffer ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("7.3.1.1.1.1 Kapazität", "7.3.1.1.1.1"),
        ("12.4 Prüfung", "12.4"),
        ("12. Prüfung", "12"),
        ("§ 12 Zuständigkeit", "§ 12"),
        ("§12a Ausnahmen", "§ 12a"),
        ("§§ 12 bis 14 (weggefallen)", "§§ 12"),
        ("(XXXX) §§ 3 bis 6 (weggefallen)", "§§ 3"),
        ("Art. 3 Gleichheit", "Art. 3"),
        ("Artikel 3", "Artikel 3"),
        ("Einleitung", None),
        ("2024 Release notes", None),
    ],
)
def test_ziffer_is_the_leading_number_of_a_heading(heading: str, expected: str | None) -> None:
    assert ziffer_of((Heading(2, heading, 1),)) == expected


def test_ziffer_comes_from_the_nearest_numbered_heading() -> None:
    path = (Heading(2, "§ 5 Pflichten", 1), Heading(3, "Allgemeines", 3))
    assert ziffer_of(path) == "§ 5"


def test_a_numbered_list_item_is_never_a_ziffer() -> None:
    text = "# Anleitung\n\n## Schritte\n\n1. Erster Schritt\n2. Zweiter Schritt\n\n7.3 Kein Titel, nur Text.\n"
    result = chunk_markdown(text, ChunkerConfig(), "a", "a")
    assert result.chunks
    assert all(c.ziffer is None for c in result.chunks)


# -- chunk keys ------------------------------------------------------------------------------


def test_chunk_keys_never_collide_with_the_slug_of_another_number() -> None:
    # "§ 12" with two chunks and "12.2": a "-2" suffix would give "12-2" twice.
    keys = chunk_keys(["d/12", "d/12", "d/12-2"], [0, 0, 1])
    assert keys == ["d/12~1", "d/12~2", "d/12-2"]
    assert len(set(keys)) == 3


def test_a_repeated_heading_gets_an_occurrence_marker_only_after_the_first() -> None:
    keys = chunk_keys(["d/beispiel", "d/x", "d/beispiel", "d/beispiel"], [0, 1, 2, 2])
    assert keys == ["d/beispiel", "d/x", "d/beispiel@2~1", "d/beispiel@2~2"]


class _CountedSection(int):
    """A section index that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _CountedSection.compared += 1
        return int(self) == other

    __hash__ = int.__hash__


def test_many_sections_of_one_heading_are_numbered_without_comparing_each_to_every_other() -> None:
    # thousands of '## Anmerkung' sections: each was looked up in the list of those before it
    sections = [_CountedSection(k // 2) for k in range(2000)]  # two chunks per section
    _CountedSection.compared = 0
    keys = chunk_keys(["d/anmerkung"] * len(sections), sections)
    assert keys[:4] == ["d/anmerkung~1", "d/anmerkung~2", "d/anmerkung@2~1", "d/anmerkung@2~2"]
    assert keys[-1] == "d/anmerkung@1000~2" and len(set(keys)) == len(keys)
    assert _CountedSection.compared <= 8 * len(sections)  # dict lookups; the list scan: 4,012,000


def test_chunk_keys_stay_stable_when_an_unrelated_section_changes() -> None:
    text = law("bausparkv_2015")
    cfg = ChunkerConfig(section_level="auto")
    before = chunk_markdown(text, cfg, "bausparkv_2015", "x")
    target = next(c for c in before.chunks if c.section.startswith("§ 5 "))
    edited_source = text.replace(
        target.content_original, target.content_original + " Zusätzlicher Satz für den Test." * 40, 1
    )
    after = chunk_markdown(edited_source, cfg, "bausparkv_2015", "x")
    old = {c.chunk_key: (c.content_hash, c.section) for c in before.chunks}
    new = {c.chunk_key: (c.content_hash, c.section) for c in after.chunks}
    changed = {k for k in old.keys() | new.keys() if old.get(k, (None,))[0] != new.get(k, (None,))[0]}
    assert changed, "the edit must change the edited section's chunks"
    sections = {old[k][1] for k in changed if k in old} | {new[k][1] for k in changed if k in new}
    assert sections == {target.section}
    unrelated = [k for k, (_, section) in old.items() if section != target.section]
    assert len(unrelated) > 10
    assert all(new[k] == old[k] for k in unrelated)


# -- faq -------------------------------------------------------------------------------------

FAQ = """# Hilfe

Hier beantworten wir häufige Fragen.

## Konto

### Wie melde ich mich an?

Über den Button oben rechts.

### Kann ich mein Konto löschen?

Ja, in den Einstellungen.

#### Hinweis

Das Löschen ist endgültig.

**Kann ich per Rechnung zahlen?**
Ja, für Geschäftskunden.

**Gibt es Rabatte?** Für Studierende 20 Prozent.
Nachweis erforderlich.
"""


def test_faq_makes_one_chunk_per_question_with_the_question_in_it() -> None:
    result = chunk_markdown(FAQ, ChunkerConfig(strategy="faq"), "hilfe", "hilfe")
    assert_valid(result)
    sections = [c.section for c in result.chunks]
    assert sections == [
        "Hilfe",
        "Wie melde ich mich an?",
        "Kann ich mein Konto löschen?",
        "Kann ich per Rechnung zahlen?",
        "Gibt es Rabatte?",
    ]
    by_section = {c.section: c for c in result.chunks}
    assert by_section["Hilfe"].content_original.endswith("häufige Fragen.")
    assert by_section["Kann ich mein Konto löschen?"].content_original.endswith("endgültig.")
    assert by_section["Kann ich per Rechnung zahlen?"].content_original.startswith("**Kann ich per Rechnung zahlen?**")
    assert "Nachweis erforderlich." in by_section["Gibt es Rabatte?"].content_original
    assert result.diagnostics.decisions["faq"]["questions"] == 4


def test_a_bold_question_inside_a_paragraph_starts_its_own_chunk() -> None:
    text = "Vorwort zur Liste.\n**Was kostet das?**\nNichts.\n**Wie lange dauert es?**\nEine Woche.\n"
    result = chunk_markdown(text, ChunkerConfig(strategy="faq"), "f", "f")
    assert_valid(result)
    assert [c.content_original for c in result.chunks] == [
        "Vorwort zur Liste.",
        "**Was kostet das?**\nNichts.",
        "**Wie lange dauert es?**\nEine Woche.",
    ]


def test_faq_without_questions_warns() -> None:
    result = chunk_markdown("Nur Text.\n", ChunkerConfig(strategy="faq"), "f", "f")
    assert "faq-no-questions" in {d.code for d in result.diagnostics.warnings}


# -- pages -----------------------------------------------------------------------------------

MARKED = """Deckblatt des Berichts.

<!-- page: 2 -->
# Bericht

Text der zweiten Seite.
<!-- page: 3 -->
Fortsetzung auf Seite drei.

```
<!-- page: 99 -->
kein Marker
```
"""


def test_page_markers_open_pages_and_the_marker_belongs_to_its_page() -> None:
    result = chunk_markdown(MARKED, ChunkerConfig(strategy="pages"), "bericht", "bericht")
    assert_valid(result)
    pages = [(c.page, c.content_original.split("\n", 1)[0]) for c in result.chunks]
    assert pages == [(1, "Deckblatt des Berichts."), (2, "<!-- page: 2 -->"), (3, "<!-- page: 3 -->")]
    assert "kein Marker" in result.chunks[-1].content_original  # a marker inside code is code
    assert result.chunks[1].section == "Bericht"
    assert [c.chunk_key for c in result.chunks] == ["bericht/page-1", "bericht/page-2", "bericht/page-3"]
    assert result.chunks[2].to_dict()["page"] == 3


def test_a_custom_page_marker_pattern_is_used() -> None:
    text = "Erste.\n\n[[Seite 7]]\n\nSiebte.\n\n[[Seite 8]]\n\nAchte.\n"
    cfg = ChunkerConfig(strategy="pages", page_marker_pattern=r"\[\[Seite (\d+)\]\]")
    result = chunk_markdown(text, cfg, "s", "s")
    assert_valid(result)
    assert [c.page for c in result.chunks] == [6, 7, 8]


def test_form_feeds_split_pages_even_inside_a_paragraph() -> None:
    text = (
        "Seite eins beginnt.\nund endet\fhier beginnt Seite zwei.\n\n```\ncode\fmit Seitenumbruch\n```\n\nSeite drei.\n"
    )
    result = chunk_markdown(text, ChunkerConfig(strategy="pages"), "ff", "ff")
    assert_valid(result)
    got = [(c.page, c.content_original) for c in result.chunks]
    assert got == [
        (1, "Seite eins beginnt.\nund endet"),
        (2, "hier beginnt Seite zwei.\n\n```\ncode\fmit Seitenumbruch\n```"),
        (3, "Seite drei."),
    ]
    for chunk in result.chunks:
        assert text[chunk.start_offset : chunk.end_offset] == chunk.content_original
    assert result.chunks[1].start_line == 2


# -- recursive -------------------------------------------------------------------------------


def test_recursive_cuts_a_document_without_headings_at_sentences_and_keeps_the_table_whole() -> None:
    sentences = " ".join(f"Satz {i} handelt von Thema {i % 7} und ist recht ausführlich." for i in range(120))
    table = "| a | b |\n|---|---|\n" + "".join(f"| {i} | {i * i} |\n" for i in range(10))
    text = f"{sentences}\n\n{table}\n{sentences}\n"
    cfg = ChunkerConfig(strategy="recursive")
    result = chunk_markdown(text, cfg, "rec", "rec")
    assert_valid(result)
    assert len(result.chunks) > 4
    assert all(c.size <= cfg.max_chars for c in result.chunks)
    tables = [c for c in result.chunks if c.has_table]
    assert len(tables) == 1
    assert table.strip() in tables[0].content_original
    for chunk in result.chunks:
        if not chunk.has_table:
            assert chunk.content_original.endswith("."), "a text chunk ends at a sentence"


# -- off and context prefix ------------------------------------------------------------------


def test_strategy_off_produces_no_chunks_and_skips_everything() -> None:
    result = chunk_markdown("# A\n\nText.\n", ChunkerConfig(strategy="off"), "o", "o")
    assert result.chunks == ()
    assert_valid(result)
    assert "strategy-off" in {d.code for d in result.diagnostics.diagnostics}


def test_blockquote_prefix_is_a_deterministic_line_with_a_configurable_label() -> None:
    text = "---\ntitle: Handbuch\n---\n# Handbuch\n\n## Einrichtung\n\nSo richten Sie es ein.\n"
    cfg = ChunkerConfig(context_prefix="blockquote", context_label="Context")
    result = chunk_markdown(text, cfg, "h", "h")
    chunk = next(c for c in result.chunks if "richten" in c.content_original)
    assert chunk.content_for_embedding.split("\n", 1)[0] == "> Context: Handbuch > Einrichtung"
    assert chunk.content_for_embedding.endswith(chunk.content_original)


def test_a_bold_question_after_a_question_heading_is_not_placed_under_that_question() -> None:
    text = (
        "# FAQ\n\n## Booking\n\n### Can I cancel?\n\nYes, up to a day before.\n\n"
        "**Do you accept insurance?**\n\nMost plans.\n\n## Payment\n\n**Can I pay by card?**\n\nYes.\n"
    )
    result = chunk_markdown(text, ChunkerConfig(strategy="faq"), "faq", "faq.md")
    by_section = {c.section: c.content_for_embedding for c in result.chunks}
    assert by_section["Do you accept insurance?"].startswith("FAQ > Booking\n\n**Do you accept insurance?**")
    assert by_section["Can I pay by card?"].startswith("FAQ\n\n## Payment\n\n**Can I pay by card?**")
