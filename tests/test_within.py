"""A chunk that starts inside a tab or step opened before it in its section names the open elements' labels after
its context line (chunker.pack.within)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

SMALL = replace(ChunkerConfig(), max_chars=300, target_chars=200, min_chars=20)

LABELLED = {
    "mdx": ("page.mdx", '<Tabs>\n<TabItem value="ios" label="iOS">', "</TabItem>\n</Tabs>"),
    "liquid": ("page.md", '{% tabs %}\n{% tab title="iOS" %}', "{% endtab %}\n{% endtabs %}"),
    "hugo": ("page.md", '{{< tabs >}}\n{{% tab name="iOS" %}}', "{{% /tab %}}\n{{< /tabs >}}"),
    "hugo positional": ("page.md", "{{< tabs >}}\n{{% tab iOS %}}", "{{% /tab %}}\n{{< /tabs >}}"),
}


@pytest.mark.parametrize("syntax", sorted(LABELLED))
def test_a_tab_cut_over_two_chunks_names_its_label_in_the_second_chunks_embedding(syntax: str) -> None:
    """GitBook's ``{% tab title="Claude Code" %}`` ended a chunk and its steps went on in the next one, which
    said nothing of Claude Code; React Native's iOS and Android tabs likewise."""
    name, opening, closing = LABELLED[syntax]
    steps = "\n\n".join(f"Step {n}: run the build command for the platform, then wait." for n in range(8))
    text = f"## Build\n\n{opening}\n\n{steps}\n\n{closing}\n\nAfter the tabs.\n"
    result = chunk_markdown(text, SMALL, "page", name)
    assert not result.diagnostics.errors
    inside = [c for c in result.chunks if "Step" in c.content_original and opening not in c.content_original]
    assert inside
    for chunk in inside:
        prefix = chunk.content_for_embedding.split("\n\n")[0]
        assert prefix.endswith("Build > iOS"), chunk.content_for_embedding
        assert len(chunk.content_for_embedding) <= SMALL.max_chars
    after = next(c for c in result.chunks if "After the tabs" in c.content_original)
    if "Step" not in after.content_original:
        assert "iOS" not in after.content_for_embedding  # closed: no longer said
    none = chunk_markdown(text, replace(SMALL, context_prefix="none"), "page", name)
    assert not any("iOS" in c.content_for_embedding for c in none.chunks if opening not in c.content_original)


def test_an_attribute_ending_with_a_label_name_is_no_label() -> None:
    """The Rust book's ``<Listing number="15-5" file-name="src/main.rs">``: ``file-name`` is no ``name``."""
    from chunker.pack.within import labels_within
    from chunker.pipeline import chunk_markdown as chunk

    text = '## A\n\n<Listing number="15-5" file-name="src/main.rs">\n\nText.\n\n</Listing>\n\nAfter.\n'
    result = chunk(text, ChunkerConfig(), "page", "page.md")
    starts = [b.end_offset for b in result.blocks]
    assert set(labels_within(result.blocks, text, starts)) == {""}


def test_a_name_names_no_jsx_element_and_a_closing_tag_ending_a_paragraph_closes() -> None:
    """React's ``<Diagram name="dom_tree" ...>`` over its caption, closed by ``</Diagram>`` at the caption's end (a
    paragraph's last line in CommonMark): the chunks after it are inside nothing."""
    caption = "The caption of the diagram. " * 3
    text = "## Tree\n\n" + '<Diagram name="dom_tree" height={193}>\n\n' + caption + "\n</Diagram>\n\n"
    text += "\n\n".join(f"Paragraph number {n} after the diagram, with its words." for n in range(8)) + "\n"
    for name in ("page.md", "page.mdx"):
        result = chunk_markdown(text, SMALL, "page", name)
        assert len(result.chunks) > 1
        after = [c for c in result.chunks if "<Diagram" not in c.content_original]
        assert after and not any("dom_tree" in c.content_for_embedding for c in after)
