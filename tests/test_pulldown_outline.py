"""A block's tokens from pulldown-cmark (``chunker.parse.pulldown_outline``) against markdown-it-py's
parse of the same text: the tokens the re-opening and the rendering check read on the pulldown-cmark
path must be the ones they read on the markdown-it-py path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")

from test_pulldown import _MARKER_TEXT, DIVERGENCES, FRAGMENTS, shapes

from chunker.config import ChunkerConfig
from chunker.parse.markdown import markdown_parser
from chunker.parse.pulldown_outline import _NESTED_PLUGIN, _nested_plugin, block_tokens
from chunker.pipeline import chunk_markdown
from chunker.runner import chunks_bytes

SPEC_JSON = Path(__file__).resolve().parent / "data" / "commonmark-spec" / "spec.json"
NESTING = 100


def reference(text: str) -> list[tuple[Any, ...]]:
    """markdown-it-py's tokens as an outline keeps them (no ``inline``, maps of openings only)."""
    return [
        (t.type, t.nesting, t.map if t.nesting != -1 else None, *_marker(t))
        for t in markdown_parser(NESTING).parse(text)
        if t.type != "inline"
    ]


def _marker(token: Any) -> tuple[str, str]:
    return (token.info, token.markup) if token.type == "list_item_open" else ("", "")


def fast(text: str) -> list[tuple[Any, ...]] | None:
    tokens = block_tokens(text, NESTING)
    return None if tokens is None else [(t.type, t.nesting, t.map, t.info, t.markup) for t in tokens]


CASES = {
    "tight item paragraphs": "- a\n  b\n- c *d*\n  # h\n  e\n",
    "loose items, blank lines after": "- a\n\n\n- b\n\n  c\n\n\nafter\n",
    "nested list ends at the outer item": "1) x\n   - y\n\n     z\n2) w\n",
    "tab-indented nested items": "* a\n\t* b\n\t* c\n* d\n",
    "empty item, blank line": "- a\n-\n\n  foo\n",
    "item in a quote": "> - a\n>\n> b\n",
    "quote with lazy line": "> q\nlazy\n\n>     code\n",
    "fence in item, unclosed": "- ```\n  x\n\n\n  \ny\n",
    "html in item": "- <div>\n  x\n\n  y\n",
    "table in item": "- | a | b |\n  |---|---|\n  | 1 | 2 |\n\n  text\n",
    "headings and rules": "Title\n===\n\n- ## h\n  ***\n",
    "non-ASCII": "- Ü ё 字\n  - ü\n\n    字\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_tokens(name: str) -> None:
    assert fast(CASES[name]) == reference(CASES[name])


def test_commonmark_spec_same_tokens() -> None:
    examples = json.loads(SPEC_JSON.read_text(encoding="utf-8"))
    got = {e["example"]: fast(e["markdown"]) for e in examples}
    differing = [e["example"] for e in examples if got[e["example"]] not in (None, reference(e["markdown"]))]
    assert differing == []
    assert [n for n, tokens in got.items() if tokens is None] == [44]  # '+++': a MyST block break, plugin syntax


def test_plugin_syntax_and_math_are_left_to_markdown_it() -> None:
    assert block_tokens("- !!! note\n    text\n", NESTING) is None
    assert block_tokens("- $$\n  x\n  $$\n", NESTING) is None
    assert block_tokens("> " * 20 + "deep\n", 16) is None


NESTED = st.sampled_from(["  - inner", "    deeper", "   > quoted", "  ```", "  text", "\t* tabbed", "-", "2."])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(FRAGMENTS, NESTED), min_size=1, max_size=14),
    st.lists(st.sampled_from(["\n", "\n\n", "\n\n\n"]), min_size=14, max_size=14),
)
def test_random_documents_same_tokens(parts: list[str], joins: list[str]) -> None:
    text = "".join(p + j for p, j in zip(parts, joins, strict=False))
    tokens = fast(text)
    if tokens is None or DIVERGENCES.search(text) is not None:
        return
    expected = reference(text)
    if top_level(tokens) == top_level(expected):  # else the blocks differ: tests/test_pulldown.py
        assert tokens == expected


def top_level(tokens: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    out, level = [], 0
    for token in tokens:
        level += min(token[1], 0)
        if level == 0:
            out.append(token[:3])
        level += max(token[1], 0)
    return out


WORDS = st.sampled_from(
    ["- long item text that goes on and on", "  continued item text with more words", "1. first numbered item text"]
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(FRAGMENTS, NESTED, WORDS), min_size=2, max_size=20),
    st.lists(st.sampled_from(["\n", "\n", "\n\n"]), min_size=20, max_size=20),
    st.sampled_from([30, 50, 80, 150]),
)
def test_random_documents_same_chunks_and_findings(parts: list[str], joins: list[str], max_chars: int) -> None:
    # small budgets split lists and quotes: re-opening and the rendering check read the tokens
    # made here on the pulldown-cmark path, markdown-it-py's outlines on the other
    text = "".join(p + j for p, j in zip(parts, joins, strict=False))
    options = {"max_chars": max_chars, "target_chars": max_chars * 2 // 3, "min_chars": 10}
    reference_cfg = ChunkerConfig.from_mapping(options)
    fast_cfg = ChunkerConfig.from_mapping({**options, "parser": "pulldown-cmark"})
    if DIVERGENCES.search(text) is not None or shapes(text, fast_cfg) != shapes(text, reference_cfg):
        return  # the blocks differ (tests/test_pulldown.py)
    expected = chunk_markdown(text, reference_cfg, "d", "d.md")
    got = chunk_markdown(text, fast_cfg, "d", "d.md")
    assert chunks_bytes(got) == chunks_bytes(expected)
    assert got.diagnostics.to_dict() == expected.diagnostics.to_dict()


_LIST_MARKERS = st.sampled_from(["- ", "* ", "+ ", "1. ", "12) ", "-\t"])
_NESTED_TEXT = st.lists(st.one_of(_MARKER_TEXT, _LIST_MARKERS), max_size=6).map("".join)


@given(_NESTED_TEXT)
@settings(max_examples=400, deadline=None)
def test_nested_plugin_search_agrees_with_the_line_pattern(text: str) -> None:
    assert _nested_plugin(text) == (_NESTED_PLUGIN.search(text) is not None)
