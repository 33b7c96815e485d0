"""Retrieval with and without the document title in the context line (``context_title``).

    .venv/bin/python bench/context_title.py [--cases FILE.jsonl ...] [--corpus ../shared/corpus]

Each case set of ``bench/eval_compare.py`` (dev, held-out, test by default) is chunked twice with
the default config, once with ``context_title: true`` (the default) and once with ``false``, and
scored by the same BM25 retriever (``chunker.evaluate``), all documents of a set in one index.
Prints one Markdown table: per set and pooled over all cases, section hit@1, section hit@5, text
hit@5 and MRR@10 for both settings.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from eval_compare import DEFAULT_CASES, DEFAULT_CORPUS, K, load_set  # noqa: E402

from chunker.config import ChunkerConfig  # noqa: E402
from chunker.evaluate import CaseResult, evaluate, summarize  # noqa: E402
from chunker.pipeline import chunk_markdown  # noqa: E402


def results(case_set_path: Path, corpus: Path, cfg: ChunkerConfig) -> tuple[str, list[CaseResult], int]:
    case_set = load_set(case_set_path, corpus)
    chunks = {
        stem: [c.to_dict() for c in chunk_markdown(text, cfg, stem, path).chunks]
        for stem, (path, text) in sorted(case_set.sources.items())
    }
    report = evaluate(case_set.cases, chunks, k=K)
    return case_set.name, list(report.results), report.chunk_count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, action="append")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    settings = {"with title": ChunkerConfig(), "without title": replace(ChunkerConfig(), context_title=False)}
    print(f"| set | context line | cases | chunks | section hit@1 | section hit@{K} | text hit@{K} | MRR@10 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    pooled: dict[str, list[CaseResult]] = {label: [] for label in settings}
    for path in args.cases or DEFAULT_CASES:
        for label, cfg in settings.items():
            name, found, count = results(path, args.corpus, cfg)
            pooled[label].extend(found)
            t = summarize(found)
            print(
                f"| {name} | {label} | {t.cases} | {count} | {t.section_hit_at_1:.3f} | {t.section_hit_at_k:.3f} | "
                f"{t.text_hit_at_k:.3f} | {t.mrr_at_10:.3f} |"
            )
    for label, found in pooled.items():
        t = summarize(found)
        print(
            f"| pooled | {label} | {t.cases} | | {t.section_hit_at_1:.3f} | {t.section_hit_at_k:.3f} | "
            f"{t.text_hit_at_k:.3f} | {t.mrr_at_10:.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
