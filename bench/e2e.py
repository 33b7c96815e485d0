"""End-to-end speed: the whole ``chunker --force`` command against a process that only parses.

What a user feels is the command, not the library: reading the sources, hashing, chunking, validating,
three atomic artifacts per document, the reports and the terminal summary. This benchmark runs, as whole
processes and alternating round by round on the same temporary copy of a corpus:

- ``parse``: a Python process that reads every source file and runs markdown-it-py's block-only parse
  (same plugins as the chunker: table, front_matter, dollarmath), nothing else;
- ``chunker``: ``chunker --force --jobs 1 --quiet`` over the same files, writing to a fresh output folder
  (``--loud``: without ``--quiet``, its diagnostics, totals and summary table captured as a CI log would be).

The time of each is the child's CPU time (user + system, from ``RUSAGE_CHILDREN``), which a shared machine
disturbs less than wall time; wall time is shown too. The ratio is the median of the per-round ratios.

    .venv/bin/python bench/e2e.py                      # whole shared corpus
    .venv/bin/python bench/e2e.py ../shared/corpus/de-gesetze --repeat 5
    .venv/bin/python bench/e2e.py --config fast.yaml     # e.g. 'parser: pulldown-cmark' in fast.yaml
    .venv/bin/python bench/e2e.py --profile            # cProfile of one chunker run, top functions
    .venv/bin/python bench/e2e.py --ref /tmp/ref-main  # also the chunker of another tree, same rounds
    .venv/bin/python bench/e2e.py --existing           # --force over the previous round's output
    .venv/bin/python bench/e2e.py --both-parsers --ref /tmp/ref-main  # both parse paths of both trees

With ``--ref DIR`` every round also runs the chunker of the source tree DIR (a detached worktree of an
older commit; ``python -m chunker`` with PYTHONPATH=DIR, this tree's run the same way), the three
processes in rotating order, so that before and after are measured within one run. With ``--existing``
the output folder is kept from round to round (a first untimed run fills it): ``--force`` then
re-chunks documents whose artifacts are already on disk, as a CI build does.

Bytecode: an installed chunker runs from compiled bytecode (pip compiles it when installing), but a
shell with ``PYTHONDONTWRITEBYTECODE=1`` (as on the benchmark machine) makes every process compile
the source tree again (~0.1 s of CPU per process, 7 % of the command over the 73 laws). The children
therefore run with a bytecode cache in the temporary folder (``PYTHONPYCACHEPREFIX``, filled by
``compileall`` before the first round; the parse-only process's markdown-it-py is compiled in the
venv already). ``--no-bytecode-cache`` runs them with the caller's environment instead.
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

    count = _flat_copy(corpus, dest)
    if not count:  # a mistyped path would otherwise measure empty runs and print their ratios
        raise SystemExit(f"{corpus}: no Markdown or text files (is the path right?)")
    return count


_ENV: dict[str, str] | None = None
"""The children's environment (None: the caller's); see :func:`_bytecode_cache`."""


def _bytecode_cache(root: Path, trees: list[Path]) -> None:
    """Run the children with a bytecode cache under ``root``, compiled now for each source tree."""
    global _ENV
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(root / "pycache")
    for tree in trees:
        cmd = [PY, "-m", "compileall", "-q", str(tree / "chunker")]
        subprocess.run(cmd, env=env, check=True, capture_output=True)
    _ENV = env


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(child CPU seconds, wall seconds) of one command run to completion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=_ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


QUIET = ["--quiet"]
"""What every chunker run gets (``--loud`` empties it)."""
JOBS = ["--jobs", "1"]
"""The chunker runs' ``--jobs`` (``--default-jobs`` empties it: the command's default, workers for
a large run; compare wall ratios then, the CPU of all processes is summed)."""


def _tree_cmd(tree: Path, out: Path, extra: list[str]) -> list[str]:
    """``chunker --force`` of the source tree ``tree`` (its package first on the path)."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); from chunker.cli import main; main()"
    return [PY, "-c", code, "--force", *JOBS, *QUIET, "--out", str(out), *extra]


