"""embedding_item_leads: a chunk cut from inside a list item embeds the item's first words after its marker."""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.models import Chunk, ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.streamed import StreamedChunks

WORDS = "word " * 55


def _steps(intro: str = "Step {i} sets up the {i}th thing:") -> str:
    lines = ["# Guide", "", "## Steps", ""]
    for i in range(1, 4):
        lines += [f"{i}. " + intro.format(i=i), ""]
        lines += [f"   - Nested point {i}.{j} {WORDS}\n" for j in range(5)]
    return "\n".join(lines) + "\n"


CFG = ChunkerConfig(max_chars=700, target_chars=500, min_chars=40)


def _run(text: str, cfg: ChunkerConfig = CFG) -> ChunkingResult:
    return chunk_markdown(text, cfg, "g", "g.md")


def _chunks(text: str, cfg: ChunkerConfig = CFG) -> tuple[Chunk, ...]:
    return _run(text, cfg).chunks


def _codes(result: ChunkingResult) -> list[str]:
    return [d.code for d in result.diagnostics.diagnostics]


def _continued(chunks: tuple[Chunk, ...]) -> list[Chunk]:
    return [c for c in chunks if c.is_continuation and re.match(r"\d\.\n", c.content_original)]


def test_a_piece_of_a_nested_list_embeds_the_words_of_the_step_it_continues() -> None:
    result = _run(_steps())
    continued = _continued(result.chunks)
    assert len(continued) >= 3
    for chunk in continued:
        step = chunk.content_original[0]
        assert f"\n\n{step}. Step {step} sets up the {step}th thing:\n   - Nested point {step}." in (
            chunk.content_for_embedding
        )
        assert chunk.added_lines[0].text == f"{step}.\n   "  # what renders as the source: the marker alone
    assert not result.diagnostics.errors


def test_switched_off_the_marker_stays_alone_and_the_chunks_are_the_same_slices() -> None:
    off = replace(CFG, embedding_item_leads=False)
    on_chunks, off_chunks = _chunks(_steps()), _chunks(_steps(), off)
    assert [c.content_original for c in on_chunks] == [c.content_original for c in off_chunks]
    for chunk in _continued(off_chunks):
        assert "sets up" not in chunk.content_for_embedding
    assert off.fingerprint() != CFG.fingerprint()


def test_a_long_first_paragraph_or_one_holding_a_run_of_backticks_is_no_lead() -> None:
    long_intro = "A very long introduction " * 12 + "{i}"
    assert _continued(_chunks(_steps(long_intro)))
    for chunk in _continued(_chunks(_steps(long_intro))):
        assert "introduction" not in chunk.content_for_embedding
    assert _continued(_chunks(_steps("Run ``echo {i}`` first")))
    for chunk in _continued(_chunks(_steps("Run ``echo {i}`` first"))):
        assert "echo" not in chunk.content_for_embedding


def test_a_lead_that_would_not_fit_max_chars_is_left_out() -> None:
    intro = "Introduction of the step number {i} " + "padding " * 20
    for max_chars in range(420, 720, 20):
        cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars - 100, min_chars=40)
        result = _run(_steps(intro), cfg)
        assert all(c.size <= max_chars for c in result.chunks if not c.is_overflow)
        assert "oversize" not in _codes(result)


def test_code_cut_from_a_step_embeds_the_sentence_that_introduces_it() -> None:
    code = "\n".join(f"       line_{k} = compute({k})  # {WORDS[:40]}" for k in range(40))
    text = (
        "# Guide\n\n## Build\n\n1. Copy the following code to `predictor.cs` in your project folder.\n\n"
        f"   ```csharp\n{code}\n   ```\n\n2. Build it.\n"
    )
    result = _run(text)
    pieces = [c for c in result.chunks if c.is_continuation and "```csharp" in c.content_original[:20]]
    assert pieces
    for chunk in pieces:
        assert "1. Copy the following code to `predictor.cs` in your project folder.\n   ```csharp" in (
            chunk.content_for_embedding
        )
    assert "broken-fence" not in _codes(result)


def test_the_streamed_path_and_the_pulldown_cmark_path_embed_the_same() -> None:
    text = _steps()
    expected = [c.to_dict() for c in _chunks(text)]
    assert [c.to_dict() for c in StreamedChunks(text, CFG, "g", "g.md")] == expected
    assert [c.to_dict() for c in _chunks(text, replace(CFG, parser="pulldown-cmark"))] == expected


_item = st.text(st.sampled_from("abc xyz`*_-"), min_size=1, max_size=80).map(lambda s: s.strip() or "x")


