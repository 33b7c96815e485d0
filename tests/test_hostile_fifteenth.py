"""The fifteenth hostile-input pass (bench/HOSTILE.md): what landed on 2026-12-04 (component_headings, custom
elements under embedding_drop_components, docs-builder anchors, Hugo shortcodes in parts of a page, Liquid terms)
at sizes and shapes that make its scans superlinear. The tests count the work where they can; a deadline stops
what would hang."""

from __future__ import annotations

import pytest

from chunker.component_headings import component_headings_option, heading_of
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

HEADS = component_headings_option({"Recap": "## Recap", "Challenges": "## Try out some challenges"})


@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize("ext", [".mdx", ".md"])
def test_a_line_of_a_long_tag_name_that_no_angle_ends_is_read_in_linear_time(ext: str) -> None:
    # component_headings._OPENING: the name and the props' characters overlap, so a name no '>' ends was split
    # n ways, each props run tried to the line's end (n^2: '<Recap' + 40,000 letters in an .mdx page 36 s)
    line = "<Recap" + "a" * 200_000
    assert heading_of(HEADS, line) is None
    text = "# T\n\nZQX15FIRST\n\n" + line + "\n\nZQX15LAST\n"
    result = chunk_markdown(text, ChunkerConfig(component_headings=HEADS), "d", "d" + ext)
    joined = "".join(c.content_original for c in result.chunks)
    assert "ZQX15FIRST" in joined and "ZQX15LAST" in joined and line in joined


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("<Recap>", (2, "Recap")),
        ('  <Challenges noTitle id="x" a={1}>  ', (2, "Try out some challenges")),
        ("<Recapitulation>", None),
        ("<Recap />", None),
        ("<Recap>text", None),
        ("<Reca p>", None),
    ],
)
def test_an_opening_tag_alone_is_still_read_by_its_whole_name(line: str, expected: tuple[int, str] | None) -> None:
    assert heading_of(HEADS, line) == expected