def compare(corpus: Path, repeat: int, extra: list[str], ref: Path, existing: bool, cache: bool) -> None:
    """parse, this tree's chunker and ``ref``'s chunker in every round, in rotating order."""
    with tempfile.TemporaryDirectory(prefix="chunker-e2e-") as tmp:
        root = Path(tmp)
        if cache:
            _bytecode_cache(root, [REPO, ref])
        count = _copy_corpus(corpus, root / "sources")
        size = sum(p.stat().st_size for p in (root / "sources").iterdir())
        cmds = {
            "parse": lambda r: [PY, "-c", PARSE_ONLY, str(root / "sources")],
            "ref": lambda r: _tree_cmd(ref, root / ("out-ref" if existing else f"out-ref{r}"), extra),
            "this": lambda r: _tree_cmd(REPO, root / ("out-this" if existing else f"out-this{r}"), extra),
        }
        if existing:
            for name in ("ref", "this"):
                _timed(cmds[name](-1), root)
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
        order = list(cmds)
        for r in range(repeat):
            for name in order[r % 3 :] + order[: r % 3]:
                times[name].append(_timed(cmds[name](r), root))
                if not existing:
                    shutil.rmtree(root / f"out-{name}{r}", ignore_errors=True)
            p, t, f = times["parse"][-1][0], times["this"][-1][0], times["ref"][-1][0]
            print(f"round {r + 1}/{repeat}: parse {p:.2f}s  ref {f:.2f}s  this {t:.2f}s cpu", file=sys.stderr)
    mode = " over existing output" if existing else ""
    print(f"\nEnd to end{mode}: {corpus} ({count} files, {size / 1e6:.1f} MB), {repeat} rounds, rotating\n")
    print("| process | cpu s (fastest) | ratio to parse (median) | wall ratio (median) | ratio to ref (median) |")
    print("|---|---:|---:|---:|---:|")
    label = " ".join(["chunker --force", *JOBS, *QUIET, *extra])
    for name, text in (
        ("parse", "read + markdown-it-py block parse"),
        ("ref", f"{ref.name}: `{label}`"),
        ("this", f"this tree: `{label}`"),
    ):
        cpu = [x[0] / p[0] for x, p in zip(times[name], times["parse"], strict=True)]
        wall = [x[1] / p[1] for x, p in zip(times[name], times["parse"], strict=True)]
        to_ref = [x[0] / f[0] for x, f in zip(times[name], times["ref"], strict=True)]
        print(
            f"| {text} | {min(x[0] for x in times[name]):.2f} | {statistics.median(cpu):.2f} | "
            f"{statistics.median(wall):.2f} | {statistics.median(to_ref):.2f} |"
        )
    ratios = [t[0] / f[0] for t, f in zip(times["this"], times["ref"], strict=True)]
    print(f"\nper-round cpu ratios this/ref: {', '.join(f'{x:.2f}' for x in ratios)}")