@settings(max_examples=60, deadline=None)
@given(
    leads=st.lists(_item, min_size=1, max_size=4),
    nested=st.integers(min_value=2, max_value=8),
    marker=st.sampled_from(["1.", "-", "*", "10)"]),
    max_chars=st.integers(min_value=250, max_value=700),
)
def test_leads_change_only_what_is_embedded_and_keep_every_chunk_within_max_chars(
    leads: list[str], nested: int, marker: str, max_chars: int
) -> None:
    pad = " " * (len(marker) + 1)
    lines = ["## Section", ""]
    for lead in leads:
        lines += [f"{marker} {lead}", ""]
        lines += [f"{pad}- inner {j} {WORDS[: 60 + 29 * j]}\n" for j in range(nested)]  # about half split
    text = "\n".join(lines) + "\n"
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
    off = replace(cfg, embedding_item_leads=False)
    on_run, off_run = _run(text, cfg), _run(text, off)
    assert [c.content_original for c in on_run.chunks] == [c.content_original for c in off_run.chunks]
    for on, plain in zip(on_run.chunks, off_run.chunks, strict=True):
        assert on.size <= max(max_chars, plain.size)
        if on.content_for_embedding != plain.content_for_embedding:  # only words inserted after a marker
            assert on.is_continuation
            ops = difflib.SequenceMatcher(None, plain.content_for_embedding, on.content_for_embedding, False)
            assert {tag for tag, *_ in ops.get_opcodes()} == {"equal", "insert"}
    assert _codes(on_run) == _codes(off_run)


def _callout(first: str, prefix: str = "") -> str:
    sentences = " ".join(f"Sentence {i} of the warning body says what to do." for i in range(9))
    body = f"\n{prefix}>\n".join(f"{prefix}> {sentences}" for _ in range(4))
    return f"# Guide\n\n## Setup\n\n{prefix}> {first}\n{body}\n\nAfter.\n"


def test_a_piece_cut_from_inside_a_callout_embeds_its_title_line() -> None:
    for first in ("[!WARNING]", "[!tip]- Back up the database first", "[!note] Title"):
        result = _run(_callout(first))
        pieces = [c for c in result.chunks if c.is_continuation and c.content_original.startswith("> Sentence")]
        assert len(pieces) >= 2, first
        for chunk in pieces:
            assert f"\n\n> {first}\n> Sentence " in chunk.content_for_embedding, first  # after the context line
            assert first not in chunk.content_original  # the source slice is as before: quotes need no line
        off = _run(_callout(first), replace(CFG, embedding_item_leads=False))
        assert [c.content_original for c in off.chunks] == [c.content_original for c in result.chunks]
        assert all(first not in c.content_for_embedding for c in off.chunks if c.is_continuation)
        assert _codes(result) == _codes(off)


def test_a_plain_quote_embeds_no_extra_line() -> None:
    plain = _run(_callout("An ordinary first sentence of a quote."))
    off = _run(_callout("An ordinary first sentence of a quote."), replace(CFG, embedding_item_leads=False))
    assert [c.content_for_embedding for c in plain.chunks] == [c.content_for_embedding for c in off.chunks]


def test_a_callout_in_a_list_item_embeds_the_item_lead_then_the_callout_title() -> None:
    text = _callout("[!IMPORTANT]", prefix="   ").replace("## Setup\n\n", "## Setup\n\n1. Install the server:\n\n")
    chunks = [c for c in _chunks(text) if c.is_continuation and c.content_original.startswith("1.")]
    assert chunks
    for chunk in chunks:
        assert "1. Install the server:\n   > [!IMPORTANT]\n   > Sentence " in chunk.content_for_embedding


def test_callout_titles_are_the_same_on_the_streamed_and_pulldown_cmark_paths() -> None:
    text = _callout("[!tip] Title")
    expected = [c.to_dict() for c in _chunks(text)]
    assert [c.to_dict() for c in StreamedChunks(text, CFG, "g", "g.md")] == expected
    assert [c.to_dict() for c in _chunks(text, replace(CFG, parser="pulldown-cmark"))] == expected


@settings(max_examples=60, deadline=None)
@given(
    first=st.sampled_from(["[!NOTE]", "[!tip]- Title", "[!warning] *Be careful*", "Plain", "[!x]+"]),
    indent=st.sampled_from(["", "   ", "> "]),
    item=st.booleans(),
    lines=st.integers(min_value=3, max_value=12),
    max_chars=st.integers(min_value=200, max_value=700),
)
def test_callout_titles_change_only_what_is_embedded_and_keep_every_chunk_within_max_chars(
    first: str, indent: str, item: bool, lines: int, max_chars: int
) -> None:
    head = "1. Step one:\n\n" if item and indent == "   " else ""
    body = "".join(f"{indent}> Line {j} {WORDS[: 40 + 17 * j]}.\n" for j in range(lines))
    text = f"## Section\n\n{head}{indent}> {first}\n{body}\nAfter.\n"
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
    on_run, off_run = _run(text, cfg), _run(text, replace(cfg, embedding_item_leads=False))
    assert [c.content_original for c in on_run.chunks] == [c.content_original for c in off_run.chunks]
    for on, plain in zip(on_run.chunks, off_run.chunks, strict=True):
        assert on.size <= max(max_chars, plain.size)
        if on.content_for_embedding != plain.content_for_embedding:
            assert on.is_continuation and (first.startswith("[!") or head)  # a callout's line, an item's lead
            ops = difflib.SequenceMatcher(None, plain.content_for_embedding, on.content_for_embedding, False)
            assert {tag for tag, *_ in ops.get_opcodes()} == {"equal", "insert"}
    assert _codes(on_run) == _codes(off_run)
