"""Pieces of long lists and tables cost linear time.

Re-opening a piece of a long list looks up the containers, fence, paragraph and code block of
its first line without a pass over every container of the block: a piece of each item of a list
of thousands of items was quadratic (a 1 MB numbered list of 20,000 items, the annex of a
regulation converted from PDF: 29 s). Numbering the pieces of a split block hashed the block by value,
its tuple of joints (one per table row) included, once per piece (an 8 MB table of 40,000 rows: 2.7 s
-> 1.5 s)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunker.pack.containers as containers
from chunker import ChunkerConfig, chunk_markdown
from chunker.models import Block
from chunker.pack.reopen import Structure
from chunker.parse import markdown_parser

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

NESTED = """- one
  - two

    ```py
    code
    ```
  - three
    > quoted
    > more
    lazy line
1. first
   para
lazy
2. second

       indented code

> - in a quote
>   text
> > deeper

!!! note "Title"
    body of the note

    - item in it

::: tip
inside
:::

Term
: its definition
  more

[^1]: a note

    its second paragraph
"""


def _structure(text: str) -> Structure:
    parse = markdown_parser(ChunkerConfig().max_nesting, False).parse
    return Structure(text, [t for t in parse(text) if t.type != "inline"])


def _assert_lookups(text: str) -> None:
    s = _structure(text)
    for line in range(len(s.lines)):
        brute = [k for k, t in enumerate(s.opens) if s.firsts[k] <= line < t.map[1]]  # type: ignore[index]
        assert s.chain(line) == brute, line
        for ranges in (s.fences, s.paragraphs, s.code):
            a, b = containers.around(ranges, line)
            assert next((r for r in ranges if r[0] <= line < r[1]), None) == ((a, b) if a <= line < b else None)


def test_lookups_equal_a_scan_of_every_container() -> None:
    _assert_lookups(NESTED)
    assert _structure(NESTED).parents is not None


_LINE = st.sampled_from(
    [
        "- item",
        "  - nested",
        "1. one",
        "   2) two",
        "> quote",
        "> - quoted item",
        "    code",
        "```",
        "text",
        "",
        "lazy",
        ": def",
        "::: tip",
        ":::",
        "!!! note",
        "    body",
        "[^a]: note",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=16))
def test_lookups_equal_a_scan_on_random_blocks(lines: list[str]) -> None:
    _assert_lookups("\n".join(lines) + "\n")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_lookups_equal_a_scan_on_corpus_files() -> None:
    files = sorted(CORPUS.rglob("*.md"))[::40]
    assert files
    for path in files:
        _assert_lookups(path.read_text(encoding="utf-8"))


def test_ranges_that_do_not_nest_fall_back_to_the_scan() -> None:
    assert containers._parents([(0, 5), (1, 3), (2, 6)]) is None  # reaches past the range around it
    assert containers._parents([(2, 4), (0, 1)]) is None  # out of order
    assert containers._parents([(0, 5), (1, 3), (3, 5), (5, 6)]) == [-1, 0, 0, -1]


def test_pieces_of_a_long_numbered_list_cost_linear_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    lines = containers.lines_of

    def counting(token: containers.LineToken) -> tuple[int, int]:
        calls[0] += 1
        return lines(token)

    monkeypatch.setattr(containers, "lines_of", counting)
    items = 400  # lazy second lines: each piece looks up its paragraph too
    text = "# Anlage\n\n" + "".join(f"{i + 1}. Punkt {i} mit Text\n   Fortsetzung {i}\n" for i in range(items))
    cfg = ChunkerConfig(max_chars=200, target_chars=150, min_chars=20)
    result = chunk_markdown(text, cfg, stem="x", source_path="x.md")
    assert len(result.chunks) >= items // 4
    assert not result.diagnostics.errors
    assert calls[0] < 10 * items  # a scan of every item per piece: 81,399 calls


def test_pieces_of_a_long_table_never_hash_its_block(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    by_value = Block.__hash__

    def counting(block: Block) -> int:
        calls[0] += 1
        return by_value(block)

    monkeypatch.setattr(Block, "__hash__", counting)
    text = "# T\n\n| a | b |\n|---|---|\n" + "".join(f"| row {i} text | more {i} |\n" for i in range(500))
    result = chunk_markdown(text, ChunkerConfig(), stem="x", source_path="x.md")
    assert [c.parts for c in result.chunks] == [len(result.chunks)] * len(result.chunks) and len(result.chunks) > 10
    assert calls[0] == 0  # by value, each piece's hash went over the 500 row offsets: 35 hashes
