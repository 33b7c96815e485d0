"""The block parser's speed-ups give markdown-it-py's own tokens (bench/token_identity.py checks the
whole corpus; these tests keep the check in CI)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock

from chunker.config import ChunkerConfig
from chunker.parse import BlockTokens, block_state, markdown_parser, read_document, speedups
from chunker.parse.block_state import line_markers
from chunker.parse.markdown import build_parser, without_cells
from chunker.parse.plugins import use_block_plugins
from chunker.text import compute_line_starts
from tests.test_spec_sweep import EXAMPLES

PIECES = ["[", "]", ":", "\\", "\n", " ", "\t", "a", "b", "#", "-", "*", ">", "`", "|", "1.", "$$", "<div>", "'",
          '"', "(", ")", "=", "\n\n", "  ", "---\n", "x: 1\n", "    ", "```\n", "\n---", "| a |\n|---|\n",
          "\r", "\r\n", "\0"]  # fmt: skip
LINES = ["text", "b", "  text", "- item", "  - sub", "+ x", "-", "\t-", "1. one", "2) two", "## H", "===", "   =",
         "---", "  ---", "***", "    code", "     x", "> quote", ">", "> - q", "| a | b |", "|---|---|", "```", "~~~",
         "$$", "<div>", "[a]: /u"]  # fmt: skip
"""Lines of documents without blank lines, where paragraphs end only where a block interrupts them."""


def stock() -> MarkdownIt:
    md = use_block_plugins(MarkdownIt("commonmark", {"maxNesting": 64}).enable("table"))
    md.core.ruler.disable(["inline", "text_join"])
    return md


@given(st.text(alphabet="ab \t\n", max_size=60))
def test_line_markers_are_those_of_markdown_its_state(text: str) -> None:
    state = StateBlock(text, stock(), {}, [])
    assert line_markers(text) == (state.bMarks, state.eMarks, state.tShift, state.sCount)


def test_the_fast_state_is_installed() -> None:
    from markdown_it.parser_block import ParserBlock

    assert markdown_parser(64).block.parse.__func__ is not ParserBlock.parse  # type: ignore[attr-defined]


def test_tokens_equal_stock_markdown_it_on_random_documents() -> None:
    ours, theirs = markdown_parser(64), stock()
    rnd = random.Random(7)
    for _ in range(3000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 40)))
        assert ours.parse(text) == without_cells(theirs.parse(text)), repr(text)


def test_tokens_equal_stock_markdown_it_on_the_spec_examples() -> None:
    assert len(EXAMPLES) >= 650
    ours, theirs = markdown_parser(64), stock()
    differ = [number for number, _, text in EXAMPLES if ours.parse(text) != without_cells(theirs.parse(text))]
    assert differ == []


@given(st.text(alphabet="ab\n", max_size=30))
def test_line_starts_are_the_offsets_after_each_newline(text: str) -> None:
    expected = [0] + [i + 1 for i, char in enumerate(text) if char == "\n" and i + 1 < len(text)]
    assert compute_line_starts(text) == expected


def test_line_starts_split_on_lf_only_not_on_unicode_separators() -> None:
    text = "a\u2028b\nc\u2029d\x85e\x0cf\x0bg\nh"
    assert compute_line_starts(text) == [0, 4, text.index("h")]


def test_tokens_equal_stock_markdown_it_on_documents_without_blank_lines() -> None:
    ours, theirs = markdown_parser(64), stock()
    rnd = random.Random(11)
    for _ in range(1500):
        text = "\n".join(rnd.choice(LINES) for _ in range(rnd.randint(1, 40))) + rnd.choice(["", "\n"])
        assert ours.parse(text) == without_cells(theirs.parse(text)), repr(text)


def line_cache_reads(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How often the block parse reads the state's line caches (``bMarks``, ``eMarks``, ``tShift``,
    ``sCount``): a measure of its work that does not depend on the machine."""
    reads = 0

    class CountingList(list[int]):
        def __getitem__(self, index: Any) -> Any:
            nonlocal reads
            reads += 1
            return super().__getitem__(index)

    markers = block_state.line_markers
    with monkeypatch.context() as patch:
        patch.setattr(block_state, "line_markers", lambda src: tuple(map(CountingList, markers(src))))
        markdown_parser(64).parse(text)
    assert reads, "the fast state, which computes the caches with line_markers, is not installed"
    return reads


