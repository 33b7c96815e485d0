"""The packer's per-section shortcuts give what they spare: the context lines of a section's chunks,
made once per heading path (:class:`SectionContext`), are those :func:`context_prefix` gives each
chunk; a section that fits whole is one draft made without units."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunker.pack as pack_module
from chunker.config import ChunkerConfig
from chunker.models import Block, Diagnostic, Heading
from chunker.pack import context
from chunker.pack.budget import SectionSpace
from chunker.pack.context import SectionContext, context_prefix
from chunker.pack.drafts import _path_of, make_draft, whole_draft
from chunker.pack.fill import ranges
from chunker.pack.units import build_units
from chunker.parse import BlockTokens, read_document
from chunker.pipeline import chunk_markdown
from chunker.segmenter import segment
from chunker.strategies import Section
from chunker.strategies.headings import heading_sections

_TEXTS = ["Doc", "Intro", "Setup", "`code` title", "**Bold**", "Doc > x", ""]
_HEADINGS = st.builds(Heading, st.integers(1, 4), st.sampled_from(_TEXTS), st.integers(1, 40))
_LINES = ["# Doc", "## Intro", "### Setup", "## `code` title", "**Bold**", "Doc", "text here", "", "```js", "Intro"]
_CONTENT = st.lists(st.sampled_from(_LINES), max_size=6).map("\n".join)


@settings(max_examples=800, deadline=None)
@given(
    paths=st.lists(st.lists(_HEADINGS, max_size=4).map(tuple), min_size=1, max_size=3),
    contents=st.lists(st.tuples(st.integers(0, 2), _CONTENT), min_size=1, max_size=8),
    title=st.sampled_from(["Doc", "", "Other"]),
    section_title=st.sampled_from(["Intro", "Setup", ""]),
    level=st.integers(0, 3),
    depth=st.integers(0, 3),
    context_title=st.booleans(),
    mode=st.sampled_from(["breadcrumb", "heading", "blockquote", "none"]),
    max_chars=st.sampled_from([40, 1200]),
)
def test_the_memoised_lines_are_those_of_context_prefix(
    paths: list[tuple[Heading, ...]],
    contents: list[tuple[int, str]],
    title: str,
    section_title: str,
    level: int,
    depth: int,
    context_title: bool,
    mode: str,
    max_chars: int,
) -> None:
    block = Block(
        id="blk_0001", kind="paragraph", start_offset=0, end_offset=1, start_line=3, end_line=3,
        header_path=(), atomic=False, source="x",
    )  # fmt: skip
    section = Section(title=section_title, blocks=(block,), level=level)
    cfg = ChunkerConfig.from_mapping(
        {"context_prefix": mode, "context_depth": depth, "context_title": context_title, "max_chars": max_chars,
         "target_chars": max_chars // 2, "min_chars": 10}
    )  # fmt: skip
    lines = SectionContext(section, title, cfg)
    for which, content in contents:  # paths come back: the second time from the memo
        path = paths[which % len(paths)]
        assert lines.line(path, content) == context_prefix(path, section, title, content, cfg), (path, content)


def test_a_section_computes_its_breadcrumb_once_per_heading_path(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = context._breadcrumb

    def counted(path: object, section: object, depth: int) -> list[str]:
        calls.append(path)
        return real(path, section, depth)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "_breadcrumb", counted)
    paragraphs = "\n\n".join(f"Sentence {k} of a long section that is cut into many chunks." for k in range(200))
    text = f"# Doc\n\n## Part\n\n{paragraphs}\n\n### Sub\n\n{paragraphs}\n"
    result = chunk_markdown(text, ChunkerConfig(), "doc", "doc.md")
    assert len(result.chunks) > 20
    assert {c.header_path[-1].text for c in result.chunks} == {"Part", "Sub"}
    assert len(calls) <= 3  # one per heading path of the section (Doc, Part, Sub), not one per chunk


_FRAGMENTS = [
    "# Title\n",
    "## Part\n",
    "Some text here.\n",
    "| a    | b |\n|------|---|\n| x    | y   |\n",
    "```py\ncode\n",
    "```\n",
    "<!-- note -->\n",
    "- item\n- item two\n",
    "    indented ```\n",
    "<div>\n\n```\n</div>\n",
    "> quote ~~~\n",
    "[a]: https://example.com\n",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=10))
def test_a_section_that_fits_whole_is_the_draft_of_its_units(parts: list[str]) -> None:
    """:func:`whole_draft` (no units) gives the draft :func:`make_draft` makes of the one range of
    one unit per block, with the same findings (an unclosed fence)."""
    text = "\n".join(parts)
    cfg = ChunkerConfig()
    doc = read_document(text, cfg)
    blocks = segment(doc, BlockTokens(doc, cfg), cfg)
    sections = list(heading_sections(blocks, 2, cfg, "doc", []))
    for index, section in enumerate(sections):
        space = SectionSpace(text, section, index, cfg, "doc")
        if not space.fits_whole:
            continue
        units, _ = build_units(space)
        assert ranges(space, units) == [(0, len(units))]
        found: list[Diagnostic] = []
        expected: list[Diagnostic] = []
        assert whole_draft(space, found) == make_draft(space, units, expected), text
        assert found == expected


def test_a_section_that_fits_whole_is_packed_without_units(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_units(space: SectionSpace) -> object:
        raise AssertionError("units built")

    monkeypatch.setattr(pack_module, "build_units", no_units)
    result = chunk_markdown("# Doc\n\nText.\n\n## Part\n\nMore text.\n", ChunkerConfig(), "doc", "doc.md")
    assert [c.section for c in result.chunks] == ["Doc", "Part"]


def _path_block(k: int, kind: str) -> Block:
    path = (Heading(level=1, text=f"h{k}", line=k + 1),)
    return Block(
        id=f"blk_{k:04d}", kind="heading" if kind == "heading" else "html", start_offset=k, end_offset=k + 1,
        start_line=k + 1, end_line=k + 1, header_path=path, atomic=False, source="x" * 100_000,
    )  # fmt: skip


def _path_of_each_block(blocks: list[Block], filler: Callable[[Block], bool]) -> tuple[Heading, ...]:
    """The rule of :func:`_path_of` as stated: a block is skipped when a heading, or filler with a
    heading as the first block after it that is no filler."""
    for k, block in enumerate(blocks):
        follows = next((b.kind == "heading" for b in blocks[k + 1 :] if b.kind == "heading" or not filler(b)), False)
        if block.kind == "heading" or (filler(block) and follows):
            continue
        return block.header_path
    return blocks[-1].header_path


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(["heading", "filler", "body"]), min_size=1, max_size=12))
def test_the_path_of_a_draft_is_that_of_its_first_body_block(kinds: list[str]) -> None:
    blocks = [_path_block(k, kind) for k, kind in enumerate(kinds)]
    fill = {b.id for b, kind in zip(blocks, kinds, strict=True) if kind == "filler"}

    def filler(block: Block) -> bool:
        return block.id in fill

    assert _path_of(blocks, filler) == _path_of_each_block(blocks, filler), kinds


def test_a_run_of_filler_blocks_before_a_heading_is_read_once() -> None:
    blocks = [_path_block(k, "filler") for k in range(2000)] + [_path_block(2000, "heading")]
    tested: list[Block] = []

    def filler(block: Block) -> bool:
        tested.append(block)
        return True

    assert _path_of(blocks, filler) == blocks[-1].header_path
    assert len(tested) == 2000  # each block once (2 million tests before: quadratic in the run)
