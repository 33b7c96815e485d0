"""An export holds one document's files at a time: every document is read and rendered once to know
what it writes (only the hashes of its files are kept), then again as it is written. Its peak
memory grows with the largest document (and a few bytes per file: the manifest's hashes, the files
it reports), not with all it writes: an export of MDN's 14,246 documents (385 MB of JSON Lines)
held 1 GB when every document's files were rendered before the first was written."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.export import export
from chunker.runner import run
from chunker.settings import Settings

PAGE = "# Page {n}\n\n" + "".join(
    f"## Section {k}\n\n" + " ".join(f"Sentence {k}.{j} of page {{n}} says something." for j in range(40)) + "\n\n"
    for k in range(12)
)


@pytest.mark.parametrize("fmt", ["jsonl", "md"])
def test_the_peak_memory_of_an_export_is_not_a_multiple_of_what_it_writes(tmp_path: Path, fmt: str) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    for n in range(60):
        (sources / f"p{n:02d}.md").write_text(PAGE.format(n=n), encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(Settings(defaults=ChunkerConfig()), sources, out, ()).exit_code == 0
    export(out, tmp_path / "warm", fmt)  # the modules an export imports, loaded before the count
    vault = tmp_path / "vault"
    tracemalloc.start()
    try:
        done = export(out, vault, fmt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    written = sum(path.stat().st_size for doc in done for path in doc.written)
    assert len(done) == 60 and written > 1_000_000
    assert peak < 2 * written, (peak, written)  # 3 and 6 times what it wrote when every file was held
    again = export(out, vault, fmt)  # the same bytes: nothing rewritten
    assert all(doc.unchanged == doc.written for doc in again)
