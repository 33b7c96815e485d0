"""The garbage collector is paused while a document is chunked, and restored after."""

from __future__ import annotations

import gc
from collections.abc import Iterator

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
