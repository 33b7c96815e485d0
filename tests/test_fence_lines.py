"""In MDX, a fence line the parse reads as part of a JSX or HTML block opens no fence: drafts close
none, the budget allows for none and the validator finds none left open (chunker.fence_lines).
Markdown pairs such lines as kramdown does (tests/test_fences.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.models import AddedText
from chunker.pack.budget import SectionSpace
from chunker.pipeline import chunk_markdown
from chunker.strategies import Section
from chunker.validator import validate

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False, max_chars=300, target_chars=150, syntax="mdx")
JSX = "<Solution>\n````js\ncode\n\n<div>\n</div>\n"
"""A JSX block holding a fence it never closes: MDX ends it at its first blank line, and the
``<div>`` after it is an HTML block of its own."""
PROSE = "Prose words here. " * 30


@pytest.mark.parametrize(
    "text",
    [
        "# T\n\n" + JSX,  # the section fits whole
        "# T\n\nIntro.\n\n" + JSX + "\n" + PROSE + "\n",  # a chunk of whole blocks, then pieces
        "# T\n\n- " + JSX.replace("\n", "\n  ").rstrip() + "\n",  # in a list item (its outline)
        "# T\n\n<div>\n```\n\ntext\n",  # an HTML block ends at the blank line
    ],
)
def test_a_fence_line_in_a_jsx_block_is_closed_by_no_chunk(text: str) -> None:
    result = chunk_markdown(text, CFG, "page", "page.mdx")
    assert [a for c in result.chunks for a in c.added_lines if "``" in a.text] == []
    assert [d.code for d in result.diagnostics.diagnostics] == []
    markdown = chunk_markdown(text, replace(CFG, syntax="markdown"), "page", "page.md")
    assert any("``" in a.text for c in markdown.chunks for a in c.added_lines)  # paired as kramdown does


def test_the_validator_reads_a_jsx_blocks_fence_line_as_none_and_a_real_open_fence_as_open() -> None:
    cfg = CFG
    text = "# T\n\n" + JSX
    result = chunk_markdown(text, cfg, "page", "page.mdx")
    whole = text.rstrip("\n")
    chunk = replace(result.chunks[0], content_original=whole, content_for_embedding=whole, added_lines=())
    report = validate(text, result.blocks, (chunk,), (), cfg)
    assert "broken-fence" not in {d.code for d in report.diagnostics}
    # a real fence after the HTML block, cut inside its code: still open
    text = "# T\n\n<div>\n```\n\n```js\ncode\nmore\n```\n"
    result = chunk_markdown(text, CFG, "page", "page.mdx")
    cut = text.index("more")
    chunk = replace(result.chunks[0], end_offset=cut, content_original=text[:cut], content_for_embedding=text[:cut])
    report = validate(text, result.blocks, (chunk,), (), CFG)
    assert "broken-fence" in {d.code for d in report.diagnostics}
    closed = replace(
        chunk, content_original=text[:cut] + "```", added_lines=(AddedText("after", "```"),), content_for_embedding=""
    )
    report = validate(text, result.blocks, (replace(closed, content_for_embedding=closed.content_original),), (), CFG)
    assert "broken-fence" not in {d.code for d in report.diagnostics}


def test_the_budget_finds_no_fence_open_after_an_html_blocks_fence_line_in_a_list() -> None:
    text = "- item\n\n  <div>\n  ```\n  </div>\n\n  after the block, words.\n"
    result = chunk_markdown(text, CFG, "page", "page.mdx")
    (block,) = result.blocks
    space = SectionSpace(text, Section(title="s", blocks=(block,)), 0, CFG, "t")
    assert space.nested_fence(block, text.index("after")) is None
    fenced = text.replace("<div>\n  ```\n  </div>", "```\n  code")
    result = chunk_markdown(fenced, CFG, "page", "page.mdx")
    space = SectionSpace(fenced, Section(title="s", blocks=result.blocks), 0, CFG, "t")
    assert space.nested_fence(result.blocks[0], fenced.index("code")) == ("```", "  ```")
