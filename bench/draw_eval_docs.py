"""Draw the documents of a blind retrieval case set by a seeded random draw from the corpus.

    .venv/bin/python bench/draw_eval_docs.py [--seed 20261130] [--per-language 5] [--corpus ../shared/corpus]

Candidates: ``.md`` files of 6-60 KB with 5-40 H1/H2 sections (as the chunker's parser sees
them), a corpus-unique stem (or ``index.md``, named by its folder), whose language folder
prefix is ru/de/it/en, and that no existing case file under ``bench/`` names. The draw is
``random.Random(seed).sample`` over the sorted candidates of each language, so the documents are
chosen before anyone looks at them and the case writer cannot pick "easy" ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_compare import DEFAULT_CORPUS, HERE, LANGUAGES, section_headings

MIN_BYTES, MAX_BYTES = 6_000, 60_000
MIN_SECTIONS, MAX_SECTIONS = 5, 40


def used_paths() -> set[str]:
    used: set[str] = set()
    for case_file in sorted(HERE.glob("eval_cases*.jsonl")):
        for line in case_file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                used.add(json.loads(line)["path"])
    return used


def candidates(corpus: Path, language: str, used: set[str]) -> list[str]:
    stems: dict[str, int] = {}
    for p in corpus.rglob("*.md"):
        stems[p.stem] = stems.get(p.stem, 0) + 1
    found: list[str] = []
    for folder in sorted(corpus.glob(f"{language}-*")):
        for p in sorted(folder.rglob("*.md")):
            rel = p.relative_to(corpus).as_posix()
            if rel in used or not MIN_BYTES <= p.stat().st_size <= MAX_BYTES:
                continue
            if p.stem != "index" and stems[p.stem] != 1:
                continue
            text = p.read_text(encoding="utf-8-sig")
            if MIN_SECTIONS <= len({t for _, t in section_headings(text)}) <= MAX_SECTIONS:
                found.append(rel)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--per-language", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    used = used_paths()
    rng = random.Random(args.seed)
    for language in LANGUAGES:
        pool = candidates(args.corpus, language, used)
        print(f"{language}: {len(pool)} candidates")
        for rel in rng.sample(pool, args.per_language):
            print(f"  {rel}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