def both_parsers(corpus: Path, repeat: int, ref: Path | None, cache: bool) -> None:
    """Both parse paths of this tree (and of ``ref``), each round every process once in a rotating
    order, all against the parse-only process of the same round; the markdown-it-py / pulldown-cmark
    speed-up of each tree from the same rounds."""
    with tempfile.TemporaryDirectory(prefix="chunker-e2e-") as tmp:
        root = Path(tmp)
        if cache:
            _bytecode_cache(root, [REPO, *([ref] if ref else [])])
        count = _copy_corpus(corpus, root / "sources")
        size = sum(p.stat().st_size for p in (root / "sources").iterdir())
        fast = root / "fast.yaml"
        fast.write_text("parser: pulldown-cmark\n", encoding="utf-8")
        trees = {"this": REPO, **({"ref": ref} if ref else {})}
        runs: dict[str, list[str]] = {"parse": [PY, "-c", PARSE_ONLY, str(root / "sources")]}
        for tree, path in trees.items():
            for parser, extra in (("markdown-it-py", []), ("pulldown-cmark", ["--config", str(fast)])):
                runs[f"{tree}, {parser}"] = _tree_cmd(path, root / "OUT", extra)
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        wall: dict[str, list[float]] = {name: [] for name in runs}
        names = list(runs)
        for r in range(repeat):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                out = root / "OUT"
                took = _timed(runs[name], root)
                shutil.rmtree(out, ignore_errors=True)
                cpu[name].append(took[0])
                wall[name].append(took[1])
                print(f"round {r + 1}/{repeat}: {name} {took[0]:.2f}s cpu", file=sys.stderr)
    print(f"\nEnd to end: {corpus} ({count} files, {size / 1e6:.1f} MB), {repeat} rounds, rotating order")
    print(f"this: {REPO}" + (f"; ref: {ref}" if ref else ""))
    print("\n| process | cpu s (fastest) | ratio to parse (median) | wall ratio (median) | per-round cpu ratios |")
    print("|---|---:|---:|---:|---|")
    for name in names:
        ratios = [c / p for c, p in zip(cpu[name], cpu["parse"], strict=True)]
        walls = [c / p for c, p in zip(wall[name], wall["parse"], strict=True)]
        shown = ", ".join(f"{x:.2f}" for x in ratios)
        run = " ".join(["chunker --force", *JOBS, *QUIET])
        label = "read + markdown-it-py block parse" if name == "parse" else f"{run} ({name})"
        print(
            f"| {label} | {min(cpu[name]):.2f} | {statistics.median(ratios):.2f} | {statistics.median(walls):.2f} "
            f"| {shown} |"
        )
    print()
    for tree in trees:
        speedup = [m / f for m, f in zip(cpu[f"{tree}, markdown-it-py"], cpu[f"{tree}, pulldown-cmark"], strict=True)]
        shown = ", ".join(f"{x:.2f}" for x in speedup)
        print(
            f"{tree}: markdown-it-py path / pulldown-cmark path, cpu per round: {shown}; median "
            f"{statistics.median(speedup):.2f} (target >= 2)"
        )


def end_to_end(corpus: Path, repeat: int, extra: list[str], cache: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-e2e-") as tmp:
        root = Path(tmp)
        if cache:
            _bytecode_cache(root, [REPO])
        count = _copy_corpus(corpus, root / "sources")
        size = sum(p.stat().st_size for p in (root / "sources").iterdir())
        parse_cmd = [PY, "-c", PARSE_ONLY, str(root / "sources")]
        rounds: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for r in range(repeat):
            out = root / f"out{r}"
            chunk_cmd = [CHUNKER, "--force", *JOBS, *QUIET, "--out", str(out), *extra]
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
    label = " ".join(["chunker --force", *JOBS, *QUIET, *extra])
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
    parser.add_argument("--ref", type=Path, help="source tree of another chunker to time in the same rounds")
    parser.add_argument("--existing", action="store_true", help="with --ref: --force over the kept output")
    parser.add_argument("--both-parsers", action="store_true", help="both parse paths (of this tree and --ref)")
    parser.add_argument("--chunker-args", default="", help="more arguments for both chunker runs (with --ref)")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="children compile the source tree every run (see above)"
    )
    parser.add_argument("--loud", action="store_true", help="chunker runs without --quiet (output to a pipe)")
    parser.add_argument("--default-jobs", action="store_true", help="chunker runs without --jobs 1 (the default)")
    args = parser.parse_args()
    if args.loud:
        QUIET.clear()
    if args.default_jobs:
        JOBS.clear()
    corpus = args.corpus.resolve()
    print(f"# {time.strftime('%Y-%m-%d %H:%M %Z')}; nproc {os.cpu_count()}; load {os.getloadavg()[0]:.1f}")
    print(f"# command: {' '.join([Path(PY).name, *sys.argv])}")
    cache = not args.no_bytecode_cache
    extra = ["--config", str(args.config.resolve())] if args.config else []
    if args.profile:
        profile(corpus, args.top)
    elif args.both_parsers:
        both_parsers(corpus, args.repeat, args.ref.resolve() if args.ref else None, cache)
    elif args.ref:
        compare(corpus, args.repeat, [*extra, *args.chunker_args.split()], args.ref.resolve(), args.existing, cache)
    else:
        end_to_end(corpus, args.repeat, ["--config", str(args.config.resolve())] if args.config else [], cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
