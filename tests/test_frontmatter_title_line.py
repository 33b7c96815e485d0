"""A frontmatter that is not valid YAML: refused as before, its ``title:`` line still the page's title.

svelte.dev's docs write ``title: {#if ...}``, ``title: on:`` and ``title: @sveltejs/kit`` unquoted (its own
reader takes them as text; YAML refuses each): 26 of its 617 pages lost their title to the file name (``02-if``
in every chunk's context line) (bench/README.md, "A newcomer's trial (eyes13)").
"""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.frontmatter import load_frontmatter
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()


@pytest.mark.parametrize(
    ("value", "title"),
    [
        ("{#if ...}", "{#if ...}"),
        ("on:", "on:"),
        ("@sveltejs/kit", "@sveltejs/kit"),
        ("$app/env: private", "$app/env: private"),
    ],
)
def test_the_title_line_of_an_invalid_frontmatter_titles_the_page(value: str, title: str) -> None:
    text = f"---\nNOTE: generated\ntitle: {value}\n---\n\nSome text of the page, long enough to be a chunk.\n"
    result = chunk_markdown(text, CFG, "page", "page.md")
    (finding,) = [d for d in result.diagnostics.diagnostics if d.code == "frontmatter-invalid"]
    assert finding.severity == "error"
    assert f"its title line is read as the title: {title!r}" in finding.message
    assert "quote it" in finding.message
    assert result.chunks[0].section == title
    assert result.chunks[0].content_for_embedding.startswith(title + "\n")
    assert "NOTE" not in result.chunks[0].content_original  # the block is still removed


@pytest.mark.parametrize(
    "yaml_text",
    [
        "title: >\n  folded: text\nbad: [\n",  # a block scalar: no title on the line
        "tags: [a, b\n",  # no title line
        "  title: indented {#x}\nbad: [\n",  # not at the top level
    ],
)
def test_no_title_is_read_without_a_top_level_title_line_holding_it(yaml_text: str) -> None:
    result = load_frontmatter(yaml_text, 2, CFG)
    assert result.metadata is None and result.title is None
    assert "title line" not in result.diagnostics[0].message


def test_a_quoted_title_line_loses_its_quotes() -> None:
    assert load_frontmatter("title: 'A: b'\nbad: [\n", 2, CFG).title == "A: b"


def test_a_valid_frontmatter_is_read_as_before() -> None:
    result = load_frontmatter("title: '{#if ...}'\n", 2, CFG)
    assert result.metadata == {"title": "{#if ...}"} and result.diagnostics == ()
