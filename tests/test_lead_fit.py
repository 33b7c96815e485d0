"""No chunk over max_chars where a cut keeps it within: the first piece of a block split after the
headings glued to it is cut for them, and a piece of a footnote or definition counts what it
re-opens where it starts (not where the block's first line does)."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown


def _chunk(text: str, max_chars: int) -> ChunkingResult:
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=1)
    return chunk_markdown(text, cfg, "d", "d.md")


def _within(result: ChunkingResult, max_chars: int) -> None:
    sizes = [(c.size, c.is_overflow) for c in result.chunks]
    assert all(size <= max_chars for size, _ in sizes), sizes
    assert not [d.message for d in result.diagnostics.diagnostics if d.code == "overflow"]


FOOTNOTE = (
    "# T\n\n## Sec\n\n"
    "[^lab_0123456789]:     Diese Rechtsverordnung ist eine Ausbildungsordnung im Sinne des § 4\n"
    "    des Berufsbildungsgesetzes und des § 25 der Handwerksordnung. Die\n"
    "    Ausbildungsordnung und der damit abgestimmte, von der Ständigen\n"
    "    Konferenz der Kultusminister der Länder in der Bundesrepublik\n"
    "    Deutschland beschlossene Rahmenlehrplan für die Berufsschule werden\n"
    "    demnächst als Beilage zum Bundesanzeiger veröffentlicht.\n"
)


def test_a_footnote_piece_counts_the_label_it_re_opens_on_a_later_line() -> None:
    # sized for what a piece re-opens on the label's line ('['), the piece from line 2 on
    # re-opened '[^lab_0123456789]:\n    ' and went 2 over (up to 12 in the laws)
    for max_chars in (300, 280, 260):
        result = _chunk(FOOTNOTE, max_chars)
        _within(result, max_chars)
        assert any(a.text.startswith("[^lab_0123456789]:") for c in result.chunks for a in c.added_lines)


def test_a_definition_list_after_a_heading_is_cut_before_its_second_term() -> None:
    text = (
        "# Verordnung über die Bescheinigung von Grundlagen (BAVBVO)\n\n"
        "Ausfertigungsdatum\n:   2003-07-16\n\n"
        "Fundstelle\n:   BGBl I: 2003, 1472, und weitere Fundstellen hier\n\n## Next\n\nText.\n"
    )
    result = _chunk(text, 150)
    _within(result, 150)
    assert result.chunks[0].content_original.rstrip().endswith(":   2003-07-16")


def test_a_footnote_after_a_heading_is_cut_after_its_first_paragraph() -> None:
    text = (
        "# T\n\n## Sec\n\n[^lab]: First paragraph of the footnote that is a bit long here. And more.\n\n"
        "    Second paragraph of the footnote, which is long enough to need its own chunk.\n\n"
        "    Third paragraph of the footnote, which is long enough to need its own chunk.\n"
    )
    result = _chunk(text, 150)
    _within(result, 150)
    assert result.chunks[0].content_original.rstrip().endswith("And more.")


def test_the_first_list_item_after_headings_is_cut_to_fit_after_them() -> None:
    link = "([#12372](https://github.com/angular/material2/issues/12372))"
    text = (
        "# Changelog\n\n"
        "## [6.4.7 kryptonite-kombucha](https://github.com/angular/material2/compare/6.4.6...6.4.7) (2018-08-29)\n\n"
        "### Bug Fixes\n\n"
        f"* **autocomplete:** reopening closed autocomplete when coming back to tab {link} "
        "([8617423](https://github.com/angular/material2/commit/8617423)), closes "
        "[#12337](https://github.com/angular/material2/issues/12337)\n"
        f"* **badge:** apply view encapsulation attributes on badge element {link}\n"
    )
    result = _chunk(text, 400)
    _within(result, 400)
    assert result.chunks[0].content_original.startswith("# Changelog")
    assert "### Bug Fixes\n\n* **autocomplete:**" in result.chunks[0].content_original


def test_a_piece_cut_again_never_leaves_a_list_marker_at_the_start_of_the_next() -> None:
    # found by tests/test_properties.py: a list item's lazy lines cut again for what it re-opens were cut
    # before '1' at the end of a piece, and the chunk going on from there started '1. |' (an ordered list)
    text = (
        "---\ntitle: Guide\ntags: [a, b]\n---\n"
        "alpha\n===\n* [link](u)\n\t* alpha\n* [link](u)\n| h0 |\n|---|\n|  |\n| alpha 1. |\n"
    )
    cfg = ChunkerConfig(max_chars=40, min_chars=1, target_chars=1, fail_on_overflow=False, fail_on_orphan_heading=False)
    result = chunk_markdown(text, cfg, "d", "d.md")
    assert not result.diagnostics.errors, [(d.code, d.message) for d in result.diagnostics.errors]
    for chunk in result.chunks:
        added = "".join(a.text for a in chunk.added_lines if a.position == "before")
        assert not chunk.content_original[len(added) :].lstrip().startswith("1."), chunk.content_original


def test_a_term_is_not_re_opened_where_a_rule_right_under_the_list_would_underline_it() -> None:
    # found by tests/test_properties.py: a piece of the list in a definition re-opens its term; the
    # thematic break right under the list (no blank line) went into the same chunk and made the term a
    # setext heading ('alpha' / ': - beta alpha beta' / '---')
    text = "alpha\n:   alpha\n  - alpha alpha alpha `code` alpha beta alpha beta\n---"
    cfg = ChunkerConfig(strategy="recursive", max_chars=41, min_chars=2, target_chars=2)
    result = chunk_markdown(text, cfg, "doc", "sources/doc.md")
    assert not [(d.code, d.message) for d in result.diagnostics.errors if d.code == "rendering-changed"]
    assert "".join(c.content_original for c in result.chunks if not c.added_lines).count("---") == 1
