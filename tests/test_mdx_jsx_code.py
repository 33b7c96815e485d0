"""MDX: code fences inside a JSX block are code, as MDX reads them: the chunks holding them say ``has_code``.

drizzle-orm-docs writes its examples as ``<Section>`` over fences with no blank line between them: the JSX
block keeps the fences as its text, and 1,064 of its 5,052 chunks held code with ``has_code`` false
(bench/README.md, "A newcomer's trial (eyes13)").
"""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)


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
