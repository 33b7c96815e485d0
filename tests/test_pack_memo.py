"""The packer's shortcuts give the answers of the tests they spare: the section's filler memo (a
paragraph with words before any markup is not scanned), the junk test through that memo, the
opener pre-test, table padding found over a whole table at once."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker import filler as filler_module
from chunker.config import ChunkerConfig
from chunker.models import Block
from chunker.pack import budget, fill, junk, openers
from chunker.pack.budget import SectionSpace
from chunker.pack.strength import BLOCK, Strength, Unit
from chunker.pack.tables import _DASHES, _DELIMITER_ROW, _SPACES, _runs, collapse
from chunker.pipeline import chunk_markdown
from chunker.strategies import Section


def _paragraph(text: str, before: str = "") -> tuple[str, Block]:
    source = before + text
    block = Block(
        id="blk_0001",
        kind="paragraph",
        start_offset=len(before),
        end_offset=len(source),
        start_line=1,
        end_line=1 + text.count("\n"),
        header_path=(),
        atomic=False,
        source=source,
    )
    return source, block


_PARTS = ["ab", "Xyzé", "12", " ", "\n", "<b>", "</i>", "<", ">", "&amp;", "&", ";", "<!-- c -->", "<script>x</script>"]
_PARTS += ["{", "}", "{%", "%}", "{{<", ">}}", "{{%", "%}}", "{{ x }}", "{% include a.html %}", "{{< badge >}}"]
_TEXT = st.lists(st.sampled_from(_PARTS), max_size=14).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_TEXT, st.sampled_from(["", "x\n", "<b>\n"]))
@example("abcdefgh<b>", "")
@example("ab<b>cdefghij", "")
@example("{% include toc.html %}", "")
@example("{{< blog/badge >}}", "")
def test_the_filler_memo_answers_as_is_filler(text: str, before: str) -> None:
    source, block = _paragraph(text, before)
    space = SectionSpace(source, Section(title="s", blocks=(block,)), 0, ChunkerConfig(), "t")
    assert space.filler(block) == filler_module.is_filler(block), text


def test_a_paragraph_with_words_before_any_markup_is_not_scanned_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def scanned(block: Block) -> bool:
        raise AssertionError("scanned")

    monkeypatch.setattr(budget, "is_filler", scanned)
    for text in ("Plain words only, no markup at all.", "Several words come first <b>then</b> a tag &amp; more."):
        source, block = _paragraph(text)
        space = SectionSpace(source, Section(title="s", blocks=(block,)), 0, ChunkerConfig(), "t")
        assert space.filler(block) is False


def test_junk_pieces_test_blocks_for_filler_through_the_sections_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = budget.is_filler

    def counted(block: Block) -> bool:
        calls.append(block.id)
        return real(block)

    def unmemoised(block: Block) -> bool:
        raise AssertionError("junk tested a block for filler without the section's memo")

    monkeypatch.setattr(budget, "is_filler", counted)
    monkeypatch.setattr(junk, "is_filler", unmemoised)
    body = "\n\n".join(f"<b>{k}</b> x <i>y</i>" if k % 3 == 0 else f"Paragraph {k} " + "words " * 30 for k in range(40))
    result = chunk_markdown(
        "# Title\n\n## Part\n\n" + body + "\n", ChunkerConfig(max_chars=600, target_chars=400), "doc", "doc.md"
    )
    assert len(result.chunks) > 3
    assert len(calls) == len(set(calls))  # each block at most once


def _may_open_reference(line: str) -> bool:
    return openers._may_open(line)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["- ", "1. ", "# ", ">", " ", "\t", "text", ":", "：", "\u3000", "<div>", "\n", "２"]),
        max_size=8,
    )
)
def test_the_opener_pre_test_keeps_every_line_any_pattern_matches(parts: list[str]) -> None:
    # opener() tests the line's first character after its markers and its last character in place of
    # _may_open(line); both let the same lines through to the patterns
    text = "".join(parts)
    source = "Intro.\n\n" + text + "\n\n- next item\n"
    start = len("Intro.\n\n")
    end = start + len(text)
    while end > start and source[end - 1] in " \t\n":
        end -= 1
    line_start = source.rfind("\n", start, end) + 1 or start
    line = source[line_start:end]
    block = Block(
        id="b",
        kind="list",
        start_offset=start,
        end_offset=start + len(text),
        start_line=3,
        end_line=3,
        header_path=(),
        atomic=False,
        source=source,
    )
    units = [
        Unit(start=start, end=start + len(text), block=block, strength=BLOCK),
        Unit(start=source.index("- next"), end=len(source) - 1, block=block, strength=BLOCK),
    ]
    if line and not _may_open_reference(line):
        assert not openers.opener(units, 0, source), line


def _runs_by_line(text: str, base: int) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        if _DELIMITER_ROW.match(line):
            runs.extend((base + pos + m.end(), len(m.group()) - 3) for m in _DASHES.finditer(line))
        runs.extend((base + pos + m.end(), len(m.group()) - 1) for m in _SPACES.finditer(line))
        pos += len(line) + 1
    runs.sort()
    return runs


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["|", " ", "  ", "\t", "-", "----", ":", "a", "b c", "\n", "\n|---|", "-----|"]), max_size=20
    )
)
def test_table_padding_found_over_the_whole_table_is_that_of_its_rows(parts: list[str]) -> None:
    text = "".join(parts)
    assert _runs(text, 7) == _runs_by_line(text, 7), text


def test_a_real_table_has_the_padding_of_its_rows() -> None:
    text = "| a    | b |\n|------|---|\n| x    | y   |\n"
    assert _runs(text, 0) == _runs_by_line(text, 0)
    assert re.search("-{4}", text)


def _collapse_by_line(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        if _DELIMITER_ROW.match(line):
            line = _DASHES.sub("---", line)
        lines.append(_SPACES.sub(" ", line))
    return "\n".join(lines)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(["|", " ", "  ", "\t", "-", "----", ":", "a", "b c", "\n", "\n|---|", "\r"]), max_size=20)
)
def test_padding_collapsed_over_the_whole_table_is_that_of_its_rows(parts: list[str]) -> None:
    text = "".join(parts)
    assert collapse(text) == _collapse_by_line(text), text


def _choose_by_lists(candidates: list[tuple[int, int, Strength]], target: int, minimum: int) -> int:
    floor = max(target // 2, minimum)
    good = [c for c in candidates if c[1] >= floor] or candidates
    top = max(c[2] for c in good)
    best = [c for c in good if c[2] == top]
    chosen = min(best, key=lambda c: (abs(c[1] - target), c[1]))[0]
    crossed = [c for c in candidates if c[0] < chosen and c[2] > top and c[2] > BLOCK and c[1] >= minimum]
    if crossed:
        strongest = max(c[2] for c in crossed)
        chosen = max(c[0] for c in crossed if c[2] == strongest)
    return chosen


_CANDIDATE = st.tuples(st.integers(0, 400), st.sampled_from(list(Strength)))


@settings(max_examples=3000, deadline=None)
@given(st.lists(_CANDIDATE, min_size=1, max_size=12), st.integers(1, 300), st.integers(0, 150))
def test_the_chosen_cut_is_that_of_the_list_form(sized: list[tuple[int, Strength]], target: int, minimum: int) -> None:
    candidates = [(k + 1, size, strength) for k, (size, strength) in enumerate(sized)]
    assert fill._choose(candidates, target, minimum) == _choose_by_lists(candidates, target, minimum)
