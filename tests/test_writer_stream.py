"""The streamed writer: chunks.json written as its parts come, with the same all-or-nothing
guarantees as ``write_document``, and the runner's artifacts equal to the library's."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from datetime import datetime, tzinfo
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.core import build_artifacts, chunk_source, chunks_bytes, chunks_parts, other_artifacts, released_parts
from chunker.errors import OutputError
from chunker.writer import write_document
from chunker.writer_stream import write_streamed

NAMES = ("chunks.json", "meta.json", "report.json")


def _set(folder: Path) -> dict[str, bytes]:
    """The artifacts and temporary files in ``folder`` (not its lock file)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name in NAMES or p.name.endswith(".tmp")}


def _finish(keep: bool, seen: list[tuple[str, int]]) -> object:
    def finish(sha256: str, size: int) -> tuple[bool, Mapping[str, bytes]]:
        seen.append((sha256, size))
        return keep, {"meta.json": b"meta " + sha256.encode(), "report.json": b"report"}

    return finish


def test_the_streamed_artifact_is_hashed_and_written_with_the_others(tmp_path: Path) -> None:
    parts = [b"[", b"1,", b"2", b"]\n"]
    seen: list[tuple[str, int]] = []
    wrote = write_streamed(tmp_path / "d", "chunks.json", iter(parts), _finish(True, seen), "d")  # type: ignore[arg-type]
    data = b"".join(parts)
    assert wrote and seen == [(hashlib.sha256(data).hexdigest(), len(data))]
    assert _set(tmp_path / "d") == {
        "chunks.json": data,
        "meta.json": b"meta " + seen[0][0].encode(),
        "report.json": b"report",
    }


def test_an_artifact_not_kept_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    write_document(folder, {"chunks.json": b"old", "meta.json": b"m", "report.json": b"r"}, "d")
    seen: list[tuple[str, int]] = []
    write_streamed(folder, "chunks.json", iter([b"new"]), _finish(False, seen), "d", run_locked=True)  # type: ignore[arg-type]
    files = _set(folder)
    assert files["chunks.json"] == b"old" and files["report.json"] == b"report"
    assert not [name for name in files if name.endswith(".tmp")]


@pytest.mark.parametrize("where", ["parts", "finish"])
def test_a_failure_while_streaming_leaves_the_previous_set_and_no_temporary_file(tmp_path: Path, where: str) -> None:
    folder = tmp_path / "d"
    old = {"chunks.json": b"old", "meta.json": b"m", "report.json": b"r"}
    write_document(folder, old, "d")

    def parts() -> Iterator[bytes]:
        yield b"[1,"
        if where == "parts":
            raise MemoryError
        yield b"2]"

    def finish(sha256: str, size: int) -> tuple[bool, Mapping[str, bytes]]:
        raise MemoryError

    with pytest.raises(MemoryError):
        write_streamed(folder, "chunks.json", parts(), finish, "d")
    assert _set(folder) == old


def test_a_streamed_artifact_name_must_be_a_plain_file_name(tmp_path: Path) -> None:
    with pytest.raises(OutputError):
        write_streamed(tmp_path, "../x", iter([b"x"]), _finish(True, []), "d")  # type: ignore[arg-type]


def test_the_parts_and_the_other_artifacts_are_the_library_artifacts(monkeypatch: pytest.MonkeyPatch) -> None:
    # meta.json's created_at is the clock's second: two builds a second apart gave two meta.json hashes in
    # report.json (the full suite failed now and then under load); both builds read one frozen clock
    import chunker.core

    class Frozen(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> Frozen:
            return cls(2026, 12, 3, 17, 0, 0, tzinfo=tz)

    monkeypatch.setattr(chunker.core, "datetime", Frozen)
    text = "".join(f"## Part {k}\n\nParagraph {k} with some words.\n\n" for k in range(700))  # several batches
    outcome = chunk_source(text.encode(), doc_id="d", source_path="d.md", config=ChunkerConfig())
    streamed = chunk_source(text.encode(), doc_id="d", source_path="d.md", config=ChunkerConfig(), build=False)
    assert streamed.artifacts == {} and streamed.result is not None and outcome.result is not None
    assert len(outcome.chunks) > 512
    whole = b"".join(chunks_parts(streamed.result))
    assert whole == chunks_bytes(streamed.result) == outcome.artifacts["chunks.json"]
    handed = list(streamed.result.chunks)
    assert b"".join(released_parts(handed)) == whole and handed == []  # each batch dropped once written
    others = other_artifacts(
        streamed.result, ChunkerConfig(), streamed.source_sha256, hashlib.sha256(whole).hexdigest(), len(whole)
    )
    built = build_artifacts(outcome.result, ChunkerConfig(), outcome.source_sha256)
    assert others["report.json"] == built["report.json"]
    assert others["meta.json"] == built["meta.json"]
