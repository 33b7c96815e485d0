"""``--check`` of a document a run would leave as it is (its artifacts intact, its source and the
options fingerprint, which names the chunker version, the ones recorded) says ``ok`` from the
hashes alone, as the run does, and judges the findings report.json recorded under today's
``fail_on_*`` options; it chunks only the other documents. ``--check --force`` chunks every
document again and compares its chunks.json byte for byte with the one on disk."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest

import chunker.runner_document as runner_document
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings

SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))
PAGES = {
    "a.md": "# A\n\n## One\n\nThe first section.\n\n## Two\n\nThe second section.\n",
    "b.md": "# B\n\n## Only\n\n```python\nprint('b')\n```\n",
}


def built(tmp_path: Path) -> tuple[Path, Path]:
    sources = tmp_path / "sources"
    sources.mkdir()
    for name, text in PAGES.items():
        (sources / name).write_text(text, encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(SETTINGS, sources, out).exit_code == 0
    return sources, out


def test_check_of_fresh_documents_chunks_none_of_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sources, out = built(tmp_path)
    chunked: list[str] = []
    real = runner_document.chunk_decoded

    def counted(*args: object, **kwargs: object) -> object:
        chunked.append(str(kwargs["doc_id"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_document, "chunk_decoded", counted)
    checked = run(SETTINGS, sources, out, check=True)
    assert [(d.stem, d.status) for d in checked.documents] == [("a", "ok"), ("b", "ok")]
    assert checked.exit_code == 0 and chunked == []
    (sources / "b.md").write_text(PAGES["b.md"] + "\nMore.\n", encoding="utf-8")
    checked = run(SETTINGS, sources, out, check=True)
    assert [(d.stem, d.status) for d in checked.documents] == [("a", "ok"), ("b", "stale")]
    assert checked.exit_code == 1 and chunked == ["b"]  # only the changed document is chunked
    forced = run(SETTINGS, sources, out, check=True, force=True)
    assert [d.status for d in forced.documents] == ["ok", "stale"] and chunked == ["b", "a", "b"]


def test_check_force_finds_chunks_edited_with_their_recorded_hash(tmp_path: Path) -> None:
    sources, out = built(tmp_path)
    chunks_path, report_path = out / "a" / "chunks.json", out / "a" / "report.json"
    chunks = orjson.loads(chunks_path.read_bytes())
    chunks[0]["content_original"] = "edited by hand"
    edited = orjson.dumps(chunks)
    chunks_path.write_bytes(edited)
    checked = run(SETTINGS, sources, out, check=True)
    assert [d.status for d in checked.documents] == ["stale", "ok"]  # the recorded hash no longer matches
    report = orjson.loads(report_path.read_bytes())
    report["artifacts"]["chunks.json"] = hashlib.sha256(edited).hexdigest()
    report["artifact_sizes"]["chunks.json"] = len(edited)
    report_path.write_bytes(orjson.dumps(report))
    checked = run(SETTINGS, sources, out, check=True)
    assert [d.status for d in checked.documents] == ["ok", "ok"]  # what a run would do: leave it
    assert run(SETTINGS, sources, out).documents[0].status == "unchanged"
    forced = run(SETTINGS, sources, out, check=True, force=True)
    assert [d.status for d in forced.documents] == ["stale", "ok"] and forced.exit_code == 1


def test_check_judges_recorded_findings_under_the_current_policy(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "long.md").write_text("# L\n\n## S\n\n```\n" + "x" * 1000 + "\n```\n", encoding="utf-8")
    out = tmp_path / "chunks"
    lenient = Settings(defaults=ChunkerConfig(min_chars=1, max_chars=300, target_chars=200, fail_on_overflow=False))
    assert run(lenient, sources, out).exit_code == 0
    recorded = orjson.loads((out / "long" / "report.json").read_bytes())["warnings"]
    assert [w["code"] for w in recorded] == ["overflow"]
    strict = Settings(defaults=ChunkerConfig(min_chars=1, max_chars=300, target_chars=200, fail_on_overflow=True))
    checked = run(strict, sources, out, check=True)
    assert [d.status for d in checked.documents] == ["ok"] and checked.exit_code == 1
    assert run(lenient, sources, out, check=True).exit_code == 0
