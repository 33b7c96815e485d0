"""Share of chunks within [min_chars, max_chars] over a corpus, with split_oversize off and on.

Usage::

    .venv/bin/python bench/size_compliance.py [CORPUS_DIR] [--jobs N] [--max-chars N] [--min-chars N]

CORPUS_DIR defaults to ../shared/corpus. ``.md`` files go through chunk_markdown, ``.txt`` files
through chunk_text (commonmark-spec's ``spec.txt`` is Markdown in a ``.txt`` file and is chunked as
plain text, as the runner would). Sizes are ``Chunk.chars`` (the embedded text, context prefix
included), the same measure as the ``size_compliance`` metric of report.json.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.plaintext import chunk_text

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def measure(args: tuple[Path, ChunkerConfig]) -> Counter[str]:
    """Counts for one file: chunks, within, under, over (declared overflow), errors."""
    path, cfg = args
    text = path.read_text(encoding="utf-8")
    chunker = chunk_text if path.suffix == ".txt" else chunk_markdown
    result = chunker(text, cfg, path.stem, str(path))
    counts: Counter[str] = Counter()
    for chunk in result.chunks:
        counts["chunks"] += 1
        if chunk.chars > cfg.max_chars:
            counts["over"] += 1
        elif chunk.chars < cfg.min_chars:
            counts["under"] += 1
        else:
            counts["within"] += 1
        counts["overflow"] += chunk.is_overflow
        counts["continuation"] += chunk.is_continuation
    counts["errors"] += len(result.diagnostics.errors)
    counts["files"] += 1
    return counts


def run(corpus: Path, cfg: ChunkerConfig, jobs: int) -> Counter[str]:
    files = sorted(p for p in corpus.rglob("*") if p.suffix in (".md", ".txt") and p.name != "SOURCES.md")
    total: Counter[str] = Counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for counts in pool.map(measure, [(f, cfg) for f in files], chunksize=4):
            total.update(counts)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="chunks within [min_chars, max_chars], split_oversize off vs on")
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--max-chars", type=int, default=ChunkerConfig().max_chars)
    parser.add_argument("--min-chars", type=int, default=ChunkerConfig().min_chars)
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    base = ChunkerConfig(max_chars=args.max_chars, min_chars=args.min_chars)
    target = min(base.target_chars, args.max_chars)
    base = replace(base, target_chars=max(target, args.min_chars))
    print(f"corpus {args.corpus}, min_chars {base.min_chars}, max_chars {base.max_chars}")
    print("| split_oversize | files | chunks | within [min, max] | under min | over max (overflow) | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for split in (False, True):
        t = run(args.corpus, replace(base, split_oversize=split), args.jobs)
        share = 100 * t["within"] / t["chunks"] if t["chunks"] else 100.0
        print(
            f"| {str(split).lower()} | {t['files']} | {t['chunks']} | {t['within']} ({share:.2f} %) "
            f"| {t['under']} | {t['over']} ({t['overflow']}) | {t['errors']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
