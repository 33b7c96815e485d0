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


DETAILS_MIX = [
    "<details>\n<summary>a</summary>\n\n# In\n\ntext\n\n</details>\n\n# Out\n\nx\n",
    "<details>\n\n# H1\n\n<details><summary>s</summary></details>\n\n# H2\n\n<details>\n\n# H3\n\nend\n",
    "# A\n\n<details>\n\n## B\n\n</details>\n<details>\n\n## C\n\n<DETAILS open>\n\n## D\n\n</details>\n",
    "- <details>\n\n# H\n\n<details>\n# G\n\n</details>\n\n# K\n",
]


@pytest.mark.parametrize("text", DETAILS_MIX)
def test_dangling_stops_answers_as_dangling_details_at_every_stop(text: str) -> None:
    from chunker.parse.details import dangling_details, dangling_stops
    from chunker.parse.markdown import tokenize

    tokens, _ = tokenize(text, CFG)
    assert dangling_stops(tokens) == [dangling_details(tokens, stop) for stop in range(len(tokens) + 1)]


def test_a_piece_of_many_unclosed_details_is_split_in_one_scan_of_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10,000 '<details>' never closed between headings took 23 s (quadratic: each heading of a piece
    # scanned every opening before it); the piece's split now looks at each block once.
    from chunker.parse import details
    from chunker.parse.markdown import tokenize
    from chunker.parse.pieces import _split_index

    piece = "<details>\n<summary>x</summary>\n\n# H\n\ntext\n\n" * 400 + "# Last\n\nend\n"
    tokens, _ = tokenize(piece, CFG)
    calls = 0
    opens = details.opens_details

    def counted(content: str) -> bool:
        nonlocal calls
        calls += 1
        return opens(content)

    monkeypatch.setattr(details, "opens_details", counted)
    split = _split_index(tokens, piece, 0)
    assert split is None  # every heading has a <details> open before it that may close after it
    assert calls <= 2 * len(tokens)


def test_a_document_of_unclosed_details_parsed_in_pieces_keeps_its_blocks() -> None:
    text = "<details>\n<summary>x</summary>\n\n# H\n\ntext\n\n" * 300 + "# Last\n\nend\n"
    doc = read_document(text, CFG)
    whole = [t.map for part in BlockTokens(doc, CFG, piece_chars=None) for t in part if t.level == 0]
    pieces = [t.map for part in BlockTokens(doc, CFG, piece_chars=500) for t in part if t.level == 0]
    assert pieces == whole
