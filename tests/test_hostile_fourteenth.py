"""The fourteenth hostile-input pass (bench/HOSTILE.md): the syntax landed in the last two stops (Pandoc's fenced
divs, docfx tabs and directive lines, numbering depth, openers and closers, callout titles, component tags in
embeddings) at sizes and shapes that make its scans superlinear. The tests count the work where they can; a
deadline stops what would hang."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.parse import containers, pandoc
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()


def _joined(text: str, cfg: ChunkerConfig, path: str = "d.md") -> str:
    result = chunk_markdown(text, cfg, "d", path)
    return "".join(c.content_original for c in result.chunks)


@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize("syntax", ["auto", "pandoc"])
def test_a_div_opening_line_of_a_word_and_a_long_colon_run_is_read_in_linear_time(syntax: str) -> None:
    # parse/pandoc._OPEN: the class word's colons and the optional closing colons split the run n ways, each
    # tried to the end of the line (n^2: 8,000 colons 2.9 s, 100,000 minutes); a '::: {.note}' line makes a .md
    # page Pandoc's under syntax auto
    text = "# T\n\n::: {.note}\nZQX14FIRST\n:::\n\n::: a" + ":" * 100_000 + " !\n\nZQX14LAST\n"
    joined = _joined(text, ChunkerConfig(syntax=syntax))
    assert "ZQX14FIRST" in joined and "ZQX14LAST" in joined


def test_a_div_opening_line_still_reads_its_class_and_closing_colons() -> None:
    text = "::: warning :::\nText.\n:::\n\n::: note:::\nMore.\n:::\n"
    tokens = markdown_parser(CFG.max_nesting, False, True, True).parse(text)
    opened = [(t.map, t.info.strip()) for t in tokens if t.type == "container_block_open"]
    assert opened == [([0, 2], "warning :::"), ([4, 6], "note:::")]


def _lines_scanned(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many lines the ``:::`` container rule's searches for a closing line may read over ``text``."""
    read = [0]
    original: Callable[..., Any] = containers._unclosed_end

    def counted(state: Any, start_line: int, end_line: int, *args: Any) -> Any:
        read[0] += end_line - start_line
        return original(state, start_line, end_line, *args)

    monkeypatch.setattr(containers, "_unclosed_end", counted)
    markdown_parser(CFG.max_nesting, False).parse(text)
    return read[0]


@pytest.mark.parametrize(
    "unit",
    [
        'text\n::: moniker-end\n::: moniker range="=msvc-170"\n\n',  # docfx's directive lines, each a paragraph's
        '::: moniker-end\n::: zone pivot="x"\n',  # one paragraph of them
        "::: pkg.module.Name\n\n",  # mkdocstrings' directive
    ],
)
def test_directive_lines_nothing_closes_are_read_in_linear_work(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # each ':::' directive line (docfx, mkdocstrings) was searched to the end of the page for a closing line,
    # then read as text: n^2/2 lines (10,000 lines: about a minute)
    text = "# T\n\n" + unit * 2_000 + "ZQX14LAST\n"
    assert _lines_scanned(text, monkeypatch) <= 4 * text.count("\n")


def test_a_directive_line_that_a_bare_colon_line_closes_is_still_a_container() -> None:
    text = '::: zone pivot="a"\nText.\n:::\n\n::: moniker range="x"\nMore.\n'
    tokens = markdown_parser(CFG.max_nesting, False).parse(text)
    assert [(t.type, t.map) for t in tokens if t.type.startswith("container")][:1] == [("container_block_open", [0, 2])]
    assert sum(t.type == "container_block_open" for t in tokens) == 1


def _start_tag_reads(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many characters the HTML parser's start-tag searches read while the packer looks for cuts in ``text``."""
    read = [0]
    original: Callable[..., Any] = HTMLParser.check_for_whole_start_tag

    def counted(self: HTMLParser, i: int) -> Any:
        end = original(self, i)
        read[0] += (end if end >= 0 else len(self.rawdata)) - i
        return end

    monkeypatch.setattr(HTMLParser, "check_for_whole_start_tag", counted)
    chunk_markdown(text, CFG, "d", "d.md")
    return read[0]


@pytest.mark.parametrize("unit", ["<div\n", "<div b={\n", "<x a='>'\n"])
def test_an_html_block_of_start_tags_never_closed_is_read_in_linear_work(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pack/split_html reads an oversize HTML block with html.parser: a start tag that no '>' ends before the end
    # of the input is read to the end, then the parser goes on at the next '<' and reads to the end again
    # (n^2: 8,000 '<div' lines 5.3 s; the 256 KiB the packer parses, minutes)
    text = "# T\n\n" + unit * 2_000 + "\nZQX14LAST\n"
    assert _start_tag_reads(text, monkeypatch) <= 4 * len(text)
    assert "".join(_joined(text, CFG).split()) == "".join(text.split())  # every character kept


@pytest.mark.parametrize("fence_like", ["```x`", "    ```", "<div>\n```\n</div>\n"])
def test_div_openings_after_lines_taken_for_fences_are_searched_in_bounded_work(
    fence_like: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # '::: pkg.module' opens a div for Pandoc and is text for the ':::' container rule (mkdocstrings' directive);
    # the line after it opened a code fence for the div search, though it is none, so every later opening line
    # was searched to the end anew (4,000 pairs: 17 s)
    read = [0]
    original: Callable[..., Any] = pandoc._matches

    def counted(state: Any, first: int, end_line: int) -> Any:
        read[0] += end_line - first
        return original(state, first, end_line)

    monkeypatch.setattr(pandoc, "_matches", counted)
    text = "# T\n\n" + f"::: pkg.module\n{fence_like}\n" * 1_000 + "\nZQX14LAST\n"
    markdown_parser(CFG.max_nesting, False, True, True).parse(text)
    assert read[0] <= (1 << 16) + 4 * text.count("\n")  # pandoc._RESCANS; main: ~10^6
