"""A piece starting at a line where no container opened on an earlier line re-opens nothing.

``Structure.reopened`` answers a piece at column 0 of a top-level list item's first line (or of a line
in a block without containers: indented code) without the walk of every container around it: the
block's frame alone. These tests hold that answer to the walk's (``Structure._walked``) on random
blocks, every line start and a few columns past it, in the same order (the walk records content
columns as it goes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker import ChunkerConfig
from chunker.pack.reopen import Structure
from chunker.parse import markdown_parser
from chunker.parse.pulldown import available
from chunker.parse.pulldown_outline import block_tokens


def _parsed(text: str) -> list[Structure]:
    """Two structures of ``text`` per parse (markdown-it-py's; pulldown-cmark's where it has one)."""
    cfg = ChunkerConfig()
    tokens = [[t for t in markdown_parser(cfg.max_nesting, False).parse(text) if t.type != "inline"]]
    pulldown = block_tokens(text, cfg.max_nesting) if available() else None
    if pulldown is not None:
        tokens.append(pulldown)
    return [Structure(text, t) for t in tokens for _ in range(2)]


def _assert_as_walked(text: str, frame: str) -> int:
    """Both answers at every line start and 1-3 columns in; the number of fast answers."""
    structures = _parsed(text)
    fast = 0
    for ours, walked in zip(structures[::2], structures[1::2], strict=True):
        for start, extra in [(start, extra) for start in ours.starts for extra in (0, 1, 3)]:
            offset = start + extra
            line, column = walked.position(offset)
            if not extra:
                fast += ours._at_line_start(frame, line) is not None
            expected = walked._walked(frame, line, column)
            assert ours.reopened(frame, offset) == expected, (text, offset)
        assert ours.content == walked.content
        assert ours.markers == walked.markers
    return fast


NESTED = """- one
  - two

    ```py
    code
    ```
- three
  > quoted
lazy line
-\ttab after the marker
- - two on one line
- | a | b |
  |---|---|
  | c | d |
10. ten
    para

        indented code
* star
"""


def test_top_level_items_are_answered_without_the_walk() -> None:
    assert _assert_as_walked(NESTED, "") >= 5
    assert _assert_as_walked(NESTED, "!!! note\n") >= 5
    code = "    code\n    more\n\n    after a blank\n"  # no container: every line start (and the empty last)
    assert _assert_as_walked(code, "") == 5 * len(_parsed(code)) // 2


def test_a_top_level_item_skips_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "- one\n  more\n- two\n- three\n"
    structure = Structure(text, [t for t in markdown_parser(64, False).parse(text) if t.type != "inline"])

    def walked(*args: object) -> str | None:
        raise AssertionError("walked")

    monkeypatch.setattr(structure, "_walked", walked)
    assert [structure.reopened("", structure.starts[line]) for line in (0, 2, 3)] == ["", "", ""]
    with pytest.raises(AssertionError, match="walked"):
        structure.reopened("", structure.starts[1])  # inside the first item: its marker is re-opened


_LINE = st.sampled_from(
    [
        "- item",
        "  - nested",
        "- - two",
        "1. one",
        "   2) two",
        "-\ttab",
        "\t- tab",
        "> quote",
        "> - quoted item",
        "    code",
        "\tcode",
        "```",
        "~~~",
        "text",
        "",
        "lazy",
        ": def",
        "Term",
        "::: tip",
        ":::",
        "!!! note",
        "    body",
        "[^a]: note",
        "| a | b |",
        "|---|---|",
        "  | c |",
        "<div>",
        "</div>",
        "# heading",
        "  ```",
        "+ plus",
        "$$",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=14), st.sampled_from(["", "!!! note\n", ":::tip\n"]))
def test_the_answer_at_a_line_start_equals_the_walk(lines: list[str], frame: str) -> None:
    _assert_as_walked("\n".join(lines) + "\n", frame)


def test_no_piece_starts_on_a_blank_line_under_an_items_marker_re_opened_alone() -> None:
    """A piece starting on the blank quote line inside item ``2.`` re-opened the item as its marker
    alone: over a blank line that item is empty (an item starts with at most one blank line) and the
    table after it left the item (fuzzer seed 10, document 53)."""
    from chunker.pack.budget import SectionSpace
    from chunker.pipeline import chunk_markdown
    from chunker.strategies import Section

    text = "4.  > 1.\n    > 2.  | a b |\n    >     |---|\n    >     | c d |\n    >\n    >     | e f |\n"
    cfg = ChunkerConfig()
    (block,) = chunk_markdown(text, cfg, "d", "d.md").blocks
    space = SectionSpace(text, Section(title="s", blocks=(block,)), 0, cfg, "t")
    blank, table = text.index("    >\n") + 4, text.index("    >     | e f") + 4
    assert not space.can_start(block, blank)
    assert space.can_start(block, table) and space.reopen(block, table) == " 4.\n    >  2.\n    "
