"""Junk pieces (only link reference definitions, or one link or URL) go into a neighbour of their section."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pack import junk
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
_DEFINITION_LINE = re.compile(r"^\[[^\]]+\]: \S+$")


def words(n: int, stem: str) -> str:
    return " ".join(f"{stem}{i}" for i in range(n)) + "."


def definitions(n: int, width: int = 150) -> str:
    return "".join(f"[link{i}]: https://example.com/{'x' * width}/{i}\n" for i in range(n))


def only_definitions(text: str) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and all(_DEFINITION_LINE.match(line) for line in lines)


def test_link_definitions_at_the_end_of_a_section_are_not_a_chunk_of_their_own() -> None:
    text = "# Doc\n\n## S\n\n" + words(70, "alpha") + "\n\n" + words(40, "beta") + "\n\n" + definitions(2)
    text += "\n## T\n\nThe end.\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    assert not [c.chunk_id for c in result.chunks if only_definitions(c.content_original)]
    holder = next(c for c in result.chunks if "[link0]:" in c.content_original)
    assert "[link1]:" in holder.content_original and "beta39." in holder.content_original
    assert all(c.chars <= CFG.max_chars for c in result.chunks)


def test_a_playground_link_after_a_code_block_goes_with_the_code_not_alone() -> None:
    code = "```js\n" + "\n".join(f"let x{i} = {i};" for i in range(30)) + "\n```\n"
    link = "[Try it in the Playground](https://play.example.com/#" + "x" * 300 + ")\n"
    text = "# Doc\n\n## S\n\n" + words(60, "alpha") + "\n\n" + code + "\n" + link
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "[Try it in the Playground]" in c.content_original)
    assert "let x29 = 29;" in holder.content_original
    assert all(c.chars <= CFG.max_chars for c in result.chunks)


def test_a_label_and_its_url_on_the_next_line_stay_in_one_chunk() -> None:
    defs = "".join(f"[label number {i}]:\n  https://example.com/{'y' * 60}/{i}\n" for i in range(40))
    text = "# Doc\n\n## S\n\n" + words(30, "alpha") + "\n\n" + defs
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    for chunk in result.chunks:
        assert not chunk.content_original.rstrip().endswith("]:")
        assert not chunk.content_original.lstrip().startswith("https://")


def test_with_merge_short_off_junk_pieces_are_left_as_cut() -> None:
    text = "# Doc\n\n## S\n\n" + words(70, "alpha") + "\n\n" + words(40, "beta") + "\n\n" + definitions(2)
    cfg = ChunkerConfig(merge_short=False)
    result = chunk_markdown(text, cfg, "d", "d.md")
    assert [c.chunk_id for c in result.chunks if only_definitions(c.content_original)]


def _carried(chunk: Chunk) -> int:
    """Characters of the link definitions ``chunk`` carries without counting (in its content, not embedded)."""
    embedded = chunk.content_for_embedding
    lines = chunk.content_original.split("\n")
    return sum(len(line) + 1 for line in lines if _DEFINITION_LINE.match(line) and line not in embedded)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=5, max_value=120), min_size=1, max_size=6),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=10, max_value=400),
)
@example([67], 8, 267)  # six definitions carried uncounted, the last two beyond the carrying bound
def test_no_chunk_is_only_definitions_when_a_neighbour_could_take_them(
    paragraphs: list[int], count: int, width: int
) -> None:
    body = "\n\n".join(words(n, f"w{k}x") for k, n in enumerate(paragraphs))
    text = "# Doc\n\n## S\n\n" + body + "\n\n" + definitions(count, width)
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    chunks = result.chunks
    budget = CFG.max_chars - len("Doc > S\n\n")  # the section's budget: max_chars less its context line
    for k, chunk in enumerate(chunks):
        if not only_definitions(chunk.content_original):
            continue
        for j in (k - 1, k + 1):
            if 0 <= j < len(chunks) and chunks[j].section_path == chunk.section_path:
                carried = _carried(chunks[j])
                if carried:  # it could take them only uncounted, up to SILENT_BUDGETS budgets of them
                    assert carried + len(chunk.content_original) > junk.SILENT_BUDGETS * budget
                else:
                    together = chunks[j].chars + len(chunk.content_original) + 2
                    assert together > CFG.max_chars, (chunk.chunk_id, chunks[j].chunk_id)


def test_footnote_definitions_that_are_only_a_link_are_not_a_chunk_of_their_own() -> None:
    notes = "".join(f"[^n{i}]: <https://example.com/{'z' * 180}/{i}>\n\n" for i in range(2))
    text = "# Doc\n\n## S\n\n" + words(70, "alpha") + "\n\n" + words(40, "beta") + "\n\n" + notes + "## T\n\nEnd.\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "[^n0]:" in c.content_original)
    assert "beta39." in holder.content_original or "alpha69." in holder.content_original


_PARTS = ["ab", "Xyzé", "12", " ", "\n", "[", "]", "(", ")", "!", "<", ">", "<b>", "https", "://", "x.org"]
_PARTS += ["_", "+", "-", "."]
_PIECE = st.lists(st.sampled_from(_PARTS), max_size=16).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_PIECE, _PIECE, _PIECE)
@example("", "abcdefghhttps://[a](b)", "")
def test_text_with_enough_letters_before_any_link_is_no_link_piece(before: str, text: str, after: str) -> None:
    # the pre-test of _kind never calls a piece prose that the link scan would call a link piece
    source, start = before + text + after, len(before)
    end = start + len(text)
    if junk._prose_first(source, start, end):
        assert junk._link_kind(source, start, end) is None, text


def _full_list() -> str:
    """A list that fills a chunk (~1,180 characters with its heading and context line)."""
    items = [f"- [Library{i}](https://example.com/lib{i}) - A library that does thing number {i}." for i in range(15)]
    text = "\n".join(items)
    return text + "x" * (1120 - len(text)) + "."


NOTHING_TO_READ = [
    "**[⬆ back to top](#contents)**",  # a link within the page
    "---",  # a rule
    "{% endcapture %}{% include example.html content=example %}",  # template tags
    "<script>\n  initTooltips();\n</script>",
]


@pytest.mark.parametrize("tail", NOTHING_TO_READ)
def test_a_piece_with_nothing_to_read_after_a_full_chunk_rides_along_silently(tail: str) -> None:
    text = f"# Awesome\n\n## Libraries\n\n{_full_list()}\n\n{tail}\n\n## Tools\n\nThe tools of the list.\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    [holder] = [c for c in result.chunks if "Library14" in c.content_original]
    assert holder.content_original.endswith(tail)  # in the source slice, where it renders
    assert tail not in holder.content_for_embedding and holder.chars <= CFG.max_chars
    assert len(result.chunks) == 2


@pytest.mark.parametrize(
    "tail",
    [
        "**[Migration guide for version three](https://example.com/migrate)**",  # its text names a guide
        '<Illustration caption="Rendering the tree of components" src="/images/render.png" />',
    ],
)
def test_a_link_elsewhere_or_a_captioned_component_after_a_full_chunk_stays_a_chunk(tail: str) -> None:
    text = f"# Awesome\n\n## Libraries\n\n{_full_list()}\n\n{tail}\n\n## Tools\n\nThe tools of the list.\n"
    result = chunk_markdown(text, CFG, "d", "d.md")
    assert any(c.content_original == tail for c in result.chunks)
