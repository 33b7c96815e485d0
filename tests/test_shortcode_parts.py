"""A part of a Hugo page parsed alone (a block, a chunk, a piece of a large page) reads a line of paired
shortcodes as the page does: ``{{< admonition type="note" >}}`` is a block of its own when the page closes
``admonition``, wherever the closing line lies (chunker.parse.templates.page_env). Found on grafana/tempo's and
grafana/alloy's docs (bench/README.md, "Blind check: Home Assistant, Grafana, Elastic"): 3 and 8 false
``rendering-changed`` errors, exit 1 on a default run."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.parse import BlockTokens, read_document
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=300, target_chars=200, min_chars=10)

# tempo configuration/_index.md: an admonition over a long list of links the packer cuts
ADMONITION = (
    "# Configure Tempo\n\n"
    "This document explains the configuration options.\n\n"
    '{{< admonition type="tip" >}}\n'
    "Instructions for configuring data sources are available elsewhere.\n"
    "{{< /admonition >}}\n\n"
    "The options include:\n\n- [Configure Tempo](#configure-tempo)\n"
    + "".join(f"  - [Option number {i}](#option-number-{i})\n" for i in range(30))
)

# alloy otelcol.connector.spanmetrics.md: a collapse inside a list item, its example cut into pieces
COLLAPSE = (
    "## Handle resource attributes\n\n"
    "1. For example, assume that there are two incoming resource spans.\n"
    '   {{< collapse title="Example JSON of two incoming spans." >}}\n\n'
    "   ```json\n"
    + "".join(f'   {{"key": "service.name.{i}", "value": {{"stringValue": "TestSvcName"}}}},\n' for i in range(20))
    + "   ```\n\n"
    "   {{< /collapse >}}\n\n"
    "1. The metrics are aggregated per resource.\n"
)


def errors(text: str, cfg: ChunkerConfig) -> list[tuple[str, str]]:
    result = chunk_markdown(text, cfg, "p", "p.md")
    return [(d.code, d.message) for d in result.diagnostics.errors]


def test_an_admonition_line_kept_apart_from_its_closing_line_renders_as_in_the_page() -> None:
    result = chunk_markdown(ADMONITION, CFG, "p", "p.md")
    opening = next(c for c in result.chunks if '{{< admonition type="tip" >}}' in c.content_original)
    assert "- [Option number 29]" not in opening.content_original  # the chunk cuts the list
    assert errors(ADMONITION, CFG) == []


def test_a_piece_holding_a_collapse_but_not_its_closing_line_renders_as_in_the_page() -> None:
    result = chunk_markdown(COLLAPSE, SMALL, "p", "p.md")
    opening = next(c for c in result.chunks if "{{< collapse" in c.content_original)
    assert "{{< /collapse >}}" not in opening.content_original  # the piece holds the opening line only
    assert errors(COLLAPSE, SMALL) == []


def test_a_shortcode_the_page_never_closes_stays_text_in_a_part_too() -> None:
    text = ADMONITION.replace("{{< /admonition >}}\n", "")
    kinds = [b.kind for b in chunk_markdown(text, CFG, "p", "p.md").blocks]
    assert "html" not in kinds
    assert errors(text, CFG) == []


def test_a_page_parsed_in_pieces_reads_a_shortcode_closed_in_a_later_piece_as_the_whole_parse() -> None:
    text = '{{< tabs >}}\n{{< tab name="Linux" >}}\nText of the tab.\n' + "# H\n\nBody text.\n\n" * 60
    text += "{{< /tab >}}\n{{< /tabs >}}\n"
    doc = read_document(text, CFG)
    whole = [(t.type, t.map) for part in BlockTokens(doc, CFG, piece_chars=None) for t in part if t.level == 0]
    pieces = [(t.type, t.map) for part in BlockTokens(doc, CFG, piece_chars=200) for t in part if t.level == 0]
    assert whole[0] == ("html_block", [0, 1])
    assert pieces == whole


def test_an_opening_tag_closed_in_a_later_chunk_leaves_the_embedding_keeping_its_title() -> None:
    # alloy reference/cli/otel.md: '{{< collapse title="Receivers" >}}' over a list longer than a chunk; the chunk
    # holding the opening tag kept it as written, as a shortcode that renders text in its place
    text = (
        "## Included components\n\n"
        '{{< collapse title="Receivers" >}}\n\n'
        + "".join(f"- [receiver number {i}](https://example.com/receivers/{i})\n" for i in range(40))
        + "\n{{< /collapse >}}\n"
    )
    result = chunk_markdown(text, replace(SMALL, embedding_drop_template_tags=True), "p", "p.md")
    opening = next(c for c in result.chunks if "{{< collapse" in c.content_original)
    assert "{{< /collapse >}}" not in opening.content_original
    assert "{{<" not in opening.content_for_embedding
    assert "Receivers" in opening.content_for_embedding
    assert all("{{<" not in c.content_for_embedding for c in result.chunks)


@pytest.mark.parametrize("text", [ADMONITION, COLLAPSE])
def test_the_pulldown_path_reads_a_page_of_paired_shortcodes_as_markdown_it(text: str) -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    # a shortcode line was paragraph text to pulldown-cmark: 73 of tempo's 180 pages came out otherwise on that path
    for cfg in (CFG, SMALL):
        want = chunk_markdown(text, cfg, "p", "p.md")
        got = chunk_markdown(text, replace(cfg, parser="pulldown-cmark"), "p", "p.md")
        assert [(b.kind, b.start_line, b.end_line) for b in got.blocks] == [
            (b.kind, b.start_line, b.end_line) for b in want.blocks
        ]
        assert [c.content_original for c in got.chunks] == [c.content_original for c in want.chunks]
