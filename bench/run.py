"""Speed and scale benchmark of the chunker (issue 8).

Default mode: the library (``chunk_markdown``, single process) over a corpus folder, next to
markdown-it-py's full parse (inline enabled) and block-only parse (``inline`` core rule disabled),
same plugins (table, front_matter, dollarmath), same files, same run. Each engine runs in a fresh
subprocess (so its peak RSS is its own), ``--repeat`` rounds interleaved; the table shows the
fastest round and the ratios are medians of the per-round ratios (machine noise cancels).

Other modes::

    --interleaved  chunker and block-only parse alternating per file in one process (drift-proof ratio);
                with ``--baseline DIR`` each round runs it twice, this checkout and DIR (another checkout,
                same venv), in two processes alternating which goes first: before/after in one run;
                ``--parser pulldown-cmark`` chunks on the pulldown-cmark path
    --scaling   one synthetic document of 0.1 / 1 / 10 MB (concatenated corpus files), each in a fresh process
    --jobs      CLI ``chunker --jobs 1`` vs ``--jobs 2`` --force on a temp copy of the corpus (sources/)
    --noop      incremental no-op CLI run after a full run; with ``--ref DIR`` both this tree and DIR
                (another checkout), CPU time, rotating order (``bench/noop.py``)
    --startup   ``chunker --help`` wall time, median of several runs
    --e2e       the whole command (``chunker --force --jobs 1 --quiet``, every check on) on both parse paths
                against a process that reads the files and runs markdown-it-py's block parse, CPU time, rounds
                rotating (:func:`e2e.both_parsers`; with ``--ref DIR`` that tree's command too; the issue-18 table)
    --all       everything

Peak RSS is ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of the worker process (whole process,
interpreter included); ``--scaling`` also gives the growth over the RSS before the call and the
tracemalloc peak (Python allocations) in a separate process.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
PY = sys.executable
CHUNKER = str(Path(PY).with_name("chunker"))
ENGINES = ("mdit-full", "mdit-block", "chunker")
PEERS = ("langchain", "semantic-text-splitter")
MB = 1_000_000
CLOCK = "cpu"
PARSER = "markdown-it-py"
"""``parser`` of the chunker engine's config (``--parser``)."""
"""``cpu``: process CPU time (time.process_time) of the worker, robust on a shared machine; or ``wall``."""


# -- corpus -----------------------------------------------------------------------


def corpus_files(root: Path) -> list[Path]:
    """*.md, *.markdown, *.txt under ``root`` except SOURCES.md, sorted by path."""
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in (".md", ".markdown", ".txt") and p.name != "SOURCES.md"
    )


def load_texts(root: Path) -> list[tuple[Path, str]]:
    return [(p, p.read_bytes().decode("utf-8")) for p in corpus_files(root)]


def synthetic(root: Path, size: int) -> str:
    """A document of about ``size`` UTF-8 bytes: corpus files concatenated (cycled), cut at a line end."""
    parts: list[str] = []
    total = 0
    files = load_texts(root)
    while total < size:
        for _, text in files:
            parts.append(text.rstrip("\n") + "\n\n")
            total += len(parts[-1].encode("utf-8"))
            if total >= size:
                break
    data = "".join(parts).encode("utf-8")[:size]
    cut = data.rfind(b"\n")
    return data[: cut + 1].decode("utf-8", "ignore")


# -- engines (run inside a worker process) ------------------------------------------------


def _mdit(inline: bool) -> Callable[[str], int]:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(dollarmath_plugin)
    if not inline:
        md.core.ruler.disable("inline")

    def run(text: str) -> int:
        md.parse(text)
        return 0

    return run


def _chunker() -> Callable[[str], int]:
    from chunker.config import ChunkerConfig
    from chunker.pipeline import chunk_markdown

    cfg = ChunkerConfig.from_mapping({"parser": PARSER}) if PARSER != "markdown-it-py" else ChunkerConfig()

    def run(text: str) -> int:
        return len(chunk_markdown(text, cfg, "doc", "doc.md").chunks)

    return run


def _langchain() -> Callable[[str], int]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    headers = MarkdownHeaderTextSplitter([("#", "h1"), ("##", "h2"), ("###", "h3")], strip_headers=False)
    recursive = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)

    def run(text: str) -> int:
        return len(recursive.split_documents(headers.split_text(text)))

    return run


def _semantic() -> Callable[[str], int]:
    from semantic_text_splitter import MarkdownSplitter

    splitter = MarkdownSplitter(1000)

    def run(text: str) -> int:
        return len(splitter.chunks(text))

    return run


