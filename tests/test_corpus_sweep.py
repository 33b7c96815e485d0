"""The whole ../shared/corpus chunked with the default options and small sizes: zero validator errors,
zero lost lines, zero exceptions. Part of the default suite (~25 s on the 2-core machine): a regression
of the block builder lost a line of one corpus document and only this sweep would have told
(``pytest tests/test_corpus_sweep.py -s`` prints the figures)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.errors import SourceError
from chunker.pipeline import chunk_markdown
from chunker.reader import decode_source

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

pytestmark = [pytest.mark.shared]


@pytest.mark.parametrize(
    "cfg",
    [ChunkerConfig(), ChunkerConfig(min_chars=50, target_chars=200, max_chars=300, section_level="auto")],
    ids=["default", "small-auto"],
)
def test_the_whole_corpus_is_chunked_without_errors_loss_or_exceptions(cfg: ChunkerConfig) -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    files = sorted(CORPUS.rglob("*.md"))
    errors: list[str] = []
    lost: list[str] = []
    exceptions: list[str] = []
    refused: list[str] = []
    chunks = warnings = size = 0
    started = time.perf_counter()
    for path in files:
        rel = str(path.relative_to(CORPUS))
        data = path.read_bytes()
        size += len(data)
        try:
            source = decode_source(data, rel, cfg.max_file_bytes)
            result = chunk_markdown(source.text, cfg, "doc", rel)
        except SourceError as exc:
            refused.append(str(exc))
            continue
        except Exception as exc:  # the sweep counts every exception instead of stopping at the first
            exceptions.append(f"{rel}: {type(exc).__name__}: {exc}")
            continue
        chunks += len(result.chunks)
        warnings += len(result.diagnostics.warnings)
        errors.extend(f"{rel}:{d.line}: {d.code}: {d.message}" for d in result.diagnostics.errors)
        lost.extend(f"{rel}:{d.line}: {d.message}" for d in result.diagnostics.diagnostics if d.code == "content-loss")
    seconds = time.perf_counter() - started
    print(
        f"\ncorpus sweep: {len(files)} files, {size / 2**20:.1f} MiB, {chunks} chunks, {warnings} warnings, "
        f"{len(errors)} validator errors, {len(lost)} lost-line findings, {len(exceptions)} exceptions, "
        f"{len(refused)} refused sources, {seconds:.1f} s"
    )
    assert exceptions == [], exceptions[:5]
    assert errors == [], errors[:5]
    assert lost == [], lost[:5]
    assert refused == [], refused[:5]
