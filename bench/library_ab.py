"""The library alone, two or more trees alternating: ``chunk_markdown`` over a corpus folder, CPU time.

Each round runs every tree once, in a fresh process that imports ``chunker`` from that tree (a detached
worktree, say), reads the files, then times the loop with ``time.process_time``; the order of the trees
flips every round. With two trees, prints the per-round ratio second/first::

    .venv/bin/python bench/library_ab.py /work/shared/corpus/de-gesetze /tmp/ref . --rounds 9
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import sys, time
tree, corpus = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree)
from pathlib import Path
import chunker.pipeline
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
assert Path(chunker.pipeline.__file__).is_relative_to(tree), chunker.pipeline.__file__
files = sorted(
    p for p in Path(corpus).rglob("*") if p.suffix in (".md", ".markdown", ".txt") and p.name != "SOURCES.md"
)
texts = [(p, p.read_text(encoding="utf-8")) for p in files]
cfg = ChunkerConfig()
start = time.process_time()
chunks = sum(len(chunk_markdown(text, cfg, p.stem, str(p)).chunks) for p, text in texts)
print(time.process_time() - start, chunks)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("trees", nargs="+", type=Path, help="folders holding a chunker/ package")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = [str(t.resolve()) for t in args.trees]
    times: dict[str, list[float]] = {t: [] for t in trees}
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            run = subprocess.run(
                [sys.executable, "-c", _CHILD, tree, str(args.corpus)], capture_output=True, text=True, check=True
            )
            seconds, chunks = run.stdout.split()
            times[tree].append(float(seconds))
            print(f"round {r + 1} {tree}: {float(seconds):.2f} s CPU, {chunks} chunks", flush=True)
    for tree in trees:
        rounds = " ".join(f"{x:.2f}" for x in times[tree])
        print(f"{tree}: {rounds}; median {statistics.median(times[tree]):.2f}, min {min(times[tree]):.2f}")
    if len(trees) == 2:
        ratios = [b / a for a, b in zip(times[trees[0]], times[trees[1]], strict=True)]
        shown = " ".join(f"{r:.3f}" for r in ratios)
        print(f"per round second/first: {shown}; median {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
