"""numbered_headings: outline numbers that are not dotted decimals (``A.1``, ``Anlage 2``, ``Teil 1``, ``A.``,
``1)``, ``a)``) give a flat PDF conversion's headings their depth and their Ziffer."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pack.keys import ziffer_of
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CONFIG = ChunkerConfig(numbered_headings=True, max_chars=400, target_chars=30, min_chars=10)

ANNEX = (
    "## 1 Einleitung\n\nText zu 1.\n\n## 1.1 Zweck\n\nText zu 1.1.\n\n## 1.2 Umfang\n\nText zu 1.2.\n\n"
    "## Anhang A Beispiele\n\nText zu A.\n\n## A.1 Scanprozess\n\nText zu A.1.\n\n"
    "## A.1.2 Prüfung\n\nText zu A.1.2.\n\n## Anlage 2: Gründe\n\nText zu Anlage 2.\n\n"
    "## Tabelle 11: Gründe des Scannens\n\nText zu Tabelle 11.\n"
)
OUTLINE = (
    "## Inhalt\n\nText.\n\n## A. Analgesie bei Erwachsenen\n\nText zu A.\n\n## Relevanz\n\nText zu Relevanz.\n\n"
    "## 1) Risikofaktoren\n\nText zu A 1.\n\n## 2) Prävention\n\nText zu A 2.\n\n## a) Nicht-pharmakologisch\n\n"
    "Text zu A 2 a.\n\n## Maßnahmen tagsüber\n\nText zu Maßnahmen.\n\n## b) Pharmakologisch\n\nText zu A 2 b.\n\n"
    "## 3) Monitoring\n\nText zu A 3.\n\n## B. Spezielle Gruppen\n\nText zu B.\n\n## 1) Schwangerschaft\n\n"
    "Text zu B 1.\n"
)
LAW = (
    "## Teil 1\n\n## Allgemeine Vorschriften\n\nText zu Teil 1.\n\n## Abschnitt 1\n\nText zu Abschnitt 1.\n\n"
    "## Abschnitt 2\n\nText zu Abschnitt 2.\n\n## Teil 2\n\nText zu Teil 2.\n"
)


def _paths(text: str, cfg: ChunkerConfig) -> dict[str, tuple[list[str], str | None]]:
    """Each body paragraph 'Text zu X.' -> (its heading path, the Ziffer that path gives a chunk)."""
    result = chunk_markdown(text, cfg, "r", "r.md")
    return {
        b.content: ([h.text for h in b.header_path], ziffer_of(b.header_path, cfg.numbered_headings))
        for b in result.blocks
        if b.content.startswith("Text zu ")
    }


def test_an_annex_and_its_lettered_numbers_are_no_part_of_the_chapter_above() -> None:
    found = _paths(ANNEX, CONFIG)
    assert found["Text zu 1.2."] == (["1 Einleitung", "1.2 Umfang"], "1.2")
    assert found["Text zu A."] == (["Anhang A Beispiele"], "Anhang A")
    assert found["Text zu A.1."] == (["Anhang A Beispiele", "A.1 Scanprozess"], "A.1")
    assert found["Text zu A.1.2."] == (["Anhang A Beispiele", "A.1 Scanprozess", "A.1.2 Prüfung"], "A.1.2")
    assert found["Text zu Anlage 2."] == (["Anlage 2: Gründe"], "Anlage 2")
    assert found["Text zu Tabelle 11."] == (["Anlage 2: Gründe", "Tabelle 11: Gründe des Scannens"], "Anlage 2")
    (chunk,) = [c for c in chunk_markdown(ANNEX, CONFIG, "r", "r.md").chunks if "Text zu A.1." in c.content_original]
    assert (chunk.ziffer, chunk.chunk_key) == ("Anhang A", "r/anhang-a")  # not 1.2: the chapter above's


def test_outline_marks_nest_by_the_order_their_styles_come_in() -> None:
    found = _paths(OUTLINE, CONFIG)
    top = "A. Analgesie bei Erwachsenen"
    assert found["Text zu Relevanz."][0] == [top, "Relevanz"]
    assert found["Text zu A 1."][0] == [top, "1) Risikofaktoren"]
    assert found["Text zu A 2 a."][0] == [top, "2) Prävention", "a) Nicht-pharmakologisch"]
    assert found["Text zu Maßnahmen."][0] == [top, "2) Prävention", "a) Nicht-pharmakologisch", "Maßnahmen tagsüber"]
    assert found["Text zu A 2 b."][0] == [top, "2) Prävention", "b) Pharmakologisch"]
    assert found["Text zu A 3."][0] == [top, "3) Monitoring"]
    assert found["Text zu B 1."][0] == ["B. Spezielle Gruppen", "1) Schwangerschaft"]


def test_divisions_of_a_law_written_flat_nest_by_their_kind() -> None:
    found = _paths(LAW, CONFIG)
    assert found["Text zu Teil 1."] == (["Teil 1", "Allgemeine Vorschriften"], "Teil 1")
    assert found["Text zu Abschnitt 2."] == (["Teil 1", "Abschnitt 2"], "Abschnitt 2")
    assert found["Text zu Teil 2."] == (["Teil 2"], "Teil 2")


def test_off_by_default_headings_written_at_their_depth_kept_and_the_streamed_path_the_same() -> None:
    default = _paths(ANNEX, ChunkerConfig(max_chars=400, target_chars=200, min_chars=20))
    assert default["Text zu A.1."] == (["A.1 Scanprozess"], None)
    nested = "# Regel\n\n## A. Teil\n\nText zu A.\n\n### 1) Punkt\n\nText zu 1.\n\n## Anhang B\n\nText zu B.\n"
    levels = {b.content: b.heading_level for b in chunk_markdown(nested, CONFIG, "r", "r.md").blocks}
    assert levels == {b.content: b.heading_level for b in chunk_markdown(nested, ChunkerConfig(), "r", "r.md").blocks}
    cfg = ChunkerConfig(numbered_headings=True, section_level=2, max_chars=400, target_chars=200, min_chars=20)
    for text in (ANNEX, OUTLINE, LAW):
        whole = chunk_markdown(text, cfg, "r", "r.md").chunks
        streamed = StreamedChunks(text, cfg, "r", "r.md")
        assert [c.to_dict() for c in streamed] == [c.to_dict() for c in whole]