@pytest.mark.parametrize(
    "unit",
    ["- item\n", "## H\ntext\n", "text\n- item\n", "- a\n  - b\n", "text\n```\nx\n```\n", "> a\nb\n"],
    ids=["list", "sections", "paragraph-then-list", "nested-list", "paragraph-then-fence", "lazy-quote"],
)
def test_the_block_parse_of_a_document_without_blank_lines_grows_linearly(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Twice the lines, twice the work; a scan from every paragraph to the end of the document
    # (the lheading speed-up before it was bounded) made it 3.8 times.
    small = line_cache_reads(unit * 500, monkeypatch)
    large = line_cache_reads(unit * 1000, monkeypatch)
    assert large / small < 2.3, (small, large)


def test_every_speed_up_is_installed_on_the_supported_versions() -> None:
    assert speedups.install(stock()) == speedups.SPEED_UPS
    assert speedups.active(markdown_parser(64)) == speedups.SPEED_UPS


def test_the_speed_ups_survive_enable_disable_and_a_plugin_with_a_paragraph_terminator() -> None:
    from mdit_py_plugins.container import container_plugin

    ours, theirs = build_parser(64), stock()
    for md in (ours, theirs):
        md.disable("hr")
        md.enable("hr")
        md.use(container_plugin, "note", marker="%")  # ':::' blocks are parsed already (chunker.parse.plugins)
    assert speedups.active(ours) == speedups.SPEED_UPS
    rnd = random.Random(5)
    pieces = [*PIECES, "%%% note\n", "%%%\n", "%%%%\n", "::: tip\n", ":::\n", "!!! note\n", "    x\n"]
    for _ in range(1500):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 40)))
        assert ours.parse(text) == without_cells(theirs.parse(text)), repr(text)
    text = "text\n%%% note\ninside\n%%%\n"
    assert any(t.type == "container_note_open" for t in ours.parse(text))


def test_a_speed_up_that_cannot_be_installed_is_named_in_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(block_state, "TOKEN_FIELDS", ("type",))
    with pytest.warns(RuntimeWarning, match="speed-ups not installed: fast_block_state"):
        md = build_parser(64)
    assert "fast_block_state" not in speedups.active(md)
    assert md.parse("# a\n\n- b\n") == stock().parse("# a\n\n- b\n")


def test_pieces_give_the_whole_parse_also_when_a_later_piece_reaches_the_nesting_limit() -> None:
    # Formerly the piecewise parse gave up here (WholeParseNeededError) and the pipeline parsed again.
    cfg = ChunkerConfig(max_nesting=8)
    sections = "".join(f"# H{i}\n\ntext {i}\n\n" for i in range(30))
    text = sections + "# Deep\n\n" + "> " * 12 + "quote\n\n- list\n\n" + sections
    doc = read_document(text, cfg)
    pieces = BlockTokens(doc, cfg, piece_chars=40)
    got = list(pieces)
    whole = BlockTokens(doc, cfg, piece_chars=None)
    expected = list(whole)
    assert len(got) > 10 and len(expected) == 1
    assert [t for piece in got for t in piece] == expected[0]
    assert pieces.diagnostics == whole.diagnostics
    assert [d.code for d in whole.diagnostics] == ["nesting-limit"]
    assert whole.diagnostics[0].line == text[: text.index("> ")].count("\n") + 1


def test_a_table_keeps_its_row_tokens_with_the_stock_maps_but_no_cell_tokens() -> None:
    text = "# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nafter\n"
    ours, theirs = markdown_parser(64).parse(text), stock().parse(text)
    assert [t.type for t in ours if t.type.startswith(("t", "th", "td"))] == [
        "table_open", "thead_open", "tr_open", "tr_close", "thead_close",
        "tbody_open", "tr_open", "tr_close", "tr_open", "tr_close", "tbody_close", "table_close",
    ]  # fmt: skip
    assert [t.map for t in ours if t.type == "tr_open"] == [t.map for t in theirs if t.type == "tr_open"]
    assert len(theirs) - len(ours) == 6 * 3  # th/td open, inline, close for each of the 6 cells
    assert ours[-3:] == theirs[-3:]  # the paragraph after the table


