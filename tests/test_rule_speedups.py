"""Speed-ups of single block rules (chunker.parse.rule_speedups): stock tokens, stock definitions, less work."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.rules_block.table import escapedSplit

from chunker.parse import rule_speedups
from chunker.parse.markdown import build_parser, without_cells
from tests.test_parser import stock


@given(st.text(alphabet="|\\a ", max_size=30))
def test_cells_are_split_as_markdown_it_splits_them(row: str) -> None:
    assert rule_speedups.split_cells(row) == escapedSplit(row)


def test_a_table_row_without_a_backslash_is_split_without_markdown_its_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counting(row: str) -> list[str]:
        calls.append(row)
        return escapedSplit(row)

    md = build_parser(64)
    monkeypatch.setattr(rule_speedups, "escapedSplit", counting)
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 \\| x | 4 |\n"
    assert md.parse(text) == without_cells(stock().parse(text))
    assert calls == ["| 3 \\| x | 4 |"]


def counted_links(md: Any) -> list[str]:
    calls: list[str] = []
    normalize = md.normalizeLink

    def counting(url: str) -> str:
        calls.append(url)
        return str(normalize(url))

    md.normalizeLink = counting
    return calls


@pytest.mark.parametrize(
    "line", ["[`lint`]: text after", "[a]: /u more", "[a]:\tx\ty", "[a]: x ]", "- [`lint`]: No longer lints"]
)
def test_a_destination_followed_by_text_is_no_definition_and_is_not_normalised(line: str) -> None:
    md = build_parser(64)
    calls = counted_links(md)
    env: dict[str, Any] = {}
    assert md.parse(line + "\n", env) == without_cells(stock().parse(line + "\n"))
    assert env == {} and calls == []


@pytest.mark.parametrize(
    "line",
    ["[a]: /u 'title'", '[a]: /u "t"', "[a]: /u (t)", "[a]: /u", "[a]: /u  ", "[a]: <x y> z", "[a]: (x) y",
     "[a]: x\\ y z", "[a]: x( y", "[a]:\n/u z", "[a\n]: /u z", "[a]: /u\n'title'"],
)  # fmt: skip
def test_definitions_the_early_answer_leaves_to_markdown_it_are_stock(line: str) -> None:
    for text in (line + "\n", line + "\nafter\n", "> " + line + "\n", "- " + line + "\n"):
        env: dict[str, Any] = {}
        stock_env: dict[str, Any] = {}
        assert build_parser(64).parse(text, env) == without_cells(stock().parse(text, stock_env)), repr(text)
        assert env == stock_env, repr(text)


PIECES = ["[a]:", "[a]: ", "[b]:", "x", "y z", " ", "\t", "'", '"', "(", ")", "<", ">", "\\", "\n", "https://a.b/c",
          "/u", "\x0b", "\x7f", "ä", "[", "]", ":", "- ", "> ", "  ", "#"]  # fmt: skip


def test_definitions_and_their_environment_equal_stock_markdown_it_on_random_documents() -> None:
    ours, theirs = build_parser(64), stock()
    rnd = random.Random(3)
    for _ in range(3000):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 20)))
        env: dict[str, Any] = {}
        stock_env: dict[str, Any] = {}
        assert ours.parse(text, env) == without_cells(theirs.parse(text, stock_env)), repr(text)
        assert env == stock_env, repr(text)


URL_STARTS = ["https://", "http://", "//", "", "mailto:", "HTTP://", "https://a.b", "ftp://", "javascript:",
              "https://" + "a" * 64, "https://" + "a." * 130]  # fmt: skip
URL_CHARS = "abzAZ09-._~/?#=&+,;:!*'()$@%[]{}|\\^`\"<> \tä"


@given(st.sampled_from(URL_STARTS), st.text(alphabet=URL_CHARS, max_size=12))
def test_links_are_normalised_as_markdown_it_normalises_them(start: str, rest: str) -> None:
    assert rule_speedups._normalize_link(start + rest) == normalizeLink(start + rest)


def test_a_plain_destination_is_not_parsed_by_mdurl(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    md = build_parser(64)  # its check on samples calls markdown-it's
    stock_link = normalizeLink
    monkeypatch.setattr(rule_speedups.normalize_url, "normalizeLink", lambda url: calls.append(url) or stock_link(url))
    env: dict[str, Any] = {}
    md.parse("[a]: https://github.com/o/r/pull/1#x\n[b]: ../c.md\n[c]: <ä>\n", env)
    assert calls == ["ä"]
    assert [d["href"] for d in env["references"].values()] == ["https://github.com/o/r/pull/1#x", "../c.md", "%C3%A4"]


@pytest.mark.parametrize(
    "text", ["- a\n- b\n1. c\n2. d\n+ e\n", "[a]:\n/u\n'title'\n[b]: /v\n"], ids=["list", "reference"]
)
def test_list_and_reference_terminators_ask_only_rules_that_can_accept_the_line(text: str) -> None:
    # Formerly the list rule asked every rule of its terminator chain about the line of each next
    # item, and the reference rule about each line a definition goes on to.
    from tests.test_parser import counting

    md = build_parser(64)
    asked: list[str] = []
    for rule in md.block.ruler.__rules__:
        if rule.name in ("fence", "blockquote", "admonition", "myst_line_comment", "html_block", "heading"):
            md.block.ruler.at(rule.name, counting(rule.fn, rule.name, asked), {"alt": list(rule.alt)})
    assert md.parse(text * 10) == without_cells(stock().parse(text * 10))
    assert asked == []
    md.parse("- a\n> q\n")
    assert set(asked) == {"blockquote"}  # the counting rules are in place


QUOTE_LINES = ["> # H", "> ```", "> ~~~", "> :::note", "> :::", "> ::card", "text", "> text", ">", "", "> $$", "$$",
               "> - a", "- b", "  > # x", "===", "---", "```", ":::", "# H", "> #x", "> ## H ##", "    code",
               "> [a]: /u",
               "'t'", "| a |", "|---|", ">> # H", "> > # H", "> <div>", "> !!! note", "> {{< tab >}}", "{{< /tab >}}",
               ">\t# H", " > # H", "\t> # t"]  # fmt: skip


def test_quotes_followed_by_lazy_lines_give_stock_tokens() -> None:
    ours, theirs = build_parser(64), stock()
    rnd = random.Random(9)
    for _ in range(4000):
        text = "\n".join(rnd.choice(QUOTE_LINES) for _ in range(rnd.randint(1, 12))) + rnd.choice(["", "\n"])
        got = ours.parse(text)
        try:
            expected = without_cells(theirs.parse(text))
        except IndexError:  # mdit-py-plugins' container rule on a last line '>' (chunker.parse.containers)
            continue
        assert got == expected, repr(text)


@pytest.mark.parametrize("unit", ["> # H\ntext\n", "> ```\ntext\n", "> :::note\ntext\n", "> ## a\n> # b\ntext\n"])
def test_quotes_each_followed_by_a_lazy_line_parse_in_linear_time(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # markdown-it's quote rule scanned every following line up to the next blank one from each quote.
    from tests.test_parser import line_cache_reads

    small = line_cache_reads(unit * 500, monkeypatch)
    large = line_cache_reads(unit * 1000, monkeypatch)
    assert large / small < 2.3, (small, large)


@pytest.mark.parametrize("nesting", [3, 4, 8])
def test_a_quote_cut_at_a_lazy_line_at_the_nesting_limit_gives_stock_tokens(nesting: int) -> None:
    # There the quote's content is not parsed and the quote runs to the end of markdown-it's scan.
    from markdown_it import MarkdownIt

    from chunker.parse.plugins import use_block_plugins

    theirs = use_block_plugins(MarkdownIt("commonmark", {"maxNesting": nesting}).enable("table"))
    theirs.core.ruler.disable(["inline", "text_join"])
    ours = build_parser(nesting)
    for depth in range(1, nesting + 3):
        for tail in ("text\n> # b\nmore\n", "text\n", "text\n> ```\nx\n"):
            text = "> " * depth + "# H\n" + tail
            assert ours.parse(text) == without_cells(theirs.parse(text)), repr(text)
