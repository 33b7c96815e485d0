"""numbered_headings: numbered headings a PDF conversion wrote as bold or plain lines are headings."""

from __future__ import annotations

from pathlib import Path

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.settings import load_settings
from chunker.streamed import StreamedChunks

PAGE = (
    "# Technische Regel\n\n## 7.3 Kapazität\n\nText zu 7.3.\n\n**7.3.1 Messung**\n\nText zu 7.3.1.\n\n"
    "7.3.1.1 Verfahren\n\nText zu 7.3.1.1.\n\n**7.3.2 Prüfung**\n\nText zu 7.3.2.\n\n"
    "7.4 Leistung ohne Raute\n\nText zu 7.4.\n\n"
    "7.5 Millionen Anlagen wurden geprüft.\n\n**Wichtig** ist das.\n\n1.5 kg sind es.\n\n"
    "Erste Zeile\n**7.6 Mitten im Absatz**\n"
)
CONFIG = ChunkerConfig(numbered_headings=True, max_chars=200, target_chars=120, min_chars=20)


def test_bold_and_plain_numbered_lines_are_headings_at_the_level_their_number_gives() -> None:
    result = chunk_markdown(PAGE, CONFIG, "r", "r.md")
    headings = [(b.heading_level, b.header_path[-1].text) for b in result.blocks if b.kind == "heading"]
    assert headings == [
        (1, "Technische Regel"),
        (2, "7.3 Kapazität"),
        (3, "7.3.1 Messung"),
        (4, "7.3.1.1 Verfahren"),
        (3, "7.3.2 Prüfung"),
        (2, "7.4 Leistung ohne Raute"),  # a sibling of '## 7.3': opens a section
    ]
    by_text = {c.content_original.split("\n")[0]: c for c in result.chunks}
    assert by_text["**7.3.2 Prüfung**"].ziffer == "7.3.2"
    assert by_text["7.4 Leistung ohne Raute"].section == "7.4 Leistung ohne Raute"
    (body,) = [b for b in result.blocks if b.content.startswith("Text zu 7.3.1.1")]
    assert [h.text for h in body.header_path][1:] == ["7.3 Kapazität", "7.3.1 Messung", "7.3.1.1 Verfahren"]
    assert by_text["**7.3.2 Prüfung**"].content_for_embedding.count("7.3.2 Prüfung") == 1  # not in the context too


def test_sentences_and_lines_inside_paragraphs_stay_text() -> None:
    result = chunk_markdown(PAGE, CONFIG, "r", "r.md")
    texts = {b.header_path[-1].text for b in result.blocks if b.kind == "heading"}
    assert not any(t.startswith(("7.5", "1.5", "Wichtig", "7.6")) for t in texts)


def test_off_by_default_and_the_same_on_the_streamed_path() -> None:
    plain = chunk_markdown(PAGE, ChunkerConfig(), "r", "r.md")
    headings = [b.header_path[-1].text for b in plain.blocks if b.kind == "heading"]
    assert headings == ["Technische Regel", "7.3 Kapazität"]
    streamed = [c.to_dict() for c in StreamedChunks(PAGE, CONFIG, "r", "r.md")]
    assert streamed == [c.to_dict() for c in chunk_markdown(PAGE, CONFIG, "r", "r.md").chunks]


FLAT = (
    "## Leitlinie Lagerung\n\nHerausgeber.\n\n## 1 Einleitung\n\nText zu 1.\n\n## 1.1 Ziel\n\nText zu 1.1.\n\n"
    "## 4 Lagerung\n\nText zu 4.\n\n## 4.1 Oberkörperhochlagerung\n\nText zu 4.1.\n\n"
    "## 4.1.3 Klinische Frage: Sollten Patienten hoch gelagert werden?\n\n"
    "## Empfehlung 1.1 (modifiziert 2022)\n\nWir empfehlen die Hochlagerung.\n\n"
    "## Darlegung der Evidenzgrundlage\n\nDrei Studien.\n\n## 4.2 Seitenlagerung\n\nText zu 4.2.\n\n"
    "## 5 Mobilisation\n\nText zu 5.\n"
)
"""A PDF conversion's headings, all written as ``##`` (docling): the numbering carries the depth."""


def _levels(text: str, config: ChunkerConfig) -> list[tuple[int, str]]:
    result = chunk_markdown(text, config, "r", "r.md")
    return [(b.heading_level, b.header_path[-1].text) for b in result.blocks if b.kind == "heading"]


