"""Growth with the number of documents in a tree: ``chunker``, a no-op run, ``export`` (JSONL and
Markdown, first and second time), ``view`` and ``chunker batch`` (Parquet, local engine, first time
and a no-op rerun), over trees of N and 4 N small generated pages.

Each command runs in a fresh process; the figure is its CPU time (user + system of the child). A
command that is linear in the number of documents grows ~4 x from N to 4 N; the ratio is printed
beside the times. Usage::

    python bench/tree_scale.py --docs 3000 [--commands run,noop,jsonl,md,view] [--chunker PATH]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

COMMANDS = {
    "run": ["--jobs", "1", "-q"],
    "noop": ["-q"],
    "jsonl": ["export", "--format", "jsonl", "-q"],
    "jsonl again": ["export", "--format", "jsonl", "-q"],
    "md": ["export", "--format", "md", "-q"],
    "md again": ["export", "--format", "md", "-q"],
    "view": ["view", "-q"],
    "batch": ["batch", "--out", "lake", "--jobs", "1", "-q"],
    "batch again": ["batch", "--out", "lake", "--jobs", "1", "-q"],
}


def make_tree(root: Path, count: int) -> None:
    """``count`` pages in folders of 100 (``s<k>/p<n>.md``), each a title, a paragraph and a list."""
    for n in range(count):
        folder = root / "sources" / f"s{n // 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"p{n}.md").write_text(
            f"# Page {n}\n\nThe page number {n} says what it is about.\n\n- one item\n- another item\n",
            encoding="utf-8",
        )


def cpu_of(command: list[str], cwd: Path) -> float:
    """CPU seconds (user + system) of one run of ``command`` in ``cwd``; exits on a failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} in {cwd} exited {done.returncode}: {done.stderr.strip()[:400]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=3000, help="N: the smaller tree's pages (default 3000)")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated, of: " + ", ".join(COMMANDS))
    parser.add_argument("--chunker", default=str(Path(sys.executable).with_name("chunker")))
    args = parser.parse_args()
    wanted = [c.strip() for c in args.commands.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in COMMANDS]
    if unknown:
        parser.error(f"unknown command(s): {', '.join(unknown)}")
    if "run" not in wanted:
        wanted.insert(0, "run")  # every other command reads its chunks
    sizes = (args.docs, 4 * args.docs)
    times: dict[str, list[float]] = {c: [] for c in wanted}
    top = Path(tempfile.mkdtemp(prefix="tree-scale-"))
    try:
        for count in sizes:
            root = top / str(count)
            make_tree(root, count)
            for name in wanted:
                times[name].append(cpu_of([args.chunker, *COMMANDS[name]], root))
            shutil.rmtree(root)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"{'command':<12} {sizes[0]:>8} docs {sizes[1]:>8} docs   ratio (linear: 4)   [{os.uname().nodename}]")
    for name in wanted:
        small, large = times[name]
        print(f"{name:<12} {small:>11.2f} s {large:>11.2f} s   {large / small if small else float('nan'):5.2f}")


if __name__ == "__main__":
    main()
