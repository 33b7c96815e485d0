"""The block parser's speed-ups give markdown-it-py's own tokens (bench/token_identity.py checks the
whole corpus; these tests keep the check in CI)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from chunker.parser import _line_markers, compute_line_starts, markdown_parser
from tests.test_spec_sweep import EXAMPLES

PIECES = ["[", "]", ":", "\\", "\n", " ", "\t", "a", "b", "#", "-", "*", ">", "`", "|", "1.", "$$", "<div>", "'",
          '"', "(", ")", "=", "\n\n", "  ", "---\n", "x: 1\n", "    ", "```\n", "\n---", "| a |\n|---|\n",
          "\r", "\r\n", "\0"]  # fmt: skip


def stock(front_matter: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": 64}).enable("table")
    if front_matter:
        md.use(front_matter_plugin)
    md.use(dollarmath_plugin)
    md.core.ruler.disable(["inline", "text_join"])
    return md


@given(st.text(alphabet="ab \t\n", max_size=60))
def test_line_markers_are_those_of_markdown_its_state(text: str) -> None:
    state = StateBlock(text, stock(False), {}, [])
    assert _line_markers(text) == (state.bMarks, state.eMarks, state.tShift, state.sCount)


def test_the_fast_state_is_installed() -> None:
    from markdown_it.parser_block import ParserBlock

    assert markdown_parser(64, True).block.parse.__func__ is not ParserBlock.parse  # type: ignore[attr-defined]


@pytest.mark.parametrize("front_matter", [True, False])
def test_tokens_equal_stock_markdown_it_on_random_documents(front_matter: bool) -> None:
    ours, theirs = markdown_parser(64, front_matter), stock(front_matter)
    rnd = random.Random(7)
    for _ in range(3000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 40)))
        assert ours.parse(text) == theirs.parse(text), repr(text)


def test_tokens_equal_stock_markdown_it_on_the_spec_examples() -> None:
    if not EXAMPLES:
        pytest.skip("shared corpus (commonmark spec) not present")
    ours, theirs = markdown_parser(64, True), stock(True)
    differ = [number for number, _, text in EXAMPLES if ours.parse(text) != theirs.parse(text)]
    assert differ == []


@given(st.text(alphabet="ab\n", max_size=30))
def test_line_starts_are_the_offsets_after_each_newline(text: str) -> None:
    expected = [0] + [i + 1 for i, char in enumerate(text) if char == "\n" and i + 1 < len(text)]
    assert compute_line_starts(text) == expected


def test_line_starts_split_on_lf_only_not_on_unicode_separators() -> None:
    text = "a\u2028b\nc\u2029d\x85e\x0cf\x0bg\nh"
    assert compute_line_starts(text) == [0, 4, text.index("h")]
