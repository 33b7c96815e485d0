"""embedding_drop_heading_ids: what a chunk embeds without the anchors and attribute lists of its heading lines."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.inline import without_heading_ids
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

PAGE = (
    "---\ntitle: Guide\n---\n\n# Guide {#top}\n\nIntro text of the guide, long enough to stand alone here.\n\n"
    "## Install the tool {#install}\n\nRun pip install chunker to get it on your machine.\n\n"
    "### From source {: #src .cls }\n\nClone and build it: `make {#x}`.\n\n"
    "```md\n## Kept in code {#code}\n```\n\n"
    "> ## Quoted {#quoted}\n>\n> Text in a quote.\n\n"
    "## Spread syntax [#spread-syntax]\n\nA paragraph ending with an id-like text {#not-a-heading}\n\n"
    "## Use `{#literal}`\n\nA code span is text.\n"
)
ON = ChunkerConfig(embedding_drop_heading_ids=True)


def _embedded(cfg: ChunkerConfig) -> str:
    return "\n".join(c.content_for_embedding for c in chunk_markdown(PAGE, cfg, "g", "g.md").chunks)


def test_heading_lines_lose_their_ids_and_attribute_lists_in_what_is_embedded() -> None:
    embedded = _embedded(ON)
    for line in ("# Guide", "## Install the tool", "### From source", "> ## Quoted", "## Spread syntax"):
        assert f"{line}\n" in embedded
    for gone in ("{#top}", "{#install}", "{: #src .cls }", "{#quoted}", "[#spread-syntax]"):
        assert gone not in embedded


def test_code_paragraphs_and_code_spans_keep_what_they_hold() -> None:
    embedded = _embedded(ON)
    assert "## Kept in code {#code}" in embedded  # fenced code is left as it is
    assert "`make {#x}`" in embedded
    assert "an id-like text {#not-a-heading}" in embedded  # not a heading line
    assert "## Use `{#literal}`" in embedded  # a code span ends the line, not an id


def test_by_default_and_in_the_exact_slice_the_ids_stay() -> None:
    assert "## Install the tool {#install}" in _embedded(ChunkerConfig())
    chunks = chunk_markdown(PAGE, ON, "g", "g.md").chunks
    assert all(c.content_original in PAGE for c in chunks)
    assert any("{#install}" in c.content_original for c in chunks)
    sections = {c.section for c in chunks}
    assert "Install the tool" in sections and not any("{" in s or "[#" in s for s in sections)


def test_the_option_changes_the_fingerprint_and_the_streamed_path_cleans_the_same() -> None:
    assert ON.fingerprint() != ChunkerConfig().fingerprint()
    streamed = [c.to_dict() for c in StreamedChunks(PAGE, ON, "g", "g.md")]
    assert streamed == [c.to_dict() for c in chunk_markdown(PAGE, ON, "g", "g.md").chunks]


def test_with_the_other_cleanups() -> None:
    cfg = replace(ON, skip_comments=True, embedding_drop_template_tags=True)
    text = "## Notes {#notes}\n\nOne <!-- editor --> two {% if a %}three{% endif %}.\n"
    (chunk,) = chunk_markdown(text, cfg, "n", "n.md").chunks
    assert "## Notes\n\nOne" in chunk.content_for_embedding
    assert "editor" not in chunk.content_for_embedding and "{%" not in chunk.content_for_embedding


@given(st.text(alphabet=" \t{}#:.=-[]ab", max_size=60))
def test_only_a_tail_of_the_line_goes(tail: str) -> None:
    line = "## Title" + tail
    kept = without_heading_ids(line)
    assert line.startswith(kept) and kept.startswith("## Title")
    assert without_heading_ids(kept) == kept  # what is left ends with no id


MYST_PAGE = (
    "(guide)=\n# Guide\n\nIntro text of the guide, long enough to stand alone here.\n\n"
    "(guide-install)=\n\n## Install the tool\n\nRun pip install chunker to get it on your machine.\n\n"
    "- An item of a list.\n\n  (in-item)=\n  Text of the item (with a remark)=\n\n"
    "````md\n(kept-in-code)=\n## An example\n````\n\nUse `(x)=` for a target; (f)= reads as text here.\n"
)


def test_myst_target_lines_are_heading_ids_that_go_from_what_is_embedded() -> None:
    # Sphinx + MyST-Parser, Jupyter Book, mystmd: '(name)=' on the line above a heading is its id, as
    # '{#name}' after it is elsewhere (of three MyST doc trees' 1,671 chunks 358 embedded one outside code)
    embedded = "\n".join(c.content_for_embedding for c in chunk_markdown(MYST_PAGE, ON, "g", "g.md").chunks)
    for gone in ("(guide)=", "(guide-install)=", "(in-item)="):
        assert gone not in embedded
    assert "# Guide\n\nIntro" in embedded and "(with a remark)=" in embedded and "  Text of the item" in embedded
    assert "(kept-in-code)=" in embedded and "`(x)=`" in embedded and "(f)= reads" in embedded
    kept = "\n".join(c.content_for_embedding for c in chunk_markdown(MYST_PAGE, ChunkerConfig(), "g", "g.md").chunks)
    assert "(guide)=\n# Guide" in kept and "(guide-install)=" in kept  # by default they stay


def test_an_empty_anchor_element_ending_a_heading_goes_too() -> None:
    # GitBook writes every heading it exports with its anchor: '## Structure <a href="#structure" id="structure"></a>'
    text = (
        '# Content configuration\n\n## Structure <a href="#structure" id="structure"></a>\n\n'
        "The structure accepts two.\n\n"
        "### Summary <a name='summary'></a>\n\nThe summary file.\n\n"
        '## A <a href="https://example.com">link</a>\n\nA link is text.\n'
    )
    embedded = "\n".join(c.content_for_embedding for c in chunk_markdown(text, ON, "g", "g.md").chunks)
    assert "## Structure\n" in embedded and "### Summary\n" in embedded
    assert "id=" not in embedded and "name=" not in embedded
    assert '## A <a href="https://example.com">link</a>' in embedded
    assert '<a href="#structure" id="structure"></a>' in _embedded_with(text, ChunkerConfig())


def _embedded_with(text: str, cfg: ChunkerConfig) -> str:
    return "\n".join(c.content_for_embedding for c in chunk_markdown(text, cfg, "g", "g.md").chunks)


def test_obsidian_block_ids_go_too() -> None:
    # the targets of Obsidian's block links ([[Internal links#^37066d]]): shown as nothing
    text = (
        "# Internal links\n\nLearn how to link to notes, attachments, and other files. ^b15695\n\n"
        "> You fall to the level of your systems.\n> ^quote-of-the-day\n\n- <span>Team</span> ^a4b3a2\n\n"
        "- An item with text\n    ^37006f\n\nWrite `^id` at the end: `a` ^tail\n\n```md\nKept in code ^abc123\n```\n"
    )
    embedded = _embedded_with(text, ON)
    assert "^" not in embedded.replace("`^id`", "").replace("Kept in code ^abc123", "")
    assert "other files.\n\n> You fall to the level of your systems.\n\n- <span>Team</span>\n\n- An item" in embedded
    assert "Kept in code ^abc123" in embedded and "`^id` at the end: `a`\n" in embedded
    assert "^quote-of-the-day" in _embedded_with(text, ChunkerConfig())
