"""End-to-end speed: the whole ``chunker --force`` command against a process that only parses.

What a user feels is the command, not the library: reading the sources, hashing, chunking, validating,
three atomic artifacts per document, the reports and the terminal summary. This benchmark runs, as whole
processes and alternating round by round on the same temporary copy of a corpus:

- ``parse``: a Python process that reads every source file and runs markdown-it-py's block-only parse
  (same plugins as the chunker: table, front_matter, dollarmath), nothing else;
- ``chunker``: ``chunker --force --jobs 1 --quiet`` over the same files, writing to a fresh output folder.

The time of each is the child's CPU time (user + system, from ``RUSAGE_CHILDREN``), which a shared machine
disturbs less than wall time; wall time is shown too. The ratio is the median of the per-round ratios.

    .venv/bin/python bench/e2e.py                      # whole shared corpus
    .venv/bin/python bench/e2e.py ../shared/corpus/de-gesetze --repeat 5
    .venv/bin/python bench/e2e.py --config fast.yaml     # e.g. 'parser: pulldown-cmark' in fast.yaml
    .venv/bin/python bench/e2e.py --profile            # cProfile of one chunker run, top functions
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
PY = sys.executable
CHUNKER = str(Path(PY).with_name("chunker"))

PARSE_ONLY = """
import sys
from pathlib import Path
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(dollarmath_plugin)
md.core.ruler.disable("inline")
for path in sorted(Path(sys.argv[1]).rglob("*")):
    if path.is_file():
        md.parse(path.read_bytes().decode("utf-8"))
"""


def _copy_corpus(corpus: Path, dest: Path) -> int:
    """Copy the corpus's Markdown and text files into ``dest`` as flat, valid stems."""
    sys.path.insert(0, str(REPO / "bench"))
    from run import _flat_copy  # the CLI benchmark's copy: same file names

    return _flat_copy(corpus, dest)


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(child CPU seconds, wall seconds) of one command run to completion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def end_to_end(corpus: Path, repeat: int, extra: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-e2e-") as tmp:
        root = Path(tmp)
        count = _copy_corpus(corpus, root / "sources")
        size = sum(p.stat().st_size for p in (root / "sources").iterdir())
        parse_cmd = [PY, "-c", PARSE_ONLY, str(root / "sources")]
        rounds: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for r in range(repeat):
            out = root / f"out{r}"
            chunk_cmd = [CHUNKER, "--force", "--jobs", "1", "--quiet", "--out", str(out), *extra]
            if r % 2 == 0:
                parsed, chunked = _timed(parse_cmd, root), _timed(chunk_cmd, root)
            else:
                chunked, parsed = _timed(chunk_cmd, root), _timed(parse_cmd, root)
            rounds.append((parsed, chunked))
            shutil.rmtree(out, ignore_errors=True)
            print(
                f"round {r + 1}/{repeat}: parse {parsed[0]:.2f}s cpu  chunker {chunked[0]:.2f}s cpu  "
                f"ratio {chunked[0] / parsed[0]:.3f}",
                file=sys.stderr,
            )
    ratios = [c[0] / p[0] for p, c in rounds]
    walls = [c[1] / p[1] for p, c in rounds]
    best_p = min(p[0] for p, _ in rounds)
    best_c = min(c[0] for _, c in rounds)
    print(f"\nEnd to end: {corpus} ({count} files, {size / 1e6:.1f} MB), {repeat} rounds, alternating\n")
    print("| process | cpu s (fastest) | ratio to parse (median) | wall ratio (median) |")
    print("|---|---:|---:|---:|")
    print(f"| read + markdown-it-py block parse | {best_p:.2f} | 1 | 1 |")
    label = " ".join(["chunker --force --jobs 1 -q", *extra])
    print(f"| `{label}` | {best_c:.2f} | {statistics.median(ratios):.2f} | {statistics.median(walls):.2f} |")
    print(f"\nper-round cpu ratios: {', '.join(f'{x:.2f}' for x in ratios)} (target <= 1.2)")


def profile(corpus: Path, top: int) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-e2e-") as tmp:
        root = Path(tmp)
        _copy_corpus(corpus, root / "sources")
        stats = root / "prof.out"
        cmd = [PY, "-m", "cProfile", "-o", str(stats), "-m", "chunker", "--force", "--jobs", "1", "-q"]
        subprocess.run(cmd, cwd=root, capture_output=True, check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
        import pstats

        print(f"\ncProfile of `chunker --force --jobs 1 -q` over {corpus}: top {top} by own time\n")
        pstats.Stats(str(stats)).sort_stats("tottime").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description="End-to-end speed of the chunker command (see bench/README.md).")
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile one run instead of timing")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--config", type=Path, help="config file for the chunker run (e.g. parser: pulldown-cmark)")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    print(f"# {time.strftime('%Y-%m-%d %H:%M %Z')}; nproc {os.cpu_count()}; load {os.getloadavg()[0]:.1f}")
    print(f"# command: {' '.join([Path(PY).name, *sys.argv])}")
    if args.profile:
        profile(corpus, args.top)
    else:
        end_to_end(corpus, args.repeat, ["--config", str(args.config.resolve())] if args.config else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
