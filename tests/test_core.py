"""The pure per-document core: ``chunk_source`` gives the CLI's artifacts and never raises."""

from __future__ import annotations

import codecs
from pathlib import Path

import orjson
import pytest

import chunker
from chunker import DocumentOutcome, chunk_source
from chunker.config import ChunkerConfig
from chunker.errors import EXIT_INTERNAL, EXIT_OK, EXIT_SOURCE
from chunker.plaintext import chunk_text
from chunker.runner import run
from chunker.settings import Settings

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))


def _without(data: bytes, *path: str) -> object:
    value = orjson.loads(data)
    target = value
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return value


@pytest.mark.parametrize("case", CASES)
def test_chunk_source_gives_the_artifacts_the_cli_writes(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = (GOLDEN / f"{case}.md").read_bytes()
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / f"{case}.md").write_bytes(raw)
    monkeypatch.chdir(tmp_path)
    summary = run(Settings(defaults=ChunkerConfig()), Path("sources"), Path("chunks"))
    assert [d.status for d in summary.documents] == ["new"]
    written = {
        name: (tmp_path / "chunks" / case / name).read_bytes() for name in ("chunks.json", "meta.json", "report.json")
    }

    outcome = chunk_source(raw, doc_id=case, source_path=f"sources/{case}.md", config=ChunkerConfig())

    assert outcome.status == "chunked"
    assert outcome.exit_code == summary.exit_code
    assert list(outcome.artifacts) == ["chunks.json", "meta.json", "report.json"]
    assert outcome.artifacts["chunks.json"] == written["chunks.json"]
    # meta.json differs only in its creation time, report.json only in meta.json's hash
    assert _without(outcome.artifacts["meta.json"], "created_at") == _without(written["meta.json"], "created_at")
    assert _without(outcome.artifacts["report.json"], "artifacts", "meta.json") == _without(
        written["report.json"], "artifacts", "meta.json"
    )
    assert outcome.fingerprint == orjson.loads(written["meta.json"])["fingerprint"]
    assert outcome.source_sha256 == orjson.loads(written["meta.json"])["source_sha256"]
    assert len(outcome.chunks) == orjson.loads(written["meta.json"])["total_chunks"]


def test_a_txt_path_selects_the_plain_text_reader() -> None:
    raw = b"1. INTRODUCTION\n\nSome text of the first part.\n\n2. DETAILS\n\nMore text here.\n"
    cfg = ChunkerConfig()
    outcome = chunk_source(raw, doc_id="notes", source_path="sources/notes.txt", config=cfg)
    expected = chunk_text(raw.decode(), cfg, "notes", "sources/notes.txt")
    assert outcome.chunks == expected.chunks
    as_markdown = chunk_source(raw, doc_id="notes", source_path="sources/notes.md", config=cfg)
    assert as_markdown.chunks != expected.chunks


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (codecs.BOM_UTF16_LE + "# Title\n".encode("utf-16-le"), "UTF-16"),
        (b"# Title\n\ncaf\xe9\n", "sources/bad.md:3: invalid UTF-8 byte 0xe9"),
        (b"x" * 100, "more than the limit of 64 bytes"),
    ],
)
def test_a_bad_document_is_a_failed_outcome_with_the_cli_message(raw: bytes, expected: str) -> None:
    outcome = chunk_source(raw, doc_id="bad", source_path="sources/bad.md", config=ChunkerConfig(max_file_bytes=64))
    assert outcome.status == "failed"
    assert outcome.exit_code == EXIT_SOURCE
    assert expected in outcome.message
    assert outcome.message.startswith("sources/bad.md")
    assert outcome.artifacts == {}
    assert outcome.chunks == ()


def test_an_internal_error_is_a_failed_outcome_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    import chunker.pipeline

    def broken(*args: object, **kwargs: object) -> object:
        raise ValueError("boom")

    monkeypatch.setattr(chunker.pipeline, "chunk_markdown", broken)
    outcome = chunk_source(b"# T\n\ntext\n", doc_id="x", source_path="docs/x.md", config=ChunkerConfig())
    assert (outcome.status, outcome.exit_code) == ("failed", EXIT_INTERNAL)
    assert outcome.message == "docs/x.md: internal error: ValueError: boom (please report it with the input)"


def test_strategy_off_gives_no_chunks_and_no_artifacts() -> None:
    outcome = chunk_source(b"# T\n\ntext\n", doc_id="x", source_path="x.md", config=ChunkerConfig(strategy="off"))
    assert (outcome.status, outcome.exit_code, outcome.artifacts, outcome.chunks) == ("off", EXIT_OK, {}, ())


def test_notes_of_the_caller_go_into_the_report() -> None:
    from chunker.models import Diagnostic

    note = Diagnostic("warning", "case-collision", "clash")
    outcome = chunk_source(b"# T\n\ntext\n", doc_id="x", source_path="x.md", config=ChunkerConfig(), notes=(note,))
    assert note in outcome.diagnostics
    report = orjson.loads(outcome.artifacts["report.json"])
    assert [w["code"] for w in report["warnings"]] == ["case-collision"]


def test_the_core_is_public_in_the_chunker_namespace() -> None:
    assert {"chunk_source", "DocumentOutcome"} <= set(chunker.__all__)
    assert chunker.DocumentOutcome is DocumentOutcome


@pytest.mark.parametrize("sections", [0, 1, 255, 256, 257, 700])
def test_chunks_json_built_a_batch_at_a_time_is_the_json_of_the_whole_list(sections: int) -> None:
    from chunker.core import chunks_bytes, dumps

    part = '## Part {i}\n\nSome text of part {i}, with "quotes"\nand a line break.\n\n'
    text = "".join(part.format(i=i) for i in range(sections))
    outcome = chunk_source(text.encode(), doc_id="d", source_path="d.md", config=ChunkerConfig())
    assert outcome.result is not None and len(outcome.chunks) == sections
    whole = orjson.dumps([c.to_dict() for c in outcome.chunks], option=orjson.OPT_INDENT_2) + b"\n"
    assert chunks_bytes(outcome.result) == whole == outcome.artifacts["chunks.json"]
    assert dumps({"a": [1]}) == b'{\n  "a": [\n    1\n  ]\n}\n'
