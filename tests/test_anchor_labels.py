"""A paragraph (or HTML block) of named anchors only (``<a name="slug"></a>``) is the label of the block
below it: it starts that block, as a MyST target does, so the chunk of a heading holds its anchor and the
chunk before does not end with the next section's name."""

from __future__ import annotations

from dataclasses import replace
from importlib.util import find_spec

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), max_chars=200, target_chars=150, min_chars=20)
INTRO = "Intro text about the first topic of the page. " * 3
BODY = "The second topic is described here in detail. " * 3
PARSERS = [
    "markdown-it",
    pytest.param(
        "pulldown-cmark",
        marks=pytest.mark.skipif(find_spec("pyromark") is None, reason="the pulldown-cmark path needs pyromark"),
    ),
]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize(
    "anchor",
    [
        '<a name="second-topic"></a>\n',  # right above the heading (Laravel's docs)
        '<a id="second-topic"></a>\n\n',  # a blank line between (the Rust book)
        '<a name="second-topic"></a><a name="old-name"></a>\n',
        '  <A ID="second-topic"></A>\n',
        '<a id="second-topic"/>\n\n',  # self-closing: an HTML block
        '<a name="second-topic"></a>\n<a name="old-name"></a>\n',  # anchors on two lines
    ],
)
def test_an_anchor_line_goes_with_the_heading_below_it(anchor: str, parser: str) -> None:
    text = f"# Page\n\n{INTRO}\n\n{anchor}## Second topic\n\n{BODY}\n"
    result = chunk_markdown(text, replace(CFG, parser=parser), "p", "p.md")
    assert not result.diagnostics.errors
    chunks = result.chunks
    assert len(chunks) >= 2
    assert "second-topic" not in chunks[0].content_original
    assert "second-topic" not in chunks[0].content_for_embedding
    assert chunks[1].content_original.startswith(anchor.rstrip("\n"))
    assert chunks[1].section == "Second topic"
    heading = next(b for b in result.blocks if b.kind == "heading" and b.heading_level == 2)
    assert text[heading.start_offset : heading.end_offset].startswith(anchor.rstrip("\n"))


def test_a_release_anchor_stays_with_its_release() -> None:
    """A changelog's `<a name="1.2.3"></a>` before each release heading: the number is the next release's."""
    releases = [("1.2.4", "Fix the parser on empty input."), ("1.2.3", "Add the export command.")]
    text = "".join(f'<a name="{v}"></a>\n# {v} (2026-08-19)\n\n' + f"- {note} " * 4 + "\n\n" for v, note in releases)
    result = chunk_markdown(text, CFG, "changelog", "CHANGELOG.md")
    assert [c.section for c in result.chunks] == ["1.2.4 (2026-08-19)", "1.2.3 (2026-08-19)"]
    assert [c.content_original.split("\n")[0] for c in result.chunks] == [
        '<a name="1.2.4"></a>',
        '<a name="1.2.3"></a>',
    ]
    assert "1.2.3" not in result.chunks[0].content_original


@pytest.mark.parametrize(
    "paragraph",
    [
        '<a name="x"></a> and some text after it',  # text: a paragraph of its own
        '<a href="https://example.com/"></a>',  # a link, no anchor name
        '<a name="x">Label</a>',  # an anchor with text
    ],
)
def test_a_paragraph_with_more_than_anchors_stays_where_it_is(paragraph: str) -> None:
    text = f"# Page\n\n{INTRO}\n{paragraph}\n\n## Second topic\n\n{BODY}\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert paragraph in result.chunks[0].content_original
    assert result.chunks[1].content_original.startswith("## Second topic")


def test_anchors_at_the_end_of_the_document_are_kept() -> None:
    text = f'# Page\n\n{INTRO}\n\n<a name="end"></a>\n'
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.errors
    assert "".join(c.content_original for c in result.chunks).endswith('<a name="end"></a>')
