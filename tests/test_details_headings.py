"""A heading inside a ``<details>`` element (one made of several blocks) is part of it: it opens no
section. An unclosed ``<details>`` is no container and swallows nothing. Pieces of the parse and the
pulldown-cmark path give the same blocks as the whole markdown-it-py parse."""

from __future__ import annotations

import random
from dataclasses import replace
from importlib.util import find_spec
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Block
from chunker.parse import BlockTokens, read_document
from chunker.pipeline import _blocks, chunk_markdown
from chunker.segmenter import segment
from chunker.text import normalise_newlines

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)


def shape(block: Block) -> tuple[Any, ...]:
    return (block.kind, block.start_line, block.end_line, tuple(h.text for h in block.header_path), block.joints)


def test_a_heading_inside_details_opens_no_section() -> None:
    text = (
        "## Usage\n\nLead.\n\n<details>\n<summary>Older versions</summary>\n\n### Before 3.4\n\n"
        "Old usage text.\n\n</details>\n\n## Real\n\nreal text\n"
    )
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.errors
    assert [(b.start_line, b.end_line) for b in result.blocks if b.kind == "container"] == [(5, 12)]
    assert [" > ".join(h.text for h in c.header_path) for c in result.chunks] == ["Usage", "Real"]
    assert "### Before 3.4" in result.chunks[0].content_original


def test_an_unclosed_details_is_no_container_and_the_heading_after_it_stays_one() -> None:
    text = "## A\n\n<details>\n<summary>S</summary>\n\nText.\n\n## B\n\nMore.\n\n<details>\n\nx\n\n</details>\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [c.section for c in result.chunks][:2] == ["A", "B"]
    assert [(b.start_line, b.end_line) for b in result.blocks if b.kind == "container"] == [(12, 16)]


FRAGMENTS = [
    "# Top",
    "## Section",
    "<details>\n<summary>S</summary>",
    "</details>",
    "<details><summary>x</summary>y</details>",
    "text line",
    "::: tip",
    ":::",
    "{.cls}",
    "- item",
]


def _documents(seed: int, count: int) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        parts = [rnd.choice(FRAGMENTS) for _ in range(rnd.randint(1, 30))]
        out.append("".join(p + rnd.choice(["\n", "\n\n"]) for p in parts))
    return out


DETAILS = "# A\n\ntext\n\n<details>\n<summary>S</summary>\n\n## Inside\n\ntext line\n\n</details>\n\n## After\n\nmore\n"


def test_pieces_of_a_document_with_details_and_headings_give_the_blocks_of_the_whole_parse() -> None:
    """The piecewise parse cuts at headings: a ``<details>`` closed past a cut must not end there."""
    cfg = ChunkerConfig()
    for index, text in enumerate([DETAILS] * 10 + _documents(18, 300)):
        doc = read_document(text, cfg)
        whole = [shape(b) for b in segment(doc, BlockTokens(doc, cfg, piece_chars=None), cfg)]
        pieces = [shape(b) for b in segment(doc, BlockTokens(doc, cfg, piece_chars=10 + index * 7 % 60), cfg)]
        assert pieces == whole, text


@pytest.mark.skipif(find_spec("pyromark") is None, reason="the pulldown-cmark path needs pyromark")
def test_the_pulldown_cmark_path_gives_the_blocks_of_markdown_it_with_details_and_plugin_lines() -> None:
    fast = ChunkerConfig(parser="pulldown-cmark")
    for text in _documents(19, 300):
        text = normalise_newlines(text)
        assert [shape(b) for b in _blocks(text, fast)[0]] == [shape(b) for b in _blocks(text, CFG)[0]], text
