"""The pulldown-cmark block parse (``parser: pulldown-cmark``) against markdown-it-py, the reference:
the same blocks (kind, lines, heading path, fence lines, nested kinds, joints), so the same chunks.
``bench/parser_diff.py`` runs the same comparison over the CommonMark spec and the whole corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.models import Block
from chunker.pipeline import _blocks, chunk_markdown
from chunker.text import normalise_newlines

REFERENCE = ChunkerConfig()
FAST = ChunkerConfig(parser="pulldown-cmark")
SPEC_JSON = Path(__file__).resolve().parent / "data" / "commonmark-spec" / "spec.json"


def shape(block: Block) -> tuple[Any, ...]:
    return (
        block.kind,
        block.start_line,
        block.end_line,
        tuple(h.text for h in block.header_path),
        block.fence,
        tuple(sorted(block.inner)),
        block.joints,
    )


def shapes(text: str, cfg: ChunkerConfig) -> list[tuple[Any, ...]]:
    return [shape(b) for b in _blocks(normalise_newlines(text), cfg)[0]]


CASES = {
    "headings": "# Title\n\nText *with* markup.\n\n## Sub ##\n\nSetext\n======\n\nmore\n",
    "escaped heading": "# \\<script setup> {#x}\n\ntext\n",
    "empty headings": "#\n\n## ##\n\ntext\n",
    "lists": "- a\n- b\n  - nested\n\n1. one\n2. two\n\n   para in item\n",
    "list then definitions": "- item\n- two\n\n[a]: /url\n[b]: /u2\n\nPara\n",
    "lazy item end": "- one\n\n two\n",
    "fences": "```py\ncode\n```\n\n~~~~\nx\n~~~~\n\n- item\n\n  ```\n  nested\n  ```\n",
    "unclosed fence": "text\n\n```\nnever closed\n",
    "indented code": "para\n\n    code\n    more\n",
    "table": "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",
    "table in quote": "> | a |\n> |---|\n> | 1 |\n",
    "html": "<div>\nx\n</div>\n\n<details>\n<summary>S</summary>\n\nbody\n\n</details>\n",
    "math": "Text\n\n$$\nx^2\n$$\n\n$$ a $$ (1)\n\n- item\n\n  $$\n  y\n  $$\n",
    "math over a list line": "$$\n  - nested\n$$\n",
    "quote": "> quote\n> more\n\n> # heading in quote\n",
    "frontmatter": "---\ntitle: T\n---\n# Doc\n\nbody\n",
    "rules": "a\n\n---\n\n***\n\nb\n",
    "non-ascii": "# Überschrift\n\nÄrger – «ёлка» 字\n\n## Раздел\n\n- пункт\n",
    "admonition falls back": '!!! note "Title"\n    body\n\n::: tip\nx\n:::\n',
    "slash block falls back": "Text.\n\n/// tip | Title\n\nbody\n\n///\n\n/// prose, no block\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_blocks(name: str) -> None:
    assert shapes(CASES[name], FAST) == shapes(CASES[name], REFERENCE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_chunks(name: str) -> None:
    ref = chunk_markdown(CASES[name], REFERENCE, "d", "d.md")
    fast = chunk_markdown(CASES[name], FAST, "d", "d.md")
    assert [c.to_dict() for c in fast.chunks] == [c.to_dict() for c in ref.chunks]
    assert fast.diagnostics.to_dict() == ref.diagnostics.to_dict()


def test_deep_nesting_reports_the_limit_as_markdown_it_does() -> None:
    text = "> " * 80 + "deep\n"
    fast = chunk_markdown(text, FAST, "d", "d.md")
    ref = chunk_markdown(text, REFERENCE, "d", "d.md")
    assert [d.code for d in fast.diagnostics.diagnostics] == [d.code for d in ref.diagnostics.diagnostics]
    assert "nesting-limit" in [d.code for d in fast.diagnostics.diagnostics]


def test_missing_pyromark_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import chunker.parse.pulldown as pulldown

    monkeypatch.setattr(pulldown, "available", lambda: False)
    with pytest.raises(ConfigError, match=r"parser.*pyromark"):
        ChunkerConfig.from_mapping({"parser": "pulldown-cmark"})


def test_unknown_parser_is_refused() -> None:
    with pytest.raises(ConfigError, match="parser"):
        ChunkerConfig.from_mapping({"parser": "commonmark-rs"})


FRAGMENTS = st.sampled_from(
    [
        "# H1",
        "## H2 ##",
        "### H3",
        "Setext\n---",
        "Title\n===",
        "para text",
        "lazy\ncontinuation",
        "- item",
        "  - nested",
        "1. one",
        "10) ten",
        "* star",
        "> quote",
        "> > deeper",
        "```",
        "```py",
        "~~~",
        "    indented",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "<div>",
        "</div>",
        "<!-- c -->",
        "$$",
        "x^2",
        "---",
        "[ref]: /url",
        "",
        "\t tab",
        "Ü ё 字",
    ]
)


DIVERGENCES = re.compile(
    r"^\|.*\|\n(?:[^\n]+\n)*?(?: {4}|[ ]{0,3}\t)"  # a table row, then (on) an indented line
    r"|^\[[^\]]+\]:.*\n[ \t]*\S",  # a link reference definition, then a line of text
    re.MULTILINE,
)
"""The two documented divergences (README, "Parsers"), tested one by one below."""


@settings(max_examples=300, deadline=None)
@given(
    st.lists(FRAGMENTS, min_size=1, max_size=14), st.lists(st.sampled_from(["\n", "\n\n"]), min_size=14, max_size=14)
)
def test_random_documents_same_blocks(parts: list[str], joins: list[str]) -> None:
    text = "".join(p + j for p, j in zip(parts, joins, strict=False))
    if DIVERGENCES.search(text) is None:
        assert shapes(text, FAST) == shapes(text, REFERENCE)


def test_divergence_indented_line_after_a_table() -> None:
    # markdown-it-py ends the table and starts indented code; pulldown-cmark reads another row
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n    indented\n"
    assert DIVERGENCES.search(text)
    assert [s[:3] for s in shapes(text, REFERENCE)] == [("table", 1, 3), ("code", 4, 4)]
    assert [s[:3] for s in shapes(text, FAST)] == [("table", 1, 4)]


@pytest.mark.parametrize(("line", "markdown_it_kind"), [("    indented", "code"), ("10) ten", "list")])
def test_divergence_line_after_a_reference_definition(line: str, markdown_it_kind: str) -> None:
    # CommonMark: the definition began a paragraph, which the next line continues (pulldown-cmark);
    # markdown-it-py ends the definition and starts a block
    text = f"[ref]: /url\n{line}\n"
    assert DIVERGENCES.search(text)
    assert [s[0] for s in shapes(text, REFERENCE)] == ["raw", markdown_it_kind]
    assert [s[0] for s in shapes(text, FAST)] == ["raw", "paragraph"]
    # the text is chunked either way: the chunks cover the same lines
    for cfg in (REFERENCE, FAST):
        chunks = chunk_markdown(text, cfg, "d", "d.md").chunks
        assert "".join(c.content_original for c in chunks).split() == text.split()


def test_commonmark_spec_same_blocks() -> None:
    examples = json.loads(SPEC_JSON.read_text(encoding="utf-8"))
    assert len(examples) == 655
    differing = [e["example"] for e in examples if shapes(e["markdown"], FAST) != shapes(e["markdown"], REFERENCE)]
    assert differing == []


_MARKER_TEXT = st.lists(
    st.sampled_from(
        [
            *("!!!", "???", ":::", "///", "!!", "::", "//", " ", "\t", ">", "\n", "a", "\r", "\u2028"),
            # the other runs' pieces: table delimiter rows (also after indentation), attribute lines,
            # footnotes, content tabs, MyST lines, template tags
            *("|", "-", "- -", ":", "~", "{", "}", "{.", "=", "===", '"', "[^", "]", "%", "+", "(", ")=", "{%", "{{<"),
        ]
    ),
    max_size=16,
).map("".join)


@given(_MARKER_TEXT)
@settings(max_examples=400, deadline=None)
def test_plugin_syntax_search_agrees_with_the_line_pattern(text: str) -> None:
    from chunker.parse.pulldown import _PLUGIN_SYNTAX, _plugin_syntax

    assert _plugin_syntax(text) == (_PLUGIN_SYNTAX.search(text) is not None)


@given(_MARKER_TEXT)
@settings(max_examples=400, deadline=None)
def test_plugin_lines_are_the_lines_of_the_line_pattern(text: str) -> None:
    from chunker.parse.pulldown import _PLUGIN_SYNTAX, _plugin_lines

    expected = sorted({text.count("\n", 0, m.start()) for m in _PLUGIN_SYNTAX.finditer(text)})
    assert _plugin_lines(text) == expected


PLUGIN_FRAGMENTS = st.sampled_from(
    [
        "Term\n:   definition",
        ":   another definition",
        "~ tilde definition",
        "    indented continuation",
        "[^1]: a footnote",
        "[^note]: another",
        "::: tip",
        ":::",
        "!!! note",
        "??? faq",
        "/// tip | Title",
        "///",
        "{.cls}",
        "{#id}",
        "## ATX under a plugin line",
    ]
)


@pytest.mark.parametrize(
    "text",
    [
        "Term\n:   definition\n# H1\n:   another definition\n",
        "# H1\n# H1\n# H1\nTerm\n:   definition\n# H1\n\n:   another definition\n",
        "# A\n\nTerm\n:   definition\n\n# B\n\n\n:   another definition\n\n# C\n\ntext\n",
    ],
)
def test_a_heading_line_that_is_a_definition_term_is_no_cut_of_the_mixed_parse(text: str) -> None:
    # markdown-it-py's deflist takes any line as a term, an ATX heading line too, when a ':' line follows
    # (blank lines between allowed): the pulldown-cmark path may not cut its markdown-it-py stretch there
    assert shapes(text, FAST) == shapes(text, REFERENCE)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(FRAGMENTS, PLUGIN_FRAGMENTS), min_size=1, max_size=16),
    st.lists(st.sampled_from(["\n", "\n\n"]), min_size=16, max_size=16),
)
def test_random_documents_with_plugin_syntax_same_blocks(parts: list[str], joins: list[str]) -> None:
    # plugin lines are parsed by markdown-it-py from the ATX heading before them to one after them,
    # the rest by pulldown-cmark: the blocks are those of markdown-it-py's whole parse
    text = "".join(p + j for p, j in zip(parts, joins, strict=False))
    if DIVERGENCES.search(text) is None:
        assert shapes(text, FAST) == shapes(text, REFERENCE)


def _markdown_it_inputs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts markdown-it-py parses on the pulldown-cmark path (stretches and whole bodies)."""
    import chunker.parse.mixed
    import chunker.parse.pieces

    seen: list[str] = []
    for module in (chunker.parse.mixed, chunker.parse.pieces):
        original = module.tokenize

        def spy(text: str, cfg: ChunkerConfig, *env: Any, original: Any = original) -> Any:
            seen.append(text)
            return original(text, cfg, *env)

        monkeypatch.setattr(module, "tokenize", spy)
    return seen