ENGINE_FACTORIES: dict[str, Callable[[], Callable[[str], int]]] = {
    "mdit-full": lambda: _mdit(True),
    "mdit-block": lambda: _mdit(False),
    "chunker": _chunker,
    "langchain": _langchain,
    "semantic-text-splitter": _semantic,
}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _current_rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def worker(engine: str, corpus: Path, size: int, trace: bool) -> dict[str, Any]:
    """Time one engine over the corpus (or over one synthetic document of ``size`` bytes)."""
    texts = [text for _, text in load_texts(corpus)] if not size else [synthetic(corpus, size)]
    run = ENGINE_FACTORIES[engine]()
    run("# warm up\n\ntext\n")
    rss_before = _current_rss_mb()
    if trace:
        import tracemalloc

        tracemalloc.start()
    start, cpu_start = time.perf_counter(), time.process_time()
    chunks = sum(run(text) for text in texts)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    traced = 0.0
    if trace:
        import tracemalloc

        traced = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return {
        "engine": engine,
        "files": len(texts),
        "bytes": sum(len(t.encode("utf-8")) for t in texts),
        "wall": seconds,
        "seconds": cpu if CLOCK == "cpu" else seconds,
        "chunks": chunks,
        "peak_rss_mb": _rss_mb(),
        "rss_before_mb": rss_before,
        "tracemalloc_peak_mb": traced,
    }


def spawn(engine: str, corpus: Path, size: int = 0, trace: bool = False) -> dict[str, Any]:
    cmd = [PY, str(Path(__file__).resolve()), "--worker", engine, "--corpus", str(corpus), "--size", str(size)]
    cmd += ["--clock", CLOCK]
    if trace:
        cmd.append("--trace")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=REPO).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


# -- modes ---------------------------------------------------------------------------


