"""numbered_headings: numbered headings a PDF conversion wrote as bold or plain lines are headings."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
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