def test_the_spaces_that_myst_targets_strip_are_every_whitespace_character() -> None:
    import sys

    assert "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()) == speedups._SPACES


MYST_LINES = [
    "(a)=",
    "(a)=  ",
    "(a)=\t",
    "(a) =",
    "()=",
    "(1) Text",
    "\xa0(a)=",
    "\x0c(a)=",
    "\u3000(a)=",
    "- (a)=",
    "1. (a)=",
    "> (a)=",
    "    (a)=",
    "% comment",
    "%",
    "+++",
    "+ + +",
    "++",
    "text",
    "- item",
]


@pytest.mark.parametrize("line", MYST_LINES)
@pytest.mark.parametrize("context", ["{}\n", "text\n{}\n", "- item\n{}\n", "- item\n\n  {}\n", "> q\n{}\nafter\n"])
def test_myst_lines_give_stock_tokens_as_blocks_and_as_paragraph_terminators(line: str, context: str) -> None:
    # The first-character tables hold MyST's rules ('(' or any whitespace for targets, '%', '+'):
    # a table without, e.g., the no-break space would lose the target of "\xa0(a)=".
    text = context.format(line)
    assert markdown_parser(64).parse(text) == without_cells(stock().parse(text)), repr(text)


def test_a_target_after_a_no_break_space_or_with_trailing_blanks_is_a_target() -> None:
    for text in ("\xa0(a)=\n", "(a)=  \n", "text\n(a)=\t\n"):
        assert [t.type for t in markdown_parser(64).parse(text)][-1] == "myst_target", repr(text)


def test_a_line_no_first_character_rule_can_start_asks_none_of_them() -> None:
    # Lines such as the laws' "(1) ..." and plain text: formerly every rule of the chain was asked
    # (and the code rule about every line).
    md = build_parser(64)
    asked: list[str] = []
    for rule in md.block.ruler.__rules__:
        if rule.name in ("hr", "admonition", "myst_line_comment", "list", "fence", "code"):
            md.block.ruler.at(rule.name, counting(rule.fn, rule.name, asked), {"alt": list(rule.alt)})
    assert speedups.active(md) == speedups.SPEED_UPS
    md.parse("(1) text\nmore text\n\nplain\n\n(2) x\n\n   three spaces\n" * 20)
    assert asked == []  # nor the code rule: no line is indented by 4 columns past its block
    md.parse("- a\n\n% c\n***\n\n    code\n")
    assert {"hr", "list", "myst_line_comment", "code"} <= set(asked)  # the counting rules are in place


def counting(fn: Any, name: str, asked: list[str]) -> Any:
    def rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        asked.append(name)
        return bool(fn(state, start, end, silent))

    return rule


GET_LINES_PIECES = ["\n", "\n\n", " ", "  ", "    ", "\t", " \t", "\t ", "- ", "1. ", "2)  ", "*\t", "> ", ">\t", "a",
                    "text", "```\n", "    code", ": ", "!!! note\n", "[^1]: ", "\xa0"]  # fmt: skip