def _available(engine: str) -> bool:
    module = {"langchain": "langchain_text_splitters", "semantic-text-splitter": "semantic_text_splitter"}[engine]
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def library(corpus: Path, repeat: int, peers: bool) -> None:
    engines = list(ENGINES) + ([p for p in PEERS if _available(p)] if peers else [])
    rounds: list[dict[str, dict[str, Any]]] = []
    for r in range(repeat):
        rounds.append({e: spawn(e, corpus) for e in engines})
        times = "  ".join(f"{e} {rounds[-1][e]['seconds']:.2f}s" for e in engines)
        print(f"round {r + 1}/{repeat}: {times}", file=sys.stderr)
    best = {e: min((rd[e] for rd in rounds), key=lambda x: x["seconds"]) for e in engines}
    print(
        f"\nLibrary, single process: {corpus} ({repeat} rounds; seconds = {CLOCK} time of the fastest round; "
        "x = median of per-round ratios; peak RSS = ru_maxrss of the worker process)\n"
    )
    print("| engine | files | MB | seconds | MB/s | chunks | x full parse | x block parse | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for e in engines:
        b = best[e]
        x_full = statistics.median(rd[e]["seconds"] / rd["mdit-full"]["seconds"] for rd in rounds)
        x_block = statistics.median(rd[e]["seconds"] / rd["mdit-block"]["seconds"] for rd in rounds)
        chunks = f"{b['chunks']:,}" if e not in ("mdit-full", "mdit-block") else "-"
        print(
            f"| {e} | {b['files']} | {b['bytes'] / MB:.1f} | {b['seconds']:.2f} | {b['bytes'] / MB / b['seconds']:.2f} "
            f"| {chunks} | {x_full:.2f} | {x_block:.2f} | {b['peak_rss_mb']:.0f} |"
        )
    ratios = ", ".join(f"{rd['chunker']['seconds'] / rd['mdit-block']['seconds']:.2f}" for rd in rounds)
    print(f"\nchunker / block parse per round: {ratios} (target <= 1.3)")


def interleaved_round(corpus: Path, r: int) -> dict[str, float]:
    """One round of :func:`interleaved`: CPU seconds of each engine over the corpus."""
    texts = [text for _, text in load_texts(corpus)]
    engines = {"mdit-block": ENGINE_FACTORIES["mdit-block"](), "chunker": ENGINE_FACTORIES["chunker"]()}
    for run in engines.values():
        run("# warm up\n\ntext\n")
    spent = dict.fromkeys(engines, 0.0)
    for k, text in enumerate(texts):
        order = list(engines) if (k + r) % 2 == 0 else list(reversed(engines))
        for name in order:
            started = time.process_time()
            engines[name](text)
            spent[name] += time.process_time() - started
    return spent


def interleaved(corpus: Path, repeat: int) -> None:
    """chunker vs markdown-it-py block-only parse in one process, alternating per file (which of the
    two runs first alternates too): slow drifts of a shared machine hit both alike, which separate
    processes run one after the other cannot promise. CPU time per call."""
    sys.path.insert(0, str(REPO))
    ratios: list[float] = []
    for r in range(repeat):
        spent = interleaved_round(corpus, r)
        ratios.append(spent["chunker"] / spent["mdit-block"])
        print(
            f"round {r + 1}/{repeat}: mdit-block {spent['mdit-block']:.2f}s  chunker {spent['chunker']:.2f}s  "
            f"ratio {ratios[-1]:.3f}",
            file=sys.stderr,
        )
    shown = ", ".join(f"{x:.2f}" for x in ratios)
    print(
        f"\nInterleaved, one process, parser {PARSER}, cpu time: chunker / block parse per round: {shown}; "
        f"median {statistics.median(ratios):.2f} (target <= 1.3)"
    )


def interleaved_against(corpus: Path, repeat: int, baseline: Path) -> None:
    """:func:`interleaved` for this checkout and ``baseline``, one process per checkout and round,
    alternating which runs first: the chunker / block parse ratio of each, before/after in one run."""
    trees = {"this checkout": REPO, f"baseline {baseline}": baseline}
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    seconds: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(repeat):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for name in order:
            cmd = [PY, str(Path(__file__).resolve()), "--worker", "interleaved", "--corpus", str(corpus)]
            cmd += ["--size", str(r), "--repo", str(trees[name]), "--parser", PARSER]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=REPO).stdout
            spent = json.loads(out.strip().splitlines()[-1])
            ratios[name].append(spent["chunker"] / spent["mdit-block"])
            seconds[name].append(spent["chunker"])
            print(f"round {r + 1}/{repeat} {name}: ratio {ratios[name][-1]:.3f}", file=sys.stderr)
    print(f"\nInterleaved per file, parser {PARSER}, cpu time, {repeat} rounds, checkouts alternating:\n")
    print("| checkout | chunker s (fastest) | chunker / block parse per round | median |")
    print("|---|---:|---|---:|")
    for name in trees:
        shown = ", ".join(f"{x:.2f}" for x in ratios[name])
        print(f"| {name} | {min(seconds[name]):.2f} | {shown} | {statistics.median(ratios[name]):.2f} |")
    pairs = [b / a for a, b in zip(ratios["this checkout"], ratios[f"baseline {baseline}"], strict=True)]
    print(f"\nbaseline ratio / this ratio per round: {', '.join(f'{x:.2f}' for x in pairs)}")


def scaling(corpus: Path, repeat: int) -> None:
    sizes = (100_000, 1_000_000, 10_000_000)
    runs: dict[int, list[dict[str, Any]]] = {s: [] for s in sizes}
    for r in range(repeat):
        for s in sizes:
            runs[s].append(spawn("chunker", corpus, s))
        print(
            f"round {r + 1}/{repeat}: " + "  ".join(f"{s / MB:g} MB {runs[s][-1]['seconds']:.2f}s" for s in sizes),
            file=sys.stderr,
        )
    traced = {s: spawn("chunker", corpus, s, trace=True) for s in sizes}
    print(
        f"\nScaling: one synthetic document (corpus files concatenated), chunker library, fresh process per run, "
        f"{repeat} rounds (fastest shown; x10 ratio = median of per-round ratios)\n"
    )
    print(
        "| size MB | seconds | MB/s | chunks | time ratio vs previous (x10) | peak RSS MB | RSS growth MB "
        "| growth / input | tracemalloc peak MB | tracemalloc / input |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    previous: int | None = None
    for s in sizes:
        b = min(runs[s], key=lambda x: x["seconds"])
        step = "-"
        if previous is not None:
            pairs = zip(runs[s], runs[previous], strict=True)
            step = f"{statistics.median(a['seconds'] / p['seconds'] for a, p in pairs):.2f}"
        growth = max(rd["peak_rss_mb"] - rd["rss_before_mb"] for rd in runs[s])
        size_mb = b["bytes"] / 2**20
        t = traced[s]["tracemalloc_peak_mb"]
        print(
            f"| {b['bytes'] / MB:.2f} | {b['seconds']:.2f} | {b['bytes'] / MB / b['seconds']:.2f} | {b['chunks']:,} "
            f"| {step} | {max(rd['peak_rss_mb'] for rd in runs[s]):.0f} | {growth:.0f} | {growth / size_mb:.1f} "
            f"| {t:.0f} | {t / size_mb:.1f} |"
        )
        previous = s
    print("\n(RSS growth = peak RSS minus RSS after loading the text and warming up; sizes in MiB for the ratio)")


def _flat_copy(corpus: Path, dest: Path) -> int:
    """Copy the corpus into ``dest`` as flat <stem>.md files (unique stems from the relative path)."""
    dest.mkdir(parents=True)
    count = 0
    for path in corpus_files(corpus):
        rel = path.relative_to(corpus).with_suffix("")
        stem = "__".join(rel.parts).replace(" ", "_")
        stem = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in stem)
        if len(stem) > 90:  # stems are at most 100 characters: keep them unique with a hash
            stem = f"{stem[:80]}-{hashlib.sha1(stem.encode()).hexdigest()[:8]}"
        shutil.copyfile(path, dest / f"{stem}.md")
        count += 1
    return count


