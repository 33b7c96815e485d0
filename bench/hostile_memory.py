"""Peak memory and output size of the CLI on small hostile inputs (results in bench/README.md).

Generates each input in a temporary folder, runs ``python -m chunker --stem X`` there under
``/usr/bin/time -v`` (peak RSS = "Maximum resident set size") and ``prlimit --as`` (default 8 GiB),
and prints one row per input: input bytes, exit code, wall seconds, peak RSS, RSS / input,
chunks.json bytes and chunk count.

    .venv/bin/python bench/hostile_memory.py                       # this checkout
    .venv/bin/python bench/hostile_memory.py --repo /tmp/before    # another checkout (same venv)
    .venv/bin/python bench/hostile_memory.py --only deep_quote --mem-mb 4096

Inputs:

- ``wide_table``: 60 columns x 1,000 rows, every row longer than max_chars (about 1.3 MB);
- ``deep_quote``: 7,923 lines, line n quoted n levels deep (``> > > ... text``; about 63 MB);
- ``deep_quote_small``: the same to 2,000 levels (about 4 MB);
- ``single_line``: one 50 MB line of words, no line break;
- ``sentence_line``: one 50 MB line of short sentences (``Lorem ipsum dolor sit amet. ``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def wide_table(path: Path) -> None:
    cols = 60
    with path.open("w", encoding="utf-8") as fh:
        fh.write("# Wide\n\n")
        fh.write("| " + " | ".join(f"column {c:02d}" for c in range(cols)) + " |\n")
        fh.write("|" + "---|" * cols + "\n")
        for r in range(1000):
            fh.write("| " + " | ".join(f"r{r:04d} c{c:02d} value" for c in range(cols)) + " |\n")


def deep_quote(levels: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with path.open("w", encoding="utf-8") as fh:
            fh.write("# Quote\n\n")
            for level in range(1, levels + 1):
                fh.write("> " * level + f"level {level}\n")

    return make


def single_line(path: Path) -> None:
    words = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
    unit = " ".join(words) + " "
    target = 50 * 10**6
    with path.open("w", encoding="utf-8") as fh:
        fh.write((unit * (target // len(unit) + 1))[:target])


def sentence_line(path: Path) -> None:
    unit = "Lorem ipsum dolor sit amet. "
    target = 50 * 10**6
    with path.open("w", encoding="utf-8") as fh:
        fh.write((unit * (target // len(unit) + 1))[:target])


INPUTS: dict[str, Callable[[Path], None]] = {
    "wide_table": wide_table,
    "deep_quote_small": deep_quote(2000),
    "deep_quote": deep_quote(7923),
    "single_line": single_line,
    "sentence_line": sentence_line,
}


def measure(name: str, repo: Path, mem_mb: int, timeout: float) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix=f"hostile-{name}-"))
    try:
        (work / "sources").mkdir()
        source = work / "sources" / f"{name}.md"
        INPUTS[name](source)
        size = source.stat().st_size
        env = {**os.environ, "PYTHONPATH": str(repo)}
        command = [
            "prlimit", f"--as={mem_mb * 2**20}", "/usr/bin/time", "-v",
            sys.executable, "-m", "chunker", "--stem", name, "--quiet",
        ]  # fmt: skip
        start = time.monotonic()
        try:
            done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
            code: object = done.returncode
            stderr = done.stderr
        except subprocess.TimeoutExpired as exc:
            code, stderr = "timeout", (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else ""
        seconds = time.monotonic() - start
        found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
        rss = int(found.group(1)) * 1024 if found else 0
        chunks = work / "chunks" / name / "chunks.json"
        out_size = chunks.stat().st_size if chunks.exists() else 0
        count = 0
        if out_size and out_size < 2**31:
            import orjson

            count = len(orjson.loads(chunks.read_bytes()))
        status = re.search(r"Exit status: (\d+)", stderr)
        signal = re.search(r"Command terminated by signal (\d+)", stderr)
        if signal:
            code = f"signal {signal.group(1)}"
        elif status and code != "timeout":
            code = int(status.group(1))
        errors = [line for line in stderr.splitlines() if "Error" in line or "error" in line][:2]
        return {
            "input": name,
            "bytes": size,
            "exit": code,
            "seconds": round(seconds, 1),
            "peak_rss": rss,
            "rss_per_input": round(rss / size, 1) if size else 0,
            "chunks_json": out_size,
            "chunks": count,
            "message": " | ".join(errors)[:160],
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=REPO, help="import chunker from this checkout")
    parser.add_argument("--only", action="append", choices=sorted(INPUTS), help="only this input (repeatable)")
    parser.add_argument("--mem-mb", type=int, default=8192, help="address-space limit of the run (prlimit --as)")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    names = args.only or list(INPUTS)
    print("| input | input bytes | exit | s | peak RSS (MB) | RSS / input | chunks.json bytes | chunks | message |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---|")
    for name in names:
        row = measure(name, args.repo.resolve(), args.mem_mb, args.timeout)
        print(
            f"| {row['input']} | {row['bytes']:,} | {row['exit']} | {row['seconds']} | "
            f"{int(row['peak_rss']) / 2**20:,.0f} | {row['rss_per_input']} | {row['chunks_json']:,} | "
            f"{row['chunks']:,} | {row['message']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