def test_only_the_sections_with_plugin_syntax_are_parsed_by_markdown_it(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "".join(f"## Section {i}\n\nText of section {i}.\n\n- a\n- b\n\n" for i in range(40))
    text = (
        "# Law\n\nIssued\n:   1871-05-15\n\nFound in\n:   RGBl 127\n\n"
        + body
        + "[^1]: note\n    more\n\n## Last\n\nx\n"
    )
    seen = _markdown_it_inputs(monkeypatch)
    fast = shapes(text, FAST)
    assert [t.split("\n", 1)[0] for t in seen] == ["# Law", "## Section 39"]
    assert sum(len(t) for t in seen) < len(text) / 5
    assert fast == shapes(text, REFERENCE)


def test_a_heading_markdown_it_does_not_confirm_is_no_cut() -> None:
    # a stretch ends only at a line that markdown-it-py's parse of it also makes a top-level ATX
    # heading: given pulldown-cmark tokens that claim one on a paragraph line (line 5), the stretch
    # runs on to the next heading and the blocks stay those of the whole markdown-it-py parse
    from chunker.parse.document import read_document
    from chunker.parse.mixed import mixed_pieces
    from chunker.parse.pulldown import PulldownTokens
    from chunker.parse.pulldown_build import Token as _Token
    from chunker.segmenter import segment

    text = "# A\n\nTerm\n:   def\n\nnot a heading\n\n# B\n\nx\n"
    doc = read_document(text, FAST)
    fast = [
        t
        for piece in PulldownTokens(read_document("# A\n\nTerm\n\n\nnot a heading\n\n# B\n\nx\n", FAST), FAST)
        for t in piece
    ]
    at = next(i for i, t in enumerate(fast) if t.map == [5, 6])
    fast[at] = _Token("heading_open", "h2", 0, [5, 6], 0, "##")  # this path's heading: one token
    pieces = mixed_pieces(doc, FAST, fast, [3])
    assert pieces is not None
    got = [shape(b) for b in segment(doc, pieces, FAST)]
    assert got == shapes(text, REFERENCE)
    assert [g[0] for g in got] == ["heading", "container", "paragraph", "heading", "paragraph"]


def test_a_top_level_heading_is_one_token_holding_its_text() -> None:
    # the segmenter reads a heading's opening and its text only: this path makes one token (nesting
    # 0, the text in ``content``) where markdown-it-py makes three; a heading in a quote makes none
    from chunker.parse.document import read_document
    from chunker.parse.pulldown import PulldownTokens

    text = "# A *b* ##\n\nSetext `x`\n---\n\n> # Quoted\n\n#\n\npara\n"
    tokens = [t for piece in PulldownTokens(read_document(text, FAST), FAST) for t in piece]
    headings = [(t.type, t.tag, t.nesting, t.map, t.level, t.markup, t.content) for t in tokens if "heading" in t.type]
    assert headings == [
        ("heading_open", "h1", 0, [0, 1], 0, "#", "A *b*"),
        ("heading_open", "h2", 0, [2, 4], 0, "-", "Setext `x`"),
        ("heading_open", "h1", 0, [7, 8], 0, "#", ""),
    ]
    assert not [t for t in tokens if t.type == "inline"]
    assert shapes(text, FAST) == shapes(text, REFERENCE)
    titles = [b.header_path[-1].text for b in _blocks(text, FAST)[0] if b.kind == "heading"]
    assert titles == [b.header_path[-1].text for b in _blocks(text, REFERENCE)[0] if b.kind == "heading"]


def test_one_token_paragraphs_and_headings_skip_the_extent_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # this path's top-level paragraphs and headings are one token each: the segmenter takes them
    # as they are, without asking what they cover (a call per block); a list still is asked
    from chunker.segmenter import _Blocks

    asked: list[int] = []
    real = _Blocks.extent

    def extent(self: _Blocks, tokens: Any, i: int) -> Any:
        asked.append(tokens[i].map[0])
        return real(self, tokens, i)

    text = "# A\n\npara one\n\nSetext\n---\n\npara two\nline\n\n- item\n"
    reference = shapes(text, REFERENCE)
    monkeypatch.setattr(_Blocks, "extent", extent)
    assert shapes(text, FAST) == reference
    assert asked == [10]  # the list's line only


def test_dollar_math_still_parses_the_whole_body_with_markdown_it(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "# A\n\nTerm\n:   def\n\n# B\n\n$$\nx\n$$\n"
    reference = shapes(text, REFERENCE)
    seen = _markdown_it_inputs(monkeypatch)
    assert shapes(text, FAST) == reference
    assert seen == [text]


def test_a_surrogate_in_a_library_caller_s_text_is_parsed_by_markdown_it() -> None:
    # pyromark takes UTF-8 only; a str from a library caller may hold a lone surrogate
    text = "# T\n\n" + "".join(f"- item {i} \ud800 words words words\n  - nested {i}\n" for i in range(30))
    options = {"max_chars": 200, "target_chars": 120, "min_chars": 20}
    reference = chunk_markdown(text, ChunkerConfig(**options), "d", "d.md")
    fast = chunk_markdown(text, ChunkerConfig(parser="pulldown-cmark", **options), "d", "d.md")
    assert [c.content_original for c in fast.chunks] == [c.content_original for c in reference.chunks]
    assert len(reference.chunks) > 1


def _no_pyromark_parse(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the bodies handed to pyromark's parse (which runs whole before its first event)."""
    import chunker.parse.pulldown as pulldown

    calls: list[int] = []
    real = pulldown.events

    def counted(body: str) -> Any:
        calls.append(len(body))
        return real(body)

    monkeypatch.setattr(pulldown, "events", counted)
    return calls


@pytest.mark.parametrize(
    "text",
    [
        "# Ladder\n\n" + "".join("*" * (i % 50 + 1) + "a " for i in range(2_000)) + "\n\nEnd.\n",
        "# Brackets\n\n" + "[" * 20_000 + "\n",
        "| id | name |\n|---|---|\n" + "".join(f"| {i} | x |\n" for i in range(10_000)),
        "- " * 30_000 + "deep\n",
        "1. " * 30_000 + "deep\n",
        "".join(f"{i % 10}\n" for i in range(20_000)),
    ],
    ids=["emphasis", "brackets", "table", "list-line", "ordered-line", "short-lines"],
)
def test_a_body_of_many_parse_items_per_byte_goes_to_markdown_it(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # pyromark's memory grows with pulldown-cmark's items, 48-115 bytes for each marker or line end:
    # 13-58 x the text for such bodies (parse.pulldown_cost.too_many_events); markdown-it-py parses them
    reference = shapes(text, REFERENCE)
    calls = _no_pyromark_parse(monkeypatch)
    assert shapes(text, FAST) == reference
    assert calls == []


def test_prose_lists_and_small_dense_bodies_keep_the_pulldown_cmark_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    sentence = "Der Antrag ist nach § 3 Abs. 2 Nr. 1 schriftlich zu stellen, die Frist beträgt zwei Wochen. "
    section = "## § {k}\n\n({k}) {text}\n\n- a point, see [§ {k}](#s{k})\n- another\n\n"
    law = "".join(section.format(k=k, text=sentence * 6) for k in range(300))
    small = "[" * 9_000 + "\n"  # under PARSE_BASE whatever it holds
    calls = _no_pyromark_parse(monkeypatch)
    for text in (law, small):
        assert shapes(text, FAST) == shapes(text, REFERENCE)
    assert len(calls) == 2


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("ab ä*_[]`<|&!\\$>-+#~.)\n\r"), max_size=300).map(lambda s: s * 200),
    st.integers(0, 50),
)
def test_the_item_estimate_counts_markers_past_the_frontmatter_lines(body: str, blank: int) -> None:
    from chunker.parse.pulldown_cost import EVENT_BYTES, PARSE_BASE, PARSE_BYTES, too_many_events

    text = "\n" * blank + body
    markers = sum(body.count(c) for c in "*_[]`<|&!\\$>-+#~.)\n\r")
    expected = markers * EVENT_BYTES > PARSE_BYTES * len(body.encode()) + PARSE_BASE
    assert too_many_events(text.encode("utf-8"), blank) == expected


@pytest.mark.parametrize("pad", [0, 1])
def test_a_long_fence_with_a_character_cut_at_its_fourth_kilobyte(pad: int) -> None:
    # the fence's marker run was read from the first 4,096 bytes of the block, decoded: a
    # character whose UTF-8 bytes that cut split raised UnicodeDecodeError (pad 1)
    text = "```py\n" + "x" * pad + "é" * 3000 + "\n```\n\nafter\n"
    assert shapes(text, FAST) == shapes(text, REFERENCE)
