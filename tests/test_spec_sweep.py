"""Every example of the CommonMark spec chunked alone, and the whole spec as one document:
no error diagnostics, no lost text, each chunk its exact source slice (plus declared
added lines), fences balanced. Like mdformat's tests/test_commonmark_spec.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.fences import is_balanced
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown

SPEC = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "commonmark-spec" / "spec.txt"
"""The whole spec as one document (the examples alone are vendored: :data:`SPEC_JSON`)."""
SPEC_JSON = Path(__file__).resolve().parent / "data" / "commonmark-spec" / "spec.json"
"""The spec's 655 examples, dumped by commonmark-spec's own ``test/spec_tests.py --dump-tests``."""
CONFIGS = {
    "default": ChunkerConfig(),
    "tight": ChunkerConfig(min_chars=10, target_chars=30, max_chars=40),
}


def spec_examples() -> list[tuple[int, int, str]]:
    """(example number, line in spec.txt of its first line, markdown) of every example."""
    examples = json.loads(SPEC_JSON.read_text(encoding="utf-8"))
    return [(e["example"], e["start_line"] + 1, e["markdown"]) for e in examples]


EXAMPLES = spec_examples()


def assert_invariants(result: ChunkingResult, text: str) -> None:
    # unclosed-fence reports the source (examples 126-128, 139, 320, 326 leave a fence open), not the chunks
    errors = [(d.code, d.line, d.message) for d in result.diagnostics.errors if d.code != "unclosed-fence"]
    assert errors == []
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    source = text.replace("\r\n", "\n").replace("\r", "\n")
    covered = bytearray(len(source))
    for chunk in result.chunks:
        body = chunk.content_original
        for added in chunk.added_lines:
            body = body[len(added.text) :] if added.position == "before" else body[: len(body) - len(added.text)]
        assert body == source[chunk.start_offset : chunk.end_offset]
        assert is_balanced(chunk.content_original)
        covered[chunk.start_offset : chunk.end_offset] = b"\x01" * (chunk.end_offset - chunk.start_offset)
    for skipped in result.diagnostics.skipped:
        covered[skipped.start_offset : skipped.end_offset] = b"\x01" * (skipped.end_offset - skipped.start_offset)
    lost = [i for i, char in enumerate(source) if not char.isspace() and not covered[i]]
    assert lost == []


def test_the_spec_has_its_six_hundred_and_more_examples() -> None:
    assert len(EXAMPLES) >= 650
    assert [number for number, _, _ in EXAMPLES] == list(range(1, len(EXAMPLES) + 1))


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_spec_example_alone_keeps_every_invariant(config: str) -> None:
    failures = []
    for number, line, text in EXAMPLES:
        try:
            assert_invariants(chunk_markdown(text, CONFIGS[config], "spec", "spec.md"), text)
        except AssertionError as exc:
            failures.append(f"example {number} (spec.txt line {line}): {exc}")
    assert failures == [], "\n".join(failures[:10])


@pytest.mark.shared
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_the_whole_spec_as_one_document_keeps_every_invariant(config: str) -> None:
    text = SPEC.read_text(encoding="utf-8")
    result = chunk_markdown(text, CONFIGS[config], "spec", "spec.md")
    assert_invariants(result, text)
    assert len(result.chunks) > 100
