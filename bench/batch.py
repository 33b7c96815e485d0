"""chunker batch: its speed against the main command, Ray's start-up cost, the planner's scaling.

    .venv/bin/python bench/batch.py                 # all three; corpus: ../shared/corpus
    .venv/bin/python bench/batch.py --only planner  # only the simulated listing (no corpus needed)
    .venv/bin/python bench/batch.py --ray           # also the Ray engine (needs pip install -e '.[ray]')

- ``speed``: CPU time (process and workers, ``RUSAGE_CHILDREN``) and wall time of
  ``chunker batch --engine local --jobs 2`` against ``chunker --jobs 2 --force``, each writing to a fresh
  folder, alternating round by round; the ratio is the median of the per-round ratios.
- ``ray``: ``ray.init(num_cpus=2)`` and a first trivial Ray Data map (the fixed cost of a run), then
  ``chunker batch --engine ray --jobs 2`` on the corpus.
- ``planner``: a simulated listing of N keys (no files) joined with a manifest of the same keys in which 1 %
  changed size and 1 % are gone: CPU time (best of 5) of ``entries_to_listing`` + ``plan``, N = 12,500 .. 100,000.
"""

from __future__ import annotations

import argparse
import gc
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
CHUNKER = str(Path(sys.executable).with_name("chunker"))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds of the process and its workers, wall seconds)."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return _cpu() - cpu, time.perf_counter() - start


def speed(corpus: Path, rounds: int) -> None:
    cpu_ratios, wall_ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(rounds):
            out_b, out_c = Path(tmp) / f"b{k}", Path(tmp) / f"c{k}"
            batch = [CHUNKER, "batch", "--sources", str(corpus), "--out", str(out_b), "--jobs", "2", "--quiet"]
            b = _run(batch)
            c = _run([CHUNKER, "--sources", str(corpus), "--out", str(out_c), "--jobs", "2", "--force", "--quiet"])
            again = _run(batch)
            cpu_ratios.append(b[0] / c[0])
            wall_ratios.append(b[1] / c[1])
            print(
                f"round {k + 1}: batch cpu {b[0]:.2f} s wall {b[1]:.2f} s; "
                f"chunker cpu {c[0]:.2f} s wall {c[1]:.2f} s; ratio cpu {b[0] / c[0]:.2f} wall {b[1] / c[1]:.2f}; "
                f"batch rerun cpu {again[0]:.2f} s wall {again[1]:.2f} s"
            )
            shutil.rmtree(out_b)
            shutil.rmtree(out_c)
    print(
        f"median ratio batch --engine local --jobs 2 / chunker --jobs 2: cpu {statistics.median(cpu_ratios):.2f}, "
        f"wall {statistics.median(wall_ratios):.2f}"
    )


def ray_cost(corpus: Path) -> None:
    import ray
    import ray.data

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    up = time.perf_counter()
    ray.data.DataContext.get_current().enable_progress_bars = False
    ray.data.from_items([{"x": k} for k in range(4)]).map(lambda r: r).take_all()
    first = time.perf_counter()
    ray.shutdown()
    print(f"ray.init(num_cpus=2): {up - start:.2f} s; first Ray Data map of 4 rows: {first - up:.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        for engine in ("ray", "local"):
            t = _run([CHUNKER, "batch", "--sources", str(corpus), "--out", f"{tmp}/{engine}", "--engine", engine,
                       "--jobs", "2", "--quiet"])  # fmt: skip
            print(f"chunker batch --engine {engine} --jobs 2 on the corpus: cpu {t[0]:.2f} s, wall {t[1]:.2f} s")


def planner(with_gc: bool) -> None:
    sys.path.insert(0, str(REPO))
    from chunker.batch.listing import entries_to_listing
    from chunker.batch.plan import plan

    for n in (12_500, 25_000, 50_000, 100_000):
        keys = [f"/bucket/docs/section-{k % 97:02d}/page-{k:06d}.md" for k in range(n)]
        entries = [(key, 1000 + k % 500, 1_700_000_000_000_000_000) for k, key in enumerate(keys)]
        previous = {
            f"section-{k % 97:02d}/page-{k:06d}": {
                "doc_id": f"section-{k % 97:02d}/page-{k:06d}",
                "path": keys[k],
                "size": 1000 + k % 500 + (1 if k % 100 == 1 else 0),  # 1 % changed size
                "mtime_ns": 1_700_000_000_000_000_000,
                "fingerprint": "F",
                "status": "new",
            }
            for k in range(n)
        }
        entries = [e for k, e in enumerate(entries) if k % 100 != 2]  # 1 % gone
        best = float("inf")
        gc.collect()
        for _ in range(5):
            gc.disable() if not with_gc else None
            start = time.process_time()
            listing = entries_to_listing(entries, "/bucket/docs", lambda rel: "s3://bucket/docs/" + rel)
            result = plan(listing.found, previous, lambda _: "F")
            best = min(best, time.process_time() - start)
            gc.enable()
        print(
            f"{n:>7,} keys: {best * 1000:7.1f} ms ({best / n * 1e6:.2f} µs/key); "
            f"{len(result.tasks):,} to check, {len(result.unchanged):,} unchanged, {len(result.removed):,} removed"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("speed", "ray", "planner"))
    parser.add_argument("--ray", action="store_true", help="also measure the Ray engine")
    args = parser.parse_args()
    if args.only in (None, "planner"):
        planner(True)
        print("the same with the garbage collector off during the measurement:")
        planner(False)
    if args.only in (None, "speed"):
        speed(args.corpus, args.rounds)
    if args.only == "ray" or (args.only is None and args.ray):
        ray_cost(args.corpus)


if __name__ == "__main__":
    main()