def _cli(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run([CHUNKER, *args], cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"chunker {' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return seconds


def _artifacts(folder: Path) -> list[Path]:
    """The JSON artifacts below a chunks/ folder: not the run's own hidden files (its stat cache)."""
    return [p for p in folder.rglob("*.json") if not p.name.startswith(".")]


def _artifact_differences(a: Path, b: Path) -> list[str]:
    """Files that differ between two chunks/ folders, ignoring meta.json created_at (and its hash in report.json)."""
    differ: list[str] = []
    names = sorted({p.relative_to(a) for p in _artifacts(a)} | {p.relative_to(b) for p in _artifacts(b)})
    for name in names:
        pa, pb = a / name, b / name
        if not pa.is_file() or not pb.is_file():
            differ.append(str(name))
            continue
        da, db = pa.read_bytes(), pb.read_bytes()
        if da == db:
            continue
        ja, jb = json.loads(da), json.loads(db)
        if name.name == "meta.json":
            ja.pop("created_at", None)
            jb.pop("created_at", None)
        elif name.name == "report.json":
            ja.get("artifacts", {}).pop("meta.json", None)
            jb.get("artifacts", {}).pop("meta.json", None)
        if ja != jb:
            differ.append(str(name))
    return differ


def jobs_and_noop(corpus: Path, repeat: int, do_jobs: bool, do_noop: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-bench-") as tmp:
        root = Path(tmp)
        count = _flat_copy(corpus, root / "sources")
        print(
            f"\nCLI on a temp copy of the corpus: {count} files as sources/<stem>.md, cwd {root} (no config.yaml)",
            file=sys.stderr,
        )
        j1: list[float] = []
        j2: list[float] = []
        noop: list[float] = []
        for r in range(repeat):
            j1.append(_cli(["--jobs", "1", "--force", "-q", "--out", "out1"], root))
            if do_jobs:
                j2.append(_cli(["--jobs", "2", "--force", "-q", "--out", "out2"], root))
            if do_noop:
                noop.append(_cli(["--jobs", "1", "-q", "--out", "out1"], root))
            print(
                f"round {r + 1}/{repeat}: jobs1 {j1[-1]:.2f}s"
                + (f" jobs2 {j2[-1]:.2f}s" if do_jobs else "")
                + (f" noop {noop[-1]:.2f}s" if do_noop else ""),
                file=sys.stderr,
            )
        print(
            f"\nCLI over a temp copy of the corpus ({count} files), {repeat} rounds, wall time incl. startup "
            "and atomic fsync'd writes (fastest shown; ratios = median of per-round ratios)\n"
        )
        print("| run | seconds | ratio |")
        print("|---|---:|---|")
        print(f"| `chunker --jobs 1 --force` | {min(j1):.2f} | 1 |")
        if do_jobs:
            speedup = statistics.median(a / b for a, b in zip(j1, j2, strict=True))
            print(
                f"| `chunker --jobs 2 --force` | {min(j2):.2f} | {speedup:.2f}x faster than --jobs 1 (target >= 1.7) |"
            )
        if do_noop:
            share = statistics.median(b / a for a, b in zip(j1, noop, strict=True))
            print(
                f"| `chunker` (no-op, nothing changed) | {min(noop):.2f} | {100 * share:.1f} % of a full run "
                "(target <= 5 %) |"
            )
        if do_jobs:
            differ = _artifact_differences(root / "out1", root / "out2")
            total = len(_artifacts(root / "out1"))
            verdict = "byte-identical" if not differ else f"{len(differ)} differ, e.g. {differ[:5]}"
            print(f"\nartifacts --jobs 1 vs --jobs 2: {total} files, {verdict} (meta.json created_at ignored)")


def startup(repeat: int) -> None:
    def median_wall(cmd: list[str]) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, cwd=REPO)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    bare = median_wall([PY, "-c", "pass"])
    typer = median_wall([PY, "-c", "import typer"])
    helptime = median_wall([CHUNKER, "--help"])
    print(f"\nStartup, median of {repeat} runs (same run)\n")
    print("| command | seconds |")
    print("|---|---:|")
    print(f"| `python -c pass` | {bare:.3f} |")
    print(f"| `python -c 'import typer'` | {typer:.3f} |")
    print(f"| `chunker --help` | {helptime:.3f} (target < 0.3) |")
    heavy = ("markdown_it", "mdit_py_plugins", "yaml", "orjson", "chunker.pipeline", "rich.console")
    proc = subprocess.run([PY, "-X", "importtime", "-m", "chunker", "--help"], capture_output=True, text=True, cwd=REPO)
    loaded = [
        m
        for m in heavy
        if f"| {m}\n" in proc.stderr
        or proc.stderr.rstrip().endswith(f"| {m}")
        or any(line.split("|")[-1].strip() == m for line in proc.stderr.splitlines())
    ]
    print(f"\nheavy modules imported by `chunker --help`: {', '.join(loaded) or 'none'}")


def machine() -> str:
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}; nproc {os.cpu_count()}; CPU {model}; "
        f"Python {platform.python_version()}; load average {os.getloadavg()[0]:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="Speed and scale benchmark of the chunker (see bench/README.md).")
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3, help="rounds per measurement (default 3)")
    parser.add_argument("--interleaved", action="store_true", help="chunker vs block parse alternating per file")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--jobs", action="store_true")
    parser.add_argument("--noop", action="store_true")
    parser.add_argument("--startup", action="store_true")
    parser.add_argument(
        "--e2e",
        action="store_true",
        help="the whole `chunker --force --jobs 1` command against a read + block-parse process, both parse paths "
        "(bench/e2e.py --both-parsers; its other modes: python bench/e2e.py --help)",
    )
    parser.add_argument("--no-peers", action="store_true", help="skip langchain / semantic-text-splitter rows")
    parser.add_argument("--all", action="store_true", help="every mode")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="library timings (default cpu)")
    parser.add_argument("--baseline", type=Path, help="--interleaved: also this checkout (same venv), alternating")
    parser.add_argument("--ref", type=Path, help="--noop: also the chunker of this source tree, same rounds (CPU)")
    parser.add_argument("--parser", default="markdown-it-py", help="parser of the chunker engine (pulldown-cmark)")
    parser.add_argument("--repo", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--corpus", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global CLOCK, PARSER
    CLOCK, PARSER = args.clock, args.parser
    if args.worker:
        sys.path.insert(0, str(args.repo or REPO))
        if args.worker == "interleaved":  # --size is the round number here
            print(json.dumps(interleaved_round(args.corpus, args.size)))
        else:
            print(json.dumps(worker(args.worker, args.corpus, args.size, args.trace)))
        return 0
    corpus = args.corpus.resolve()
    print(f"# {machine()}\n# command: {' '.join([Path(PY).name, *sys.argv])}")
    modes = args.interleaved or args.scaling or args.jobs or args.noop or args.startup or args.e2e
    if args.all or not modes:
        library(corpus, args.repeat, not args.no_peers)
    if args.interleaved and args.baseline:
        interleaved_against(corpus, args.repeat, args.baseline.resolve())
    elif args.all or args.interleaved:
        interleaved(corpus, args.repeat)
    if args.all or args.scaling:
        scaling(corpus, args.repeat)
    if args.noop and args.ref:
        from noop import noop_against

        noop_against(corpus, args.repeat, args.ref.resolve())
    elif args.all or args.jobs or args.noop:
        jobs_and_noop(corpus, args.repeat, args.all or args.jobs, args.all or args.noop)
    if args.all or args.startup:
        startup(max(args.repeat, 7))
    if args.all or args.e2e:
        from e2e import both_parsers

        both_parsers(corpus, args.repeat, args.ref.resolve() if args.ref and not args.noop else None, cache=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
