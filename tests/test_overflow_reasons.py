"""Chunks over max_chars: avoided where the packer can count what a piece adds, else declared with
the reason that holds (not 'one block that cannot be split' for a heading kept with a table)."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def test_the_fence_closing_a_piece_of_code_in_a_list_item_counts_in_its_size() -> None:
    # a piece ending inside the item's fence gets "\n   ```" after it: not counted, it went 1-2 over
    code = "".join(
        f"       var value{k} = Compute(argument{k}, other{k}); // and a comment of some length {k}\n"
        + ("\n" if k % 3 == 2 else "")
        for k in range(40)
    )
    text = "# Guide\n\n1. Add the class:\n\n   ```csharp\n" + code + "   ```\n\n2. Build it.\n"
    for m in (200, 203, 260, 320):
        cfg = ChunkerConfig(max_chars=m, target_chars=m * 3 // 4, min_chars=20)
        sizes = [c.size for c in chunk_markdown(text, cfg, "d", "d.md").chunks]
        assert max(sizes) <= m, (m, sizes)


def test_a_heading_kept_with_a_table_over_max_chars_says_so() -> None:
    row = "| " + " ".join(["word"] * 25) + " | " + " ".join(["more"] * 12) + " |\n"
    heading = "## A section heading with a rather long name of words\n\n"
    text = "# A long document title of many words\n\nIntro.\n\n" + heading + "| a | b |\n|---|---|\n" + row
    cfg = ChunkerConfig(max_chars=300, target_chars=200, min_chars=20)
    found = [d.message for d in chunk_markdown(text, cfg, "d", "d.md").diagnostics.diagnostics if d.code == "overflow"]
    assert found, found
    assert all("one block that cannot be split" not in f for f in found), found
    assert any("the heading at line 5 kept with the table at line 7" in f for f in found), found


def test_an_unsplittable_block_warns_of_overflow_only_when_its_chunk_is_over_max_chars() -> None:
    # the budget allows for the section's longest context line (a long H3 elsewhere in it); a block over
    # that budget but not over max_chars with its own chunk's context line is no overflow and was
    # reported as one ('html block ... (1108 chars) is larger than max_chars (1200)', no chunk over)
    long_h3 = "A very long subsection heading " * 4
    for width in (900, 1000, 1050, 1100, 1150, 1200):
        html = '<div class="tweet">\n  <iframe src="data:' + "x" * width + '"></iframe>\n</div>'
        for heading in ("### Short\n\n", ""):
            text = f"# T\n\n## Sec\n\n### {long_h3}\n\nSome text.\n\n{heading}{html}\n"
            result = chunk_markdown(text, ChunkerConfig(), "d", "d.md")
            over = [c.size for c in result.chunks if c.size > 1200]
            warned = [d.message for d in result.diagnostics.warnings if d.code == "overflow"]
            assert bool(over) == bool(warned), (width, heading, over, warned)
            assert all(c.is_overflow == (c.size > 1200) for c in result.chunks)


def test_link_definitions_that_ride_along_uncounted_are_no_overflow() -> None:
    # a definition longer than the budget is a piece kept whole, but definitions ride along with the
    # chunk before without counting: its chunk is not over max_chars, so no overflow is reported
    para = ("Some words of a paragraph that goes on. " * 22).strip()
    url = "https://example.com/" + "y" * 1170
    text = f"# Title of it\n\n## Section heading here\n\n{para}\n\n[a]: https://example.com/a\n[long]: {url}\n"
    result = chunk_markdown(text, ChunkerConfig(), "d", "d.md")
    assert [c.size > 1200 for c in result.chunks] == [False] and url in result.chunks[0].content_original
    assert not [d for d in result.diagnostics.warnings if d.code == "overflow"]
