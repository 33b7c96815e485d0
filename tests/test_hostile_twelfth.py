"""The twelfth hostile-input pass (bench/HOSTILE.md): the syntax landed for Hugo, MDX and heading ids read in
linear time. A pattern that backtracks exponentially is stopped by a deadline, so the test fails instead of
hanging; the other tests count the work (no timing)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.inline import without_heading_ids
from chunker.parse import mdx
from chunker.parse.esm import opens_with_import
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False, keep_mdx_esm=True)


@pytest.mark.usefixtures("deadline")
def test_many_heading_ids_before_a_word_are_refused_at_once() -> None:
    line = "## Title" + " {#a}" * 40 + " word"  # 2^40 ways before: each {#a} is an id and an attribute list
    assert without_heading_ids(line) == line
    assert without_heading_ids("## Title" + " {#a}" * 40) == "## Title"
    assert without_heading_ids("## Title {#a} {: .tip #b } {/* c */} [#d]") == "## Title"
    assert without_heading_ids("## Title {/* a */}x*/}") == "## Title {/* a */}x*/}"  # a comment ends at its */}


@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize(
    "line",
    [
        "import a from 'b'; " * 40 + "x",  # 3^40 ways before
        "import a" + " " * 20_000 + "x",  # 20,000^3 before
        "import type" + " {a}" * 5_000 + " x",
    ],
)
def test_an_import_line_that_is_no_statement_is_refused_at_once(line: str) -> None:
    assert not opens_with_import(line + "\n\nText.\n")


@pytest.mark.parametrize(
    "line",
    [
        "import Tabs from '@theme/Tabs';",
        "import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem';",
        "import type { A } from 'a' ;  ",
        'import Def, { a, b } from "x"',
        "import * as all from 'y'; import z from 'z';",
        "import   a  ,  {b}   from   'c'",
    ],
)
def test_whole_import_statements_still_open_an_mdx_page(line: str) -> None:
    assert opens_with_import(line + "\n\n<Tabs />\n")


def _scanned(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[tuple[str, str]]]:
    """How many lines the JSX/ESM block scans read, and the blocks of ``text`` as an MDX page."""
    calls = [0]
    scan = mdx._scan

    def counted(line: str, depth: int, template: bool) -> tuple[int, bool]:
        calls[0] += 1
        return scan(line, depth, template)

    monkeypatch.setattr(mdx, "_scan", counted)
    result = chunk_markdown(text, CFG, "page", "page.mdx")
    return calls[0], [(b.kind, text[b.start_offset : b.end_offset]) for b in result.blocks]


@pytest.mark.parametrize("opener", ["<Foo a={", "{", "<Foo a={`"])
def test_blocks_whose_braces_never_balance_are_not_each_read_to_the_end(
    opener: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "# T\n\n" + "".join(f"{opener}\n\nZQX{i} text\n\n" for i in range(600))
    calls, found = _scanned(text, monkeypatch)
    # a line costs 2 characters of the budget at least (a blank line is not scanned): each block read to the end
    # of the page before (600 x ~900 lines)
    assert calls <= text.count("\n") + (65_536 + 2 * len(text)) // 2 + 1  # 65,536: mdx._READ_ON_BASE
    assert all(f"ZQX{i}" in "".join(t for _, t in found) for i in range(600))


def test_a_page_with_a_brace_left_open_still_reads_later_blocks_across_blank_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    later = "<Code code={`\n# not a heading\n\nmore\n`} />"
    text = "<Foo a={\n\nProse.\n\n" + later + "\n\n## Real\n\nBody.\n"
    _, found = _scanned(text, monkeypatch)
    assert ("html", later) in found
    assert ("heading", "## Real") in found


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts heading_text gives markdown-it's inline parser from now on (its cache emptied)."""
    from chunker import inline

    seen: list[str] = []
    parser = inline._inline_parser()

    class Counted:
        def parseInline(self, src: str, env: object = None) -> object:  # noqa: N802 (markdown-it's name)
            seen.append(src)
            return parser.parseInline(src, env)

    monkeypatch.setattr(inline, "_inline_parser", lambda: Counted())
    if hasattr(inline, "_heading_text"):
        inline._heading_text.cache_clear()
    return seen


@pytest.mark.parametrize("fragment", ["{{<", "<", "*a", "{%", "[", "`"])
def test_a_heading_of_markup_is_parsed_up_to_a_bounded_count_of_markup_characters_once(
    fragment: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunker.inline import _MARKUP, heading_text

    seen = _parsed(monkeypatch)
    text = "".join(f"## {i} " + fragment * (1000 // len(fragment)) + f"\n\nZQX{i}\n\n" for i in range(20))
    result = chunk_markdown(text, CFG, "page", "page.md")
    assert len(seen) <= 20  # once a heading line (seven times before)
    assert all(len(_MARKUP.findall(src)) <= 64 for src in seen)  # 333 to 1,000 before
    assert all(f"ZQX{i}" in "".join(c.content_original for c in result.chunks) for i in range(20))
    assert heading_text("A **bold** `code` [link](x) {#id}") == "A bold code link"


def test_template_tags_are_replaced_as_the_pattern_replaces_them() -> None:
    import random

    from chunker import inline

    parts = ["{{", "{{<", "{{%", "}}", ">}}", "%}}", "{%", "%}", "{#", "#}", " data ", "echo x", "a", " ", "-", "\n"]
    rng = random.Random(12)
    for _ in range(20_000):
        raw = "".join(rng.choice(parts) for _ in range(rng.randint(0, 14)))
        by_pattern: list[tuple[str, str | None]] = []
        by_scan: list[tuple[str, str | None]] = []

        def pattern_tag(match: re.Match[str], found: list[tuple[str, str | None]] = by_pattern) -> str:
            found.append((match.group(), match.group(1)))
            return "|"

        def scan_tag(tag: str, output: str | None, found: list[tuple[str, str | None]] = by_scan) -> str:
            found.append((tag, output))
            return "|"

        assert inline._template_tags_replaced(raw, scan_tag) == inline._TEMPLATE_TAG.sub(pattern_tag, raw), raw
        assert by_scan == by_pattern, raw


@pytest.mark.usefixtures("deadline")
def test_globs_of_many_double_stars_match_deep_paths_at_once() -> None:
    from chunker.selection import Selection, glob_matches

    deep = "/".join(["a"] * 30) + "/b.md"
    assert not glob_matches("**/" * 12 + "zzz", deep)  # C(42, 12) ways tried before
    assert glob_matches("./" + "**/" * 12 + "b.md", deep)
    assert glob_matches("a/**/a/**/b.md", deep)
    assert not glob_matches("a/**/c/**/b.md", deep)
    assert Selection(exclude=("**/" * 40 + "*.md",)).excluded(deep) is not None