def test_get_lines_cuts_what_markdown_its_own_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every call the block parse makes (lists and quotes shift a line's start, tabs expand), and
    # random ranges and indentations.
    calls = 0
    fast = block_state._get_lines

    def both(state: StateBlock, begin: int, end: int, indent: int, keep: bool) -> str:
        nonlocal calls
        calls += 1
        got = fast(state, begin, end, indent, keep)
        assert got == StateBlock.getLines(state, begin, end, indent, keep), (state.src, begin, end, indent, keep)
        return got

    monkeypatch.setattr(block_state, "_get_lines", both)
    md = build_parser(64)
    rnd = random.Random(3)
    for _ in range(1500):
        md.parse("".join(rnd.choice(GET_LINES_PIECES) for _ in range(rnd.randint(0, 50))))
    state_class = block_state.fast_state_class(md)
    assert state_class is not None
    for _ in range(300):
        state = state_class("".join(rnd.choice(GET_LINES_PIECES) for _ in range(rnd.randint(1, 50))), md, {}, [])
        for _ in range(10):
            begin = rnd.randint(0, state.lineMax)
            both(state, begin, rnd.randint(begin, state.lineMax), rnd.randint(0, 9), rnd.random() < 0.5)
    assert calls > 5000


PIECE_FRAGMENTS = ["# H", "## H", "text", "a $ b", "$$", "$$\nx", "<b>", "<details>", "</details>", "a { b",
                   "{% raw %}", "{% highlight py %}", "{% endhighlight %}", "{{< highlight go >}}",
                   "{{< /highlight >}}", "a : b", "::note", "::note\n# H", "::", "- item", "```", "x"]  # fmt: skip


def test_pieces_give_the_whole_parse_where_a_marker_s_first_character_is_there_without_the_marker() -> None:
    # _split_index looks for '$$', '<details', '{%', '{{' and '::' only where their first character is in
    # the piece: pieces with '$', '<', '{' or ':' alone, and with the markers, cut where the whole parse does.
    rnd = random.Random(21)
    cfg = ChunkerConfig()
    cut = 0
    for _ in range(400):
        text = "".join(rnd.choice(PIECE_FRAGMENTS) + rnd.choice(["\n", "\n\n"]) for _ in range(rnd.randint(5, 40)))
        doc = read_document(text, cfg)
        whole = next(iter(BlockTokens(doc, cfg, piece_chars=None)))
        pieces = list(BlockTokens(doc, cfg, piece_chars=rnd.randint(10, 40)))
        assert [t for piece in pieces for t in piece] == whole, text
        cut += len(pieces) > 1
    assert cut > 30


def test_the_options_answer_get_as_markdown_its_do() -> None:
    ours, theirs = markdown_parser(64).options, stock().options
    assert type(ours) is not type(theirs)
    for key in ("maxNesting", "html", "tasklists", "missing"):
        assert ours.get(key) == theirs.get(key) and ours.get(key, 5) == theirs.get(key, 5)
    assert ours.maxNesting == 64 and dict(ours) == dict(theirs)


QUOTE_LAZY_LINES = [
    "text",
    "# h",
    "```",
    "~~~",
    "***",
    "- item",
    "1. item",
    "<div>",
    "| a |\n|---|",
    "!!! note",
    ":::note",
    "$$",
    "% c",
    "+++",
    "(a)=",
    ": def",
    "    code",
    "\ttab",
    "> more",
    "[ref]: /u",
    "{#id}",
    "::card",
]


@pytest.mark.parametrize("line", QUOTE_LAZY_LINES)
@pytest.mark.parametrize("first", ["> # H", "> text", "> - item", "> ```", "- > q"])
def test_a_quote_ends_or_goes_on_at_a_line_without_its_marker_as_stock_markdown_it_says(first: str, line: str) -> None:
    # the quote rule asks its terminators through the first-character tables too
    text = f"{first}\n{line}\nafter\n"
    assert markdown_parser(64).parse(text) == without_cells(stock().parse(text)), repr(text)


def test_a_lazy_line_of_a_quote_asks_no_rule_that_cannot_start_it() -> None:
    # '> # H' / 'text' repeated: the quote rule asks its terminators about every lazy line up to
    # the next blank one, for every quote (quadratic in markdown-it-py: 1,000 of them took 2.2 s)
    md = build_parser(64)
    asked: list[str] = []
    for rule in md.block.ruler.__rules__:
        if rule.name in ("hr", "admonition", "myst_line_comment", "list", "fence"):
            md.block.ruler.at(rule.name, counting(rule.fn, rule.name, asked), {"alt": list(rule.alt)})
    assert "blockquote_terminators" in speedups.active(md)
    md.parse("> # H\ntext\n" * 50)
    assert asked == []
    md.parse("> # H\n- item\n")
    assert "list" in asked  # the counting rules are in place
