"""Block outlines: the document's own tokens, kept per block, stand for a parse of the block alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.models import Block
from chunker.outline import budget
from chunker.pack.reopen import Structure
from chunker.parse import BlockTokens, markdown_parser, read_document
from chunker.parse.pulldown import PulldownTokens, available
from chunker.rendering import shapes
from chunker.segmenter import segment

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _blocks(text: str, cfg: ChunkerConfig) -> tuple[Block, ...]:
    doc = read_document(text, cfg)
    return segment(doc, BlockTokens(doc, cfg), cfg)


def _block_text(text: str, block: Block) -> str:
    return text[text.rfind("\n", 0, block.start_offset) + 1 : block.end_offset]


def _same_as_parse(text: str, cfg: ChunkerConfig) -> int:
    """Asserts that every outline gives the shapes and re-opening structure of a parse of its block
    alone; returns how many blocks had one."""
    parse = markdown_parser(cfg.max_nesting, cfg.syntax == "mdx").parse
    count = 0
    for block in _blocks(text, cfg):
        if block.outline is None:
            continue
        count += 1
        own = _block_text(text, block)
        kept, parsed = block.outline.tokens(), [t for t in parse(own) if t.type != "inline"]
        assert shapes(kept, block.start_line) == shapes(parsed, block.start_line), block
        ours, theirs = Structure(own, kept), Structure(own, parsed)
        for line in range(len(ours.lines)):
            start = ours.starts[line]
            assert ours.reopened("", start + 1) == theirs.reopened("", start + 1), (block, line)
    return count


NESTED = """# Title

- one
  - two

    ```py
    code
    ```
  - three
    > quoted
    > more
1. first
2. second

> - in a quote
>   text
> > deeper

!!! note "Title"
    body of the note

::: tip
inside
:::

Term
: its definition

<div>
html
</div>
"""


def test_outlines_equal_a_parse_of_each_block() -> None:
    assert _same_as_parse(NESTED, ChunkerConfig()) >= 6


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_outlines_equal_a_parse_on_corpus_files() -> None:
    files = sorted(CORPUS.rglob("*.md"))[::25]
    assert files
    assert sum(_same_as_parse(f.read_text(encoding="utf-8"), ChunkerConfig()) for f in files) > 50


_LINE = st.sampled_from(
    ["- item", "  - nested", "1. one", "   2) two", "> quote", "> - quoted item", "    code", "```", "text", "", "***"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=14))
def test_outlines_equal_a_parse_on_random_lists(lines: list[str]) -> None:
    _same_as_parse("\n".join(lines) + "\n", ChunkerConfig())


def test_no_outline_for_paragraphs_and_code_and_a_budget_per_document() -> None:
    blocks = _blocks("para\n\n```\ncode\n```\n\n- a\n- b\n", ChunkerConfig())
    assert [b.outline is not None for b in blocks] == [False, False, True]
    many = "\n\npara\n\n".join("- a\n  - b\n  - c" for _ in range(3000)) + "\n"  # 14 tokens per 20 characters
    kept = sum(len(b.outline) for b in _blocks(many, ChunkerConfig()) if b.outline is not None)
    assert 0 < kept <= budget(len(many)) < len(many)


@pytest.mark.skipif(not available(), reason="needs pyromark")
def test_pulldown_tokens_keep_no_outline() -> None:
    cfg = ChunkerConfig(parser="pulldown-cmark")
    doc = read_document("- a\n  - b\n", cfg)
    assert all(b.outline is None for b in segment(doc, PulldownTokens(doc, cfg), cfg))
