"""The thirteenth hostile-input pass (bench/HOSTILE.md): the syntax landed in the last two stops (MDC block
components, MyST, Obsidian, template tags) at sizes and shapes that make its scans superlinear. The tests count
the work (lines scanned, parses, characters read), none times it; a deadline stops what would hang."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.parse import mdc
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()


def _lines_scanned(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many lines the MDC closing-line searches read over ``text`` (Markdown parse)."""
    read = [0]
    original: Callable[..., Any] = mdc._matches

    def counted(state: Any, first: int, end_line: int) -> Any:
        read[0] += end_line - first
        return original(state, first, end_line)

    monkeypatch.setattr(mdc, "_matches", counted)
    markdown_parser(CFG.max_nesting, False).parse(text)
    return read[0]


@pytest.mark.parametrize("fence_like", ["```x`", "    ```", "<div>\n```\n</div>\n"])
def test_mdc_openings_after_lines_taken_for_fences_are_searched_in_bounded_work(
    fence_like: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each '::a' is a paragraph line the parser asks the MDC rule about (paragraph terminators); the line after
    # it opened a code fence for the closing-line search, though it is none (a backtick in the info string,
    # an indented run in a paragraph, a run in an HTML block), so every later '::a' was searched to the end anew
    text = "# T\n\n" + f"::a\n{fence_like}\n" * 1_000 + "\nZQX13LAST\n"
    lines = text.count("\n")
    assert _lines_scanned(text, monkeypatch) <= (1 << 16) + 4 * lines  # mdc._RESCANS; main: ~10^6


@pytest.mark.usefixtures("deadline")
def test_a_page_of_mdc_openings_and_fence_like_lines_keeps_its_text() -> None:
    text = "# T\n\nZQX13FIRST\n\n" + "::a\n```x`\n" * 5_000 + "\nZQX13LAST\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    joined = "".join(c.content_original for c in result.chunks)
    assert "ZQX13FIRST" in joined and "ZQX13LAST" in joined
    assert joined.count("::a") == 5_000


def test_nested_components_still_close_where_their_lines_say() -> None:
    text = "::card-group\n  ::card\n  Text.\n  ```\n  ::not-a-component\n  ```\n  ::\n::\n\n## Next\n\nMore.\n"
    tokens = markdown_parser(CFG.max_nesting, False).parse(text)
    opened = [(t.map, t.markup) for t in tokens if t.type == "container_block_open"]
    assert opened == [([0, 7], "::"), ([1, 6], "::")]


def _parsed_headings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The heading texts given to markdown-it's inline parse from now on."""
    from chunker import inline

    seen: list[str] = []
    parser = inline._inline_parser()

    class Recording:
        def parseInline(self, src: str, env: Any = None) -> Any:  # noqa: N802 (markdown-it's name)
            seen.append(src)
            return parser.parseInline(src, env)

    monkeypatch.setattr(inline, "_inline_parser", lambda: Recording())
    inline._heading_text.cache_clear()
    return seen


@pytest.mark.parametrize("unit", ["[[", "![", "[a", "[x]("])
def test_a_heading_of_brackets_is_parsed_up_to_its_sixteenth_bracket(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # markdown-it looks for each '[' its closing bracket over the rest of the line (its link-label search
    # asks every rule at each later position): 64 '[' cost ~2,600 token skips, 16 ~540
    from chunker.inline import heading_text

    seen = _parsed_headings(monkeypatch)
    heading_text("Title " + unit * 500)
    assert seen and all(text.count("[") <= 16 for text in seen)


def test_a_heading_of_a_few_links_and_badges_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from chunker.inline import heading_text

    badges = "is-plain-object " + " ".join(f"[![B{i}](https://x/{i}.svg)](https://x/{i})" for i in range(4)) + " end"
    assert heading_text(badges) == "is-plain-object B0 B1 B2 B3 end"
    refs = "[`Unpack`][typing.Unpack] used without a [`TypedDict`][typing.TypedDict] {#unpack-typed-dict}"
    assert heading_text(refs) == "Unpack used without a TypedDict"


def test_the_names_a_page_imports_are_looked_for_in_one_pass_whatever_their_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a '.md' page importing 3,000 names was searched for them as one alternation of 3,000 words, tried at every
    # '<' and '{' of the page: 100,000 '{N' took 1.6 s
    from chunker.parse import esm

    compiled: list[str] = []
    original = esm.re.compile

    def recording(pattern: str, flags: int = 0) -> Any:
        compiled.append(pattern)
        return original(pattern, flags)

    monkeypatch.setattr(esm.re, "compile", recording)
    names = [f"N{i}x" for i in range(3_000)]
    text = "# T\n\nimport { " + ", ".join(names) + " } from 'x'\n\n" + "{N <N " * 1_000 + "\n"
    assert not esm.imports_used(text)
    assert esm.imports_used(text + "\n<N2999x />\n")
    assert not esm.imports_used(text + "\n```\n<N2999x />\n```\n")
    assert all(len(pattern) < 1_000 for pattern in compiled)


def test_pieces_of_an_indented_mdc_component_close_it_at_its_indentation() -> None:
    # a '::' line closes only a component opened at its indentation: pieces closed with '::' at column 0 left
    # '  ::callout' open, its props a setext heading and its text outside it (found by fuzz_containers --extra)
    from dataclasses import replace

    small = replace(CFG, max_chars=120, target_chars=80, min_chars=1)
    body = "".join(f"  Paragraph {i} with some words in it to fill.\n\n" for i in range(6))
    text = "# T\n\n## S\n\n  ::callout\n  ---\n  title: zeta\n  ---\n" + body + "  ::\n\n## Next\n\nText.\n"
    result = chunk_markdown(text, small, "d", "d.md")
    pieces = [c.content_original for c in result.chunks if "::callout" in c.content_original]
    assert len(pieces) > 2 and all(piece.endswith("\n  ::") for piece in pieces)
    assert not [d for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]


def test_a_cut_deep_in_a_nested_list_reads_each_container_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # each candidate cut in the deepest item of a list 30 deep re-opens 30 items: the walk built each item's
    # outer chain (30 x 30 reads of a container's first line) before it knew whether it needed it
    from dataclasses import replace

    from chunker.pack import reopen

    reads = [0]
    walks = [0]
    original_first = reopen.Structure.first_line
    original_walked = reopen.Structure._walked

    def first_line(self: Any, k: int) -> int:
        reads[0] += 1
        return original_first(self, k)

    def walked(self: Any, *args: Any) -> Any:
        walks[0] += 1
        return original_walked(self, *args)

    monkeypatch.setattr(reopen.Structure, "first_line", first_line)
    monkeypatch.setattr(reopen.Structure, "_walked", walked)
    items = "".join("  " * d + "- " + "lead words here " * 4 + "\n\n" for d in range(30))
    text = "# T\n\n" + items + ("  " * 30 + "more text " * 30 + "\n\n") * 10
    result = chunk_markdown(text, replace(CFG, min_chars=1), "d", "d.md")
    assert len(result.chunks) > 20 and walks[0] > 20
    assert reads[0] <= 8 * 30 * walks[0]  # on main ~40 x 30 a walk
