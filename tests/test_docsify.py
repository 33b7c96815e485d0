"""Docsify pages: the heading attributes Docsify reads after a heading's text (``:id=x``, ``:docsify-ignore``)
name no part of the heading."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.inline import heading_text, without_heading_ids
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()

PAGE = (
    "# docsify <small>5.0.0</small> :id=docsify\n\nA magical documentation site generator.\n\n"
    "## themeColor :id=themecolor\n\nThe theme color.\n\n## Internals :docsify-ignore\n\nNot in the sidebar.\n"
)


def test_docsify_heading_attributes_are_no_heading_text() -> None:
    result = chunk_markdown(PAGE, CFG, "p", "p.md")
    assert [c.section for c in result.chunks] == ["docsify 5.0.0", "themeColor", "Internals"]
    assert result.chunks[1].content_for_embedding.startswith("docsify 5.0.0\n\n## themeColor :id=themecolor")
    assert heading_text("Hello, world! :id=hello-world") == "Hello, world!"
    assert heading_text("All :docsify-ignore-all") == "All"
    # words that only look like one stay: no space before, or no value
    assert heading_text("x:id=y") == "x:id=y" and heading_text("The :id") == "The :id"


def test_embedding_drop_heading_ids_drops_them_from_the_heading_line() -> None:
    cfg = replace(CFG, embedding_drop_heading_ids=True)
    result = chunk_markdown(PAGE, cfg, "p", "p.md")
    assert "## themeColor\n" in result.chunks[1].content_for_embedding
    assert ":id=" not in "".join(c.content_for_embedding for c in result.chunks)
    assert without_heading_ids("## Internals :docsify-ignore") == "## Internals"
