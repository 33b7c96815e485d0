"""The CommonMark spec at small budgets: every example alone, all of them as one document, and the
spec's own text, chunked with max_chars down to 30, and no piece may render otherwise than its
source slice (no ``rendering-changed`` finding, an error by default).

Below 30 characters the context line and the containers a piece re-opens leave a piece a few
characters; what still fails there is listed in :data:`BELOW`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

SPEC_JSON = Path(__file__).resolve().parent / "data" / "commonmark-spec" / "spec.json"
SPEC = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "commonmark-spec" / "spec.txt"
EXAMPLES: list[dict[str, object]] = json.loads(SPEC_JSON.read_text(encoding="utf-8"))
BUDGETS = (30, 40, 60, 100)


def _cfg(max_chars: int) -> ChunkerConfig:
    return ChunkerConfig(min_chars=min(10, max_chars // 4), target_chars=max_chars * 3 // 4, max_chars=max_chars)


def _findings(text: str, cfg: ChunkerConfig) -> list[str]:
    result = chunk_markdown(text, cfg, "spec", "spec.md")
    return [f"line {d.line}: {d.message}" for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]


@pytest.mark.parametrize("max_chars", BUDGETS)
def test_every_spec_example_alone_renders_as_its_source(max_chars: int) -> None:
    cfg = _cfg(max_chars)
    failures = [f"example {e['example']}: {m}" for e in EXAMPLES for m in _findings(str(e["markdown"]), cfg)]
    assert failures == []


@pytest.mark.parametrize("max_chars", BUDGETS)
def test_the_spec_examples_as_one_document_render_as_their_source(max_chars: int) -> None:
    document = "\n\n".join(str(e["markdown"]) for e in EXAMPLES)
    assert _findings(document, _cfg(max_chars)) == []


@pytest.mark.shared
@pytest.mark.parametrize("max_chars", (30, 40, 60))
def test_the_whole_spec_text_renders_as_its_source(max_chars: int) -> None:
    assert _findings(SPEC.read_text(encoding="utf-8"), _cfg(max_chars)) == []
