"""Component openers and closers in every syntax the chunker reads (MDX/JSX, HTML, Liquid, Hugo shortcodes): a
closing tag goes with the end of what it closes, an opening one with what it opens, and a heading right under an
opening line is a heading whose section the opening line starts."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

SMALL = replace(ChunkerConfig(), max_chars=300, target_chars=200, min_chars=20)

PARA_A = "Alpha tab text. " * 11
PARA_B = "Bravo tab text. " * 11

# (file name, the opening line of tab A's group and tab A, the line closing tab A, the line opening tab B,
# the lines closing tab B and the group)
SYNTAXES = {
    "mdx": ("page.mdx", '<Tabs>\n<TabItem value="a">', "</TabItem>", '<TabItem value="b">', "</TabItem>\n</Tabs>"),
    "html": ("page.md", '<div class="tabs">\n<div class="a">', "</div>", '<div class="b">', "</div>\n</div>"),
    "hugo": (
        "page.md",
        '{{< tabs >}}\n{{% tab name="a" %}}',
        "{{% /tab %}}",
        '{{% tab name="b" %}}',
        "{{% /tab %}}\n{{< /tabs >}}",
    ),
    "liquid": (
        "page.md",
        '{% tabs %}\n{% tab title="a" %}',
        "{% endtab %}",
        '{% tab title="b" %}',
        "{% endtab %}\n{% endtabs %}",
    ),
}
_CLOSER = re.compile(r"[ \t]*(?:</\w+>|\{\{[<%][ \t]*/|\{%-?[ \t]*end)")


def _first_line(text: str) -> str:
    return next(line for line in text.split("\n") if line.strip())


@pytest.mark.parametrize("syntax", sorted(SYNTAXES))
def test_a_closing_line_ends_the_chunk_of_what_it_closes_and_an_opening_line_starts_the_next(syntax: str) -> None:
    """React Native's docs: 658 chunks began with ``</TabItem>`` over the next ``<TabItem value="...">`` (one JSX
    block, which stuck to the tab it opens); Kubernetes': ``{{% /tab %}}`` over ``{{% tab name="..." %}}`` (one
    paragraph)."""
    name, open_a, close_a, open_b, close_b = SYNTAXES[syntax]
    text = f"## Install\n\n{open_a}\n\n{PARA_A}\n\n{close_a}\n{open_b}\n\n{PARA_B}\n\n{close_b}\n"
    result = chunk_markdown(text, SMALL, "page", name)
    assert not result.diagnostics.errors
    assert len(result.chunks) > 1
    for chunk in result.chunks:
        first = _first_line(chunk.content_original)
        assert not _CLOSER.match(first), (syntax, chunk.content_original)
        assert not chunk.content_original.rstrip().endswith(open_b), (syntax, chunk.content_original)
    holding = [c.content_original for c in result.chunks if close_a + "\n" in c.content_original + "\n"]
    assert any("Alpha" in c for c in holding), holding
    opening = next(c.content_original for c in result.chunks if open_b in c.content_original)
    assert "Bravo" in opening


@pytest.mark.parametrize("syntax", ["hugo", "liquid", "mdx"])  # CommonMark's HTML block holds the heading line
def test_a_heading_right_under_an_opening_line_opens_a_section_the_line_starts(syntax: str) -> None:
    """Nextra/Mintlify ``<Steps>`` then ``### Step one``, GitBook ``{% tab title=... %}`` then ``## ...``, Hugo
    ``{{% tab %}}`` then ``### ...``: the heading is one (MDX, Liquid and Hugo render it as a heading inside the
    element), and the opening line goes with it, not at the end of the chunk before."""
    name, open_a, close_a, open_b, close_b = SYNTAXES[syntax]
    text = f"## Install\n\n{open_a}\n\n{PARA_A}\n\n{close_a}\n{open_b}\n### Bravo steps\n\n{PARA_B}\n\n{close_b}\n"
    result = chunk_markdown(text, SMALL, "page", name)
    assert not result.diagnostics.errors
    assert [b.header_path[-1].text for b in result.blocks if b.kind == "heading"] == ["Install", "Bravo steps"]
    chunk = next(c for c in result.chunks if "### Bravo steps" in c.content_original)
    assert chunk.content_original.startswith(open_b + "\n### Bravo steps"), chunk.content_original
    assert [h.text for h in chunk.header_path] == ["Install", "Bravo steps"]
    before = result.chunks[result.chunks.index(chunk) - 1]
    assert before.content_original.rstrip().endswith(close_a)


def test_a_shortcode_the_page_never_closes_stays_in_its_paragraph() -> None:
    text = 'The\n{{< glossary_tooltip text="kubelet" term_id="kubelet" >}}\nruns on every node.\n'
    result = chunk_markdown(text, ChunkerConfig(), "page", "page.md")
    assert [b.kind for b in result.blocks] == ["paragraph"]


def test_a_line_of_paired_shortcodes_is_a_block_of_its_own() -> None:
    text = 'Intro text.\n{{% tab name="Linux" %}}\nInstall it.\n{{% /tab %}}\n'
    result = chunk_markdown(text, ChunkerConfig(), "page", "page.md")
    assert [(b.kind, b.start_line) for b in result.blocks] == [
        ("paragraph", 1),
        ("html", 2),
        ("paragraph", 3),
        ("html", 4),
    ]


MINTLIFY_TABS = (  # mintlify/docs ai/mintlify-mcp.mdx: tabs with no blank line between them, one JSX block
    "## Connect\n\n<Tabs>\n"
    '  <Tab title="Claude">\n    ' + "Claude steps here. " * 12 + "\n  </Tab>\n"
    '  <Tab title="ChatGPT">\n    ' + "ChatGPT steps here. " * 12 + "\n  </Tab>\n"
    "</Tabs>\n"
)


def test_a_jsx_block_is_cut_between_its_components_closing_and_opening_lines() -> None:
    result = chunk_markdown(MINTLIFY_TABS, SMALL, "page", "page.mdx")
    assert not result.diagnostics.errors
    html = [b.content for b in result.blocks if b.kind == "html"]
    assert html[0].startswith("<Tabs>") and html[0].endswith("</Tab>")
    assert html[1].startswith('  <Tab title="ChatGPT">') and html[1].endswith("</Tabs>")
    assert [_first_line(c.content_original).strip()[:5] for c in result.chunks] == ["## Co", "<Tab "]


def test_a_closing_and_an_opening_tag_inside_a_code_fence_of_a_jsx_block_cut_nothing() -> None:
    text = '## Example\n\n<Tabs>\n```jsx\n</Tab>\n<Tab title="b">\n```\n</Tabs>\n'
    result = chunk_markdown(text, SMALL, "page", "page.mdx")
    assert [(b.kind, b.start_line, b.end_line) for b in result.blocks] == [("heading", 1, 1), ("html", 3, 8)]


def test_a_piece_holding_both_parts_of_a_cut_html_block_renders_as_its_source() -> None:
    """vuejs/docs ``props.md``: a piece of code, then ``</div>`` / ``<div class="options-api">`` (one HTML block in
    the parse, two blocks once cut) in one chunk: the check read the second part as an HTML block of its own in
    the source and flagged ``rendering-changed``."""
    code = "\n".join(f"const value{n} = compute({n});" for n in range(30))
    text = f'## Props\n\n<div class="composition-api">\n\n```js\n{code}\n```\n\n</div>\n<div class="options-api">\n\n'
    text += "Options text.\n\n</div>\n<!-- a note -->\n<!-- another note -->\n\nAfter.\n"
    for max_chars in (300, 500, 800):
        cfg = replace(ChunkerConfig(), max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
        result = chunk_markdown(text, cfg, "page", "page.md")
        assert not result.diagnostics.errors, result.diagnostics.errors
        assert not [d for d in result.diagnostics.warnings if d.code == "rendering-changed"]
