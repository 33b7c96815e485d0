"""What a team feeding a vector store from chunks/ reads: the messages of the fail_on_* gates
(eyes14's trial on prometheus/docs)."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def _overflow_messages(text: str, cfg: ChunkerConfig) -> list[str]:
    result = chunk_markdown(text, cfg, "d", "d.md")
    return [d.message for d in result.diagnostics.diagnostics if d.code == "overflow"]


def test_a_block_under_max_chars_is_not_called_larger_than_max_chars() -> None:
    # prometheus/docs' PromCon post under max_chars 1000: a tweet's HTML block of 990 characters is
    # over only with its chunk's context line; it said "(990 chars) is larger than max_chars (1000)"
    html = '<blockquote class="tweet"><p>' + "w" * 950 + "</p></blockquote>"
    text = f"# PromCon 2016 - It's a wrap!\n\n## What happened\n\nSome words.\n\n{html}\n\nMore words.\n"
    cfg = ChunkerConfig(max_chars=1000, target_chars=800, min_chars=80)
    found = _overflow_messages(text, cfg)
    assert len(found) == 1, found
    assert "is larger than max_chars" not in found[0], found
    assert f"({len(html)} chars) does not fit in max_chars (1000) with the chunk's context line" in found[0], found


def test_a_block_over_max_chars_is_still_larger_than_max_chars() -> None:
    html = '<blockquote class="tweet"><p>' + "w" * 1100 + "</p></blockquote>"
    text = f"# Title\n\n## What happened\n\n{html}\n"
    found = _overflow_messages(text, ChunkerConfig(max_chars=1000, target_chars=800, min_chars=80))
    assert len(found) == 1 and f"({len(html)} chars) is larger than max_chars (1000)" in found[0], found
