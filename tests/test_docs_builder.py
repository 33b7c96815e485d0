"""Elastic's docs-builder (elastic/docs-content, the docs/reference trees of Elastic's repositories): its legacy
inline anchors, ``$$$name$$$`` at the start of a line or alone on one, mark a place in the text and are no
display math (bench/README.md, "Blind check: Home Assistant, Grafana, Elastic"). dollarmath read such a line alone
as a math block (989 in docs-content, 355 chunks flagged ``has_math`` in a tree without a formula), and the
packer started no piece at a line starting with ``$``: a definition list of FAQ entries whose terms start with
an anchor was one overflow chunk (33 of docs-content's 76 overflow warnings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=300, target_chars=200, min_chars=10)


def kinds(text: str) -> list[str]:
    return [b.kind for b in chunk_markdown(text, CFG, "p", "p.md").blocks]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$$$embedding-cookies$$$\n\nText.\n", ["paragraph", "paragraph"]),
        ("    $$$rolling-upgrades-bootstrapping$$$\n", ["code"]),  # indented: code, as before
        ("- item\n\n  $$$item-anchor$$$\n  more\n", ["list"]),
        ("$$\nE = mc^2\n$$\n", ["math"]),  # display math stays math
        ("$$E = mc^2$$\n", ["math"]),
        ("$$$x + y$$$\n", ["math"]),  # no anchor's name: what dollarmath reads
    ],
)  # fmt: skip
def test_an_inline_anchor_line_is_no_display_math(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


FAQ = "## General billing FAQ\n\n" + "".join(
    f"$$$faq-{i}$$$Question number {i} about billing?\n"
    f":   Yes, there is an answer number {i} to it, which is long enough to fill part of a chunk, and more.\n\n"
    for i in range(6)
)


def test_a_definition_list_of_anchored_terms_is_cut_between_its_entries() -> None:
    result = chunk_markdown(FAQ, SMALL, "p", "p.md")
    assert not [d for d in result.diagnostics.warnings if d.code == "overflow"]
    assert not result.diagnostics.errors
    assert len(result.chunks) > 3
    for chunk in result.chunks[1:]:
        assert chunk.content_original.startswith("$$$faq-"), chunk.content_original
        assert not chunk.added_lines  # each starts at its own term


def test_no_chunk_of_anchors_is_flagged_as_math() -> None:
    text = "# Page\n\n$$$top$$$\n\nSome text.\n\n## Part\n\n$$$part-anchor$$$\nMore text.\n"
    assert not any(c.has_math for c in chunk_markdown(text, CFG, "p", "p.md").chunks)
