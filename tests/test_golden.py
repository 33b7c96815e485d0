"""Golden files: tests/golden/<case>.md next to <case>.json.

Regenerate with `python -m pytest tests/test_golden.py --update-golden` and review the diff.
Invariants are asserted before the comparison, so a regenerated golden never blesses a loss.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import dumps
from chunker.pipeline import chunk_markdown

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))


def golden_payload(case: str) -> bytes:
    text = (GOLDEN / f"{case}.md").read_text(encoding="utf-8")
    result = chunk_markdown(text, ChunkerConfig(), case, f"tests/golden/{case}.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    return dumps(
        {
            "chunks": [c.to_dict() for c in result.chunks],
            "diagnostics": [d.to_dict() for d in result.diagnostics.diagnostics],
            "metrics": result.diagnostics.metrics,
            "skipped": [s.to_dict() for s in result.diagnostics.skipped],
            "document_metadata": result.document_metadata,
        }
    )


@pytest.mark.parametrize("case", CASES)
def test_output_matches_the_reviewed_golden_file(case: str, update_golden: bool) -> None:
    actual = golden_payload(case)
    expected_path = GOLDEN / f"{case}.json"
    if update_golden or not expected_path.exists():
        expected_path.write_bytes(actual)
        if not update_golden:
            pytest.fail(f"{expected_path.name} did not exist; written now, review and commit it")
    assert orjson.loads(actual) == orjson.loads(expected_path.read_bytes())
    assert actual == expected_path.read_bytes()


def test_every_golden_input_has_its_expected_output() -> None:
    assert CASES
    for case in CASES:
        assert (GOLDEN / f"{case}.json").exists(), case
