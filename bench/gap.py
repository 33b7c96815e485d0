"""Where the command's CPU goes beyond the parse: whole processes, and the library per corpus folder.

Two measurements behind ``bench/E2E.md``, "Tenth pass":

- ``--processes`` (default): per round, as whole processes in one order, the read + block-parse process of
  ``bench/e2e.py``, a process that imports chunker and calls ``chunk_markdown`` once over every file (the
  library, cold, as the command calls it once), ``chunker --force --jobs 1 --quiet``, and a process that only
  imports the command's modules; CPU time of each as a ratio to the parse process of its round.
- ``--folders``: each file chunked with ``chunk_markdown`` and parsed block-only in one warm process, best of
  two each, summed per top-level folder of the corpus: which kinds of page cost most per byte.

    .venv/bin/python bench/gap.py ../shared/corpus/de-gesetze --repeat 4
    .venv/bin/python bench/gap.py ../shared/corpus --folders
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import e2e

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable

LIBRARY_ONCE = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
cfg = ChunkerConfig()
for path in sorted(Path(sys.argv[2]).iterdir()):
    chunk_markdown(path.read_bytes().decode("utf-8"), cfg, path.stem, str(path))
"""

IMPORTS = "import sys; sys.path.insert(0, sys.argv[1]); import chunker.cli, chunker.pipeline, chunker.runner"


def processes(corpus: Path, repeat: int) -> None:
    with tempfile.TemporaryDirectory(prefix="chunker-gap-") as tmp:
        root = Path(tmp)
        e2e._bytecode_cache(root, [REPO])
        count = e2e._copy_corpus(corpus, root / "sources")
        sources = str(root / "sources")
        cmds = {
            "read + block parse": [PY, "-c", e2e.PARSE_ONLY, sources],
            "library once (imports, reads, chunk_markdown)": [PY, "-c", LIBRARY_ONCE, str(REPO), sources],
            "chunker --force --jobs 1 --quiet": e2e._tree_cmd(REPO, root / "OUT", []),
            "imports alone": [PY, "-c", IMPORTS, str(REPO)],
        }
        cpu: dict[str, list[float]] = {name: [] for name in cmds}
        for r in range(repeat):
            for name, cmd in cmds.items():
                cpu[name].append(e2e._timed(cmd, root)[0])
                shutil.rmtree(root / "OUT", ignore_errors=True)
            print(f"round {r + 1}/{repeat}: " + ", ".join(f"{v[-1]:.2f}s" for v in cpu.values()), file=sys.stderr)
    parse = cpu["read + block parse"]
    print(f"\n{corpus} ({count} files), {repeat} rounds, CPU time\n")
    print("| process | cpu s (fastest) | ratio to the parse process, per round |")
    print("|---|---:|---|")
    for name, spent in cpu.items():
        ratios = ", ".join(f"{s / p:.2f}" for s, p in zip(spent, parse, strict=True))
        print(f"| {name} | {min(spent):.2f} | {ratios} |")


def folders(corpus: Path) -> None:
    sys.path.insert(0, str(REPO))
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    from chunker.config import ChunkerConfig
    from chunker.pipeline import chunk_markdown

    md = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(dollarmath_plugin)
    md.core.ruler.disable("inline")
    cfg = ChunkerConfig()
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])  # chunk s, parse s, bytes
    for path in sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in (".md", ".mdx", ".txt")):
        text = path.read_bytes().decode("utf-8", "replace")
        parsed = chunked = float("inf")
        for _ in range(2):
            start = time.process_time()
            md.parse(text)
            parsed = min(parsed, time.process_time() - start)
            start = time.process_time()
            chunk_markdown(text, cfg, path.stem, str(path))
            chunked = min(chunked, time.process_time() - start)
        row = sums[path.relative_to(corpus).parts[0] if len(path.relative_to(corpus).parts) > 1 else "."]
        row[0] += chunked
        row[1] += parsed
        row[2] += len(text.encode("utf-8"))
    print(f"\n{corpus}: chunk_markdown / block parse per folder, one warm process, best of two per file\n")
    print("| folder | MB | chunk_markdown s | block parse s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, (c, p, size) in sorted(sums.items(), key=lambda item: item[1][1] - item[1][0]):
        print(f"| {name} | {size / 1e6:.2f} | {c:.2f} | {p:.2f} | {c / max(p, 1e-9):.2f} |")
    c, p = sum(v[0] for v in sums.values()), sum(v[1] for v in sums.values())
    print(f"| all | {sum(v[2] for v in sums.values()) / 1e6:.2f} | {c:.2f} | {p:.2f} | {c / p:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description="Where the command's CPU goes beyond the parse (bench/E2E.md).")
    parser.add_argument("corpus", nargs="?", type=Path, default=e2e.DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folders", action="store_true", help="the library per corpus folder instead")
    args = parser.parse_args()
    if args.folders:
        folders(args.corpus.resolve())
    else:
        processes(args.corpus.resolve(), args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
