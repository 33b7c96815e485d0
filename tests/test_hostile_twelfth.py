"""The twelfth hostile-input pass (bench/HOSTILE.md): the syntax landed for Hugo, MDX and heading ids read in
linear time. A pattern that backtracks exponentially is stopped by a deadline, so the test fails instead of
hanging; the other tests count the work (no timing)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.inline import without_heading_ids
from chunker.parse import mdx
from chunker.parse.mdx import opens_with_import
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False, keep_mdx_esm=True)


class Expired(BaseException):
    """Raised by the deadline: a pattern still backtracking."""


@pytest.fixture
def deadline() -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise Expired("still matching after 20 s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


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
