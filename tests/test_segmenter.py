"""Blocks: real headings only, exact slices, every non-blank line in some block."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Block
from chunker.parse import BlockTokens, read_document
from chunker.segmenter import segment


def blocks_of(text: str, **options: object) -> tuple[Block, ...]:
    cfg = ChunkerConfig.from_mapping(options)
    doc = read_document(text, cfg)
    return segment(doc, BlockTokens(doc, cfg), cfg)


def test_numbered_list_items_are_a_list_not_headings() -> None:
    blocks = blocks_of("## Справки\n\n1. Лично — в клинике.\n2. Через сайт.\n")
    assert [b.kind for b in blocks] == ["heading", "list"]
    assert blocks[1].header_path[-1].text == "Справки"


def test_hash_lines_inside_fences_are_code() -> None:
    blocks = blocks_of("```python\n# not a heading\nx = 1\n```\n\n~~~\n## nor this\n~~~\n")
    assert [b.kind for b in blocks] == ["code", "code"]
    assert blocks[0].fence == ("```python", "```")


def test_every_block_is_an_exact_slice_with_its_lines() -> None:
    text = "# T\n\nPara one\nline two.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quote\n\n---\n\n<div>x</div>\n"
    blocks = blocks_of(text)
    assert [b.kind for b in blocks] == ["heading", "paragraph", "table", "blockquote", "thematic_break", "html"]
    for block in blocks:
        assert block.content == text[block.start_offset : block.end_offset]
        assert text.split("\n")[block.start_line - 1] == block.content.split("\n")[0]
    assert (blocks[1].start_line, blocks[1].end_line) == (3, 4)


def test_heading_paths_nest_and_pop() -> None:
    blocks = blocks_of("# A\n\n## B\n\n### C\n\ntext\n\n## D\n\nmore\n")
    paths = {b.content: [h.text for h in b.header_path] for b in blocks if b.kind != "heading"}
    assert paths == {"text": ["A", "B", "C"], "more": ["A", "D"]}


def test_setext_headings_and_inline_markup_give_plain_heading_text() -> None:
    blocks = blocks_of("Title **bold** [link](http://x) `code`\n=====\n\n## Second {#anchor}\n\nbody\n")
    headings = [b for b in blocks if b.kind == "heading"]
    assert [(h.heading_level, h.header_path[-1].text) for h in headings] == [
        (1, "Title bold link code"),
        (2, "Second"),
    ]


def test_reference_definitions_are_kept_as_raw_blocks() -> None:
    text = "See [the docs][d].\n\n[d]: https://example.org/docs\n"
    blocks = blocks_of(text)
    assert [b.kind for b in blocks] == ["paragraph", "raw"]
    assert blocks[1].content == "[d]: https://example.org/docs"


def test_text_past_the_nesting_limit_is_kept() -> None:
    deep = "".join("  " * i + "- level\n" for i in range(40))
    text = "# Deep\n\n" + deep + "\nZQXAFTER the list.\n"
    blocks = blocks_of(text, max_nesting=10)
    joined = "\n".join(b.content for b in blocks)
    assert "ZQXAFTER" in joined
    assert joined.count("- level") == 40


def test_list_and_table_joints_are_item_and_row_starts() -> None:
    text = "- a\n- b\n  continued\n- c\n\n| h |\n|---|\n| 1 |\n| 2 |\n"
    lst, table = blocks_of(text)
    assert [text[j : j + 3] for j in lst.joints] == ["- b", "- c"]
    assert [text[j : j + 3] for j in table.joints] == ["| 1", "| 2"]


def test_plain_text_strips_markdown_syntax() -> None:
    (block,) = blocks_of("Read **this** [guide](https://x.org) and ![the logo](l.png) with `code`.\n")
    assert block.plain_text == "Read this guide and the logo with code."


def test_atomic_flag_follows_the_config() -> None:
    blocks = blocks_of("- a\n- b\n\n```\nx\n```\n", atomic_types=["code"])
    assert [(b.kind, b.atomic) for b in blocks] == [("list", False), ("code", True)]


def test_heading_text_turns_every_run_of_unicode_whitespace_into_one_space() -> None:
    from chunker.inline import heading_text

    assert heading_text("\u3000A\u00a0\u2003 B\t\x1cC\x85 ") == "A B C"
    assert heading_text(" \u00a0 ") == ""
    assert heading_text("**Bold**\u00a0\u00a0[link](x)") == "Bold link"


def test_blank_lines_between_blocks_are_not_tested_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines no token covers are looked through with one search when they are blank (the lines
    between blocks): only the last line of each block is tested for blank, to trim it."""
    from chunker.block_builder import BlockBuilder

    tested: list[int] = []
    original = BlockBuilder.line_blank

    def line_blank(self: BlockBuilder, index: int) -> bool:
        tested.append(index)
        return original(self, index)

    monkeypatch.setattr(BlockBuilder, "line_blank", line_blank)
    text = "".join(f"Paragraph {k}\n\n\n\n \n\t\n" for k in range(20)) + "stray\n"
    blocks = blocks_of(text)
    assert [b.start_line for b in blocks] == [1 + 6 * k for k in range(20)] + [121]
    assert len(tested) <= len(blocks)


def test_raw_lines_between_blocks_are_still_kept() -> None:
    text = "# T\n\n[a]: /x\n\n  \n[b]: /y\n\npara\n"
    blocks = blocks_of(text)
    kinds = [(b.kind, b.start_line, b.end_line) for b in blocks]
    assert kinds == [("heading", 1, 1), ("raw", 3, 3), ("raw", 6, 6), ("paragraph", 8, 8)]


def test_a_closing_bracketed_id_is_not_heading_text() -> None:
    from chunker.inline import heading_text

    # javascript.info: `## Spread syntax [#spread-syntax]` is the section "Spread syntax"
    assert heading_text("Spread syntax [#spread-syntax]") == "Spread syntax"
    assert heading_text('Wrapping functions: "apply" [#proxy-apply] ') == 'Wrapping functions: "apply"'
    assert heading_text("Issue [#12]") == "Issue [#12]"  # a number: not an id
    assert heading_text("[#id] first") == "[#id] first"  # only at the end