def test_flat_numbered_headings_take_their_depth_from_the_numbering() -> None:
    assert [level for level, _ in _levels(FLAT, CONFIG)] == [2, 2, 3, 2, 3, 4, 5, 5, 3, 2]
    result = chunk_markdown(FLAT, CONFIG, "r", "r.md")
    (chunk,) = [c for c in result.chunks if "Wir empfehlen" in c.content_original]
    assert [h.text for h in chunk.header_path] == [
        "4 Lagerung",
        "4.1 Oberkörperhochlagerung",
        "4.1.3 Klinische Frage: Sollten Patienten hoch gelagert werden?",
        "Empfehlung 1.1 (modifiziert 2022)",
    ]
    assert chunk.section == "4 Lagerung"
    assert chunk.ziffer == "4.1.3"
    (later,) = [b for b in result.blocks if b.content.startswith("Text zu 4.2.")]
    assert [h.text for h in later.header_path] == ["4 Lagerung", "4.2 Seitenlagerung"]


def test_headings_written_at_their_depth_keep_their_levels() -> None:
    nested = (
        "# Regel\n\n## 2 Netz\n\nText.\n\n### 2.1 Anschluss\n\nText.\n\n### Hinweise\n\nText.\n\n"
        "#### 2.1.1 Kabel\n\nText.\n\n## 3 Betrieb\n\nText.\n"
    )
    assert _levels(nested, CONFIG) == _levels(nested, ChunkerConfig())
    assert {level for level, _ in _levels(FLAT, ChunkerConfig())} == {2}  # off by default


def test_a_numbered_heading_written_as_separate_bold_runs_is_one_heading() -> None:
    body = "Die Software muss die Eingabe prüfen und dem Anwender jede Abweichung anzeigen. " * 2
    page = (
        f"## 2 Anforderungen\n\nText.\n\n**2.1.3****Dateneingabe**\n\n{body}\n\n"
        f"**2.1.4** **Parameter**\n\nText zu 2.1.4. {body}\n"
    )
    assert _levels(page, CONFIG) == [(2, "2 Anforderungen"), (4, "2.1.3 Dateneingabe"), (4, "2.1.4 Parameter")]
    result = chunk_markdown(page, CONFIG, "r", "r.md")
    (chunk,) = [c for c in result.chunks if "Text zu 2.1.4." in c.content_original]
    assert chunk.ziffer == "2.1.4"
    assert chunk.content_for_embedding.count("Parameter") == 1  # the heading line says it: not in the context line


def test_flat_headings_the_same_on_the_streamed_path() -> None:
    streamed = [c.to_dict() for c in StreamedChunks(FLAT, CONFIG, "r", "r.md")]
    assert streamed == [c.to_dict() for c in chunk_markdown(FLAT, CONFIG, "r", "r.md").chunks]


def test_a_footnote_line_left_starting_with_its_hash_mark_heads_no_path() -> None:
    # docling leaves a footnote's '#' mark unescaped: the line reads as an H1 and headed every path below it
    page = (
        "## 4 Zielparameter\n\nText zu 4.\n\n- ZVD < 15 mmHg #\n- GEDVI 640-800 ml/m2 #\n\n"
        "# individuelle Grenzwerte können nach Volumenoptimierung bestimmt werden\n\n"
        "## 4.1 Zentralvenöse Sättigung\n\nText zu 4.1.\n\n# = prospektive Studie; ## = retrospektive Studie\n\n"
        "## 5 Volumentherapie\n\nText zu 5.\n"
    )
    result = chunk_markdown(page, CONFIG, "r", "r.md")
    expected = [(2, "4 Zielparameter"), (3, "4.1 Zentralvenöse Sättigung"), (2, "5 Volumentherapie")]
    assert _levels(page, CONFIG) == expected
    (later,) = [b for b in result.blocks if b.content.startswith("Text zu 5.")]
    assert [h.text for h in later.header_path] == ["5 Volumentherapie"]
    assert "# individuelle Grenzwerte" in "".join(c.content_original for c in result.chunks)  # kept, as text
    assert not result.diagnostics.errors
    titled = "# iPhone User Guide\n\n## 1.1 Setup\n\nText.\n"
    assert _levels(titled, CONFIG)[0] == (1, "iPhone User Guide")


def test_the_readme_config_for_documents_converted_from_pdf_loads_as_written(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    at = readme.index("  'leitlinien/*':")
    block = readme[readme.rindex("documents:\n", 0, at) : readme.index("```", at)]
    (tmp_path / "config.yaml").write_text(block, encoding="utf-8")
    cfg = load_settings(tmp_path / "config.yaml").for_stem("leitlinien/s3-lagerung")
    assert cfg.numbered_headings and cfg.skip_comments and cfg.dehyphenate
    assert "inhaltsverzeichnis" in cfg.skip_headings and cfg.section_level == "auto"
