"""An outliner's page (Logseq, Roam, outline-style notes) is one list whose items open with headings
(``- ## Usage``): a piece cut from inside such an item embeds the heading after the item's re-opened marker,
as it embeds the start of an item's first paragraph (``embedding_item_leads``)."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

CFG = ChunkerConfig()


def _outline(heading: str, nested: int = 12) -> str:
    steps = "".join(f"\t- Step {i} of the usage: " + "words of the step " * 8 + "\n" for i in range(nested))
    return f"- {heading}\n{steps}- ## Functionality\n\t- A block that has references has a counter.\n"


def test_a_piece_cut_from_an_item_opening_with_a_heading_embeds_the_heading() -> None:
    text = _outline("## Usage")
    chunks = chunk_markdown(text, CFG, "pages/Block-Reference", "pages/Block Reference.md").chunks
    inside = [c for c in chunks if c.added_lines and "Step" in c.content_original]
    assert len(inside) >= 1
    for chunk in inside:
        body = chunk.content_for_embedding.split("\n\n", 1)[1]
        assert body.startswith("- ## Usage\n")
        assert "## Usage" not in chunk.content_original  # the source slice re-opens the marker alone
    streamed = [c.to_dict() for c in StreamedChunks(text, CFG, "pages/Block-Reference", "pages/Block Reference.md")]
    assert streamed == [c.to_dict() for c in chunks]


def test_nested_items_opening_with_headings_lead_with_each_heading() -> None:
    steps = "".join(f"\t\t- Option {i}: " + "words of the option " * 8 + "\n" for i in range(12))
    text = f"- ## Query Shape\n\t- ### Query Options\n{steps}"
    chunks = chunk_markdown(text, CFG, "q", "q.md").chunks
    later = [c for c in chunks if c.added_lines]
    assert later
    assert all("- ## Query Shape\n    - ### Query Options\n" in c.content_for_embedding for c in later)


def test_without_item_leads_the_heading_is_not_embedded() -> None:
    cfg = replace(CFG, embedding_item_leads=False)
    chunks = chunk_markdown(_outline("## Usage"), cfg, "p", "p.md").chunks
    inside = [c for c in chunks if c.added_lines and "Step" in c.content_original]
    assert inside
    assert all("## Usage" not in c.content_for_embedding for c in inside)
