"""The garbage collector is paused while a document is chunked, and restored after."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.core import chunk_source
from chunker.gcpause import collector_paused


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_collector_is_off_during_the_call_and_on_after(collector_on: None) -> None:
    seen: list[bool] = []
    collector_paused(lambda: seen.append(gc.isenabled()))()
    assert seen == [False]
    assert gc.isenabled()


def test_collector_is_on_again_after_an_exception(collector_on: None) -> None:
    def fail() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError):
        collector_paused(fail)()
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off(collector_on: None) -> None:
    gc.disable()
    chunk_source(b"# Title\n\nText.\n", doc_id="a", source_path="a.md", config=ChunkerConfig())
    assert not gc.isenabled()


def test_chunk_source_restores_the_collector(collector_on: None) -> None:
    outcome = chunk_source(b"# Title\n\nText.\n", doc_id="a", source_path="a.md", config=ChunkerConfig())
    assert outcome.status == "chunked"
    assert gc.isenabled()


def test_a_document_of_the_command_is_read_chunked_and_written_with_the_collector_off(
    collector_on: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paused around chunk_source alone, the collections right after it walked all of its chunks."""
    import chunker.runner_document as runner
    from chunker.sources import SourceFile

    seen: list[tuple[str, bool]] = []
    read_previous, writer = runner.read_previous, runner._stream_writer

    def reading(folder: Path, **options: Any) -> Any:
        seen.append(("read", gc.isenabled()))
        return read_previous(folder, **options)

    def writing(*args: Any) -> Any:
        write = writer(*args)

        def wrapped(*args: Any) -> Any:
            seen.append(("write", gc.isenabled()))
            return write(*args)

        return wrapped

    monkeypatch.setattr(runner, "read_previous", reading)
    monkeypatch.setattr(runner, "_stream_writer", writing)
    (tmp_path / "sources").mkdir()
    source = tmp_path / "sources" / "a.md"
    source.write_text("# Title\n\nText.\n", encoding="utf-8")
    done = runner.process_document(
        SourceFile("a", source, "sources/a.md"), ChunkerConfig(), tmp_path / "sources", tmp_path / "chunks", True
    )
    assert done.status == "new" and (tmp_path / "chunks" / "a" / "chunks.json").is_file()
    assert seen == [("read", False), ("write", False)]
    assert gc.isenabled()
