"""The pack stage as a package: section identity, boundary strengths, keyword-built values."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Chunk
from chunker.pack.strength import BEFORE_HEADING, Strength
from chunker.pipeline import chunk_markdown


def test_two_sections_with_equal_text_are_two_sections_for_keys_and_overlap() -> None:
    # The two sections are equal values (same title, same text); keys and overlap tell them apart
    # by their place in the document, not by their value.
    paragraph = " ".join(f"Sentence {n} says something about the topic at hand." for n in range(12))
    text = f"# Doc\n\n## Same\n\n{paragraph}\n\n{paragraph}\n\n## Same\n\n{paragraph}\n\n{paragraph}\n"
    cfg = ChunkerConfig.from_mapping(
        {"max_chars": 800, "target_chars": 600, "min_chars": 40, "overlap_sentences": 1, "context_prefix": "none"}
    )
    chunks = chunk_markdown(text, cfg, stem="doc", source_path="doc.md").chunks
    keys = [c.chunk_key for c in chunks]
    assert len(set(keys)) == len(keys)
    first = [c for c in chunks if "@" not in c.chunk_key]
    second = [c for c in chunks if c.chunk_key.startswith("doc/same@2")]
    assert len(first) >= 2 and len(second) >= 2
    for chunk in (*first[1:], *second[1:]):  # overlap within a section
        assert chunk.content_for_embedding != chunk.content_original
    opening = second[0]  # the first chunk of the second section carries nothing of the first
    assert opening.content_for_embedding == opening.content_original


def test_boundary_strengths_are_ordered_as_documented() -> None:
    order = [
        Strength.HARD,
        Strength.WORD,
        Strength.CODE_LINE,
        Strength.SENTENCE,
        Strength.CODE_LINE_LOW_INDENT,
        Strength.JOINT,
        Strength.INTRODUCED,
        Strength.BLOCK,
        *(BEFORE_HEADING[level] for level in range(6, 0, -1)),
    ]
    assert order == sorted(order) and len(set(order)) == len(order)
    assert Strength.NESTED_ITEM == Strength.CODE_LINE_LOW_INDENT
    assert BEFORE_HEADING[1].name == "HEADING_1" and BEFORE_HEADING[6] > Strength.BLOCK


def test_a_chunk_cannot_be_built_with_positional_fields() -> None:
    with pytest.raises(TypeError):
        Chunk("chk_000001", 0)  # type: ignore[misc]
