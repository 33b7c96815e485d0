"""title_from_headings: a document that no frontmatter title or H1 names (a PDF conversion) is titled by its
first headings, not its file name."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks
from chunker.title import LEAD_CHARS

DOCLING = (
    "<!-- image -->\n\n## S3-Leitlinie (Langversion)\n\n## Odontogene Infektionen\n\n"
    "AWMF-Registernummer: 007-006\n\n## 1 Einleitung\n\nText zur Einleitung der Leitlinie.\n\n"
    "## 2 Methodik\n\nText zur Methodik der Leitlinie.\n"
)
ON = ChunkerConfig(title_from_headings=True, max_chars=300, target_chars=60, min_chars=10)


def _context_lines(text: str, cfg: ChunkerConfig) -> dict[str, str]:
    result = chunk_markdown(text, cfg, "007-006l", "007-006l.md")
    return {c.content_original.split("\n")[0]: c.content_for_embedding.split("\n")[0] for c in result.chunks}


def test_the_first_run_of_headings_titles_a_document_no_h1_names() -> None:
    lines = _context_lines(DOCLING, ON)
    assert lines["## 2 Methodik"] == "S3-Leitlinie (Langversion) Odontogene Infektionen"
    off = _context_lines(DOCLING, ChunkerConfig(max_chars=300, target_chars=60, min_chars=10))
    assert off["## 2 Methodik"] == "007-006l"  # the file name, by default


def test_a_title_the_document_gives_wins_and_a_late_heading_names_nothing() -> None:
    titled = "---\ntitle: Odontogene Infektionen (AWMF)\n---\n" + DOCLING
    assert _context_lines(titled, ON)["## 2 Methodik"] == "Odontogene Infektionen (AWMF)"
    h1 = "# Leitlinie Odontogene Infektionen\n\n" + DOCLING
    assert _context_lines(h1, ON)["## 2 Methodik"] == "Leitlinie Odontogene Infektionen"
    late = "Ein langer Absatz ohne Überschrift. " * (LEAD_CHARS // 30) + "\n\n## 1 Einleitung\n\nText.\n"
    assert {line.split(" > ")[0] for line in _context_lines(late, ON).values()} == {"007-006l"}


def test_the_streamed_path_gives_the_same_title() -> None:
    cfg = ChunkerConfig(title_from_headings=True, section_level=2, max_chars=300, target_chars=60, min_chars=10)
    whole = chunk_markdown(DOCLING, cfg, "007-006l", "007-006l.md").chunks
    streamed = StreamedChunks(DOCLING, cfg, "007-006l", "007-006l.md")
    assert [c.to_dict() for c in streamed] == [c.to_dict() for c in whole]
    assert "S3-Leitlinie (Langversion) Odontogene Infektionen" in whole[-1].content_for_embedding
