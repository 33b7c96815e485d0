"""MDX: JSX blocks as MDX reads them: code fences inside are code, text after the elements closed is not theirs.

drizzle-orm-docs writes its examples as ``<Section>`` over fences with no blank line between them, and its prose
right under ``</Section>``: the JSX block kept the fences as its text (1,064 of its 5,052 chunks held code with
``has_code`` false) and read on into the prose up to the next blank line (13 ``html-tail`` warnings)
(bench/README.md, "A newcomer's trial (eyes13)").
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)


def blocks(text: str, path: str = "page.mdx") -> list[tuple[str, str]]:
    result = chunk_markdown(text, CFG, "page", path)
    return [(b.kind, text[b.start_offset : b.end_offset]) for b in result.blocks]


def chunks(text: str, path: str = "page.mdx", cfg: ChunkerConfig = CFG) -> list[Chunk]:
    return list(chunk_markdown(text, cfg, "page", path).chunks)


def holding(found: list[Chunk], needle: str) -> Chunk:
    (chunk,) = [c for c in found if needle in c.content_original]
    return chunk


SECTION = (
    "## Partial select\n\nSelect some fields.\n<Section>\n```ts\nawait db.select(ZQXCODE)\n```\n"
    "```sql\nselect 1\n```\n</Section>\n"
)


def test_a_chunk_holding_a_jsx_block_with_code_fences_has_code() -> None:
    chunk = holding(chunks(SECTION), "ZQXCODE")
    assert chunk.has_code


def test_a_jsx_block_without_a_fence_is_no_code() -> None:
    text = "## Note\n\nProse.\n<Callout>\nNo code here, only `inline` ZQXNOTE.\n</Callout>\n"
    assert not holding(chunks(text), "ZQXNOTE").has_code


def test_html_with_fence_lines_in_commonmark_is_no_code() -> None:
    text = "## Html\n\nProse.\n\n<div>\n```ts\nZQXHTML\n```\n</div>\n"
    assert not holding(chunks(text, "page.md"), "ZQXHTML").has_code


def test_each_part_of_a_jsx_block_cut_between_its_tabs_says_whether_it_holds_a_fence() -> None:
    text = (
        "## Tabs\n\nProse.\n<CodeTabs>\n<CodeTab>\nZQXPROSE only words in this tab.\n</CodeTab>\n"
        "<CodeTab>\n```ts\nZQXTAB\n```\n</CodeTab>\n</CodeTabs>\n"
    )
    cut = replace(CFG, max_chars=90, target_chars=60)
    found = chunks(text, cfg=cut)
    assert holding(found, "ZQXTAB").has_code
    assert not holding(found, "ZQXPROSE").has_code


def test_text_right_below_the_line_closing_a_jsx_blocks_elements_is_a_paragraph() -> None:
    text = SECTION + "Prose right after the element ZQXAFTER.\nIts second line.\n"
    found = blocks(text)
    assert found[-2][0] == "html" and found[-2][1].endswith("</Section>")
    assert found[-1] == ("paragraph", "Prose right after the element ZQXAFTER.\nIts second line.")
    assert not any(w.code == "html-tail" for w in chunk_markdown(text, CFG, "page", "page.mdx").diagnostics.diagnostics)


@pytest.mark.parametrize(
    "text",
    [
        "<Callout>\nText of the callout.\n</Callout>\n",  # its body: one block, as before
        "<Tabs>\n<Tab>\nOne.\n</Tab>\nText inside the tabs.\n</Tabs>\n",  # an element still open
        "<Section>\n```ts\na\n```\n</Section>\n<Section>\n```ts\nb\n```\n</Section>\n",  # a tag follows
        '<Card title="a <b>">\nText.\n',  # never closed
    ],
)
def test_a_jsx_block_reads_on_while_an_element_is_open_or_a_tag_follows(text: str) -> None:
    assert {kind for kind, _ in blocks("Some words first.\n\n" + text)[1:]} == {"html"}


def test_a_void_html_element_or_a_self_closing_tag_leaves_no_element_open() -> None:
    text = '<Section>\nLine one<br>\n<Npm pkg="drizzle-orm" />\n</Section>\nProse after.\n'
    assert [kind for kind, _ in blocks(text)] == ["html", "paragraph"]


def test_text_after_closed_elements_in_a_md_page_stays_in_the_html_block_as_commonmark_reads_it() -> None:
    text = "<section>\nHTML.\n</section>\nProse after.\n"
    assert [kind for kind, _ in blocks(text, "page.md")] == ["html"]
