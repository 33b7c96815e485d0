"""Helpers of the batch tests: a generated corpus, the main command's chunks, the batch's chunks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from chunker.batch.store import CHUNK_COLUMNS
from chunker.cli import run_cli

UTF16 = "# Titel\n\nText in UTF-16.\n".encode("utf-16")
"""A UTF-16 file with its byte-order mark: the main command refuses it (exit 3, naming the file)."""


def document(k: int) -> str:
    """A Markdown document of a few sections, different for every ``k``."""
    parts = [f"# Guide {k}\n\nThe guide number {k} explains topic {k * 7 % 11}.\n"]
    for s in range(1 + k % 4):
        parts.append(f"\n## Section {s} of {k}\n\n" + " ".join(f"Sentence {i} about item {k}-{s}." for i in range(9)))
        if (k + s) % 3 == 0:
            parts.append("\n\n```python\nprint(" + str(k) + ")\n```\n")
        if (k + s) % 5 == 0:
            parts.append("\n\n| a | b |\n|---|---|\n| " + str(k) + " | " + str(s) + " |\n")
    return "".join(parts) + "\n"


def make_corpus(folder: Path, count: int = 40, bad: bool = True) -> None:
    """``count`` documents ``doc-NN.md`` (plus ``utf16.md`` and an empty ``empty.md`` with ``bad``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        (folder / f"doc-{k:02d}.md").write_text(document(k), encoding="utf-8")
    if bad:
        (folder / "utf16.md").write_bytes(UTF16)
        (folder / "empty.md").write_bytes(b"")


def cli_chunks(sources: Path, out: Path, capsys: Any = None) -> tuple[int, dict[str, list[dict[str, Any]]], str]:
    """(exit code, chunks.json objects by stem, stderr) of the main command on ``sources``."""
    code = run_cli(["--sources", str(sources), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err if capsys is not None else ""
    found = {p.parent.name: orjson.loads(p.read_bytes()) for p in sorted(out.glob("*/chunks.json"))}
    return code, found, err


def batch_chunks(out: Path) -> dict[str, list[dict[str, Any]]]:
    """The batch output's current chunks by doc_id, without the batch-only columns (so they
    compare with chunks.json objects)."""
    from chunker.batch import read_chunks

    found: dict[str, list[dict[str, Any]]] = {}
    for row in read_chunks(str(out)).to_pylist():
        found.setdefault(row["doc_id"], []).append({k: v for k, v in row.items() if k not in CHUNK_COLUMNS})
    return found


def manifest(out: Path) -> dict[str, dict[str, Any]]:
    import pyarrow.parquet as pq

    return {r["doc_id"]: r for r in pq.read_table(out / "documents" / "manifest.parquet").to_pylist()}
