"""Peak memory and output size of the CLI on small hostile inputs (results in bench/README.md).

Generates each input in a temporary folder, runs ``python -m chunker --stem X`` there under
``/usr/bin/time -v`` (peak RSS = "Maximum resident set size") and ``prlimit --as`` (default 8 GiB),
and prints one row per input: input bytes, exit code, wall seconds, peak RSS, RSS / input,
chunks.json bytes and chunk count.

    .venv/bin/python bench/hostile_memory.py                       # this checkout
    .venv/bin/python bench/hostile_memory.py --repo /tmp/before    # another checkout (same venv)
    .venv/bin/python bench/hostile_memory.py --only deep_quote --mem-mb 4096
    .venv/bin/python bench/hostile_memory.py --parser pulldown-cmark --only single_line
    .venv/bin/python bench/hostile_memory.py --badinput /work/shared/badinput --only none
    .venv/bin/python bench/hostile_memory.py --badinput /work/shared/badinput --only headings_100k

The base is measured first (a tiny document through the same command); "over base / input" is
(peak RSS - base) / input bytes, the figure the aim (peak RSS <= 10 x input + a fixed base) is about.
``--badinput DIR`` adds every ``.md`` file of DIR and the files its ``generate.py`` writes (those
``--only`` names, unless it names ``none``).

Inputs:

- ``wide_table``: 60 columns x 1,000 rows, every row longer than max_chars (about 1.3 MB);
- ``deep_quote``: 7,923 lines, line n quoted n levels deep (``> > > ... text``; about 63 MB);
- ``deep_quote_small``: the same to 2,000 levels (about 4 MB);
- ``single_line``: one 50 MB line of words, no line break;
- ``sentence_line``: one 50 MB line of short sentences (``Lorem ipsum dolor sit amet. ``);
- ``wide_header``: a header of 100 long column names (about 2.6 KB) over 2,000 short rows (``| x |``):
  a header repeated with every few rows costs more than the rows.
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


def wide_header(path: Path) -> None:
    cols = 100
    with path.open("w", encoding="utf-8") as fh:
        fh.write("# Header\n\n")
        fh.write("| " + " | ".join(f"a long column name {c:03d}" for c in range(cols)) + " |\n")
        fh.write("|" + "---|" * cols + "\n")
        for r in range(2000):
            fh.write(f"| r{r:04d} |\n")


INPUTS: dict[str, Callable[[Path], None]] = {
    "wide_table": wide_table,
    "deep_quote_small": deep_quote(2000),
    "deep_quote": deep_quote(7923),
    "single_line": single_line,
    "sentence_line": sentence_line,
    "wide_header": wide_header,
}


def copy_of(path: Path) -> Callable[[Path], None]:
    def make(target: Path) -> None:
        shutil.copyfile(path, target)

    return make


def base_input(path: Path) -> None:
    path.write_text("# Base\n\n" + "A tiny document, to measure the fixed base.\n" * 3, encoding="utf-8")


def measure(
    name: str, make: Callable[[Path], None], repo: Path, mem_mb: int, timeout: float, parser: str
) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix=f"hostile-{name}-"))
    try:
        (work / "sources").mkdir()
        (work / "config.yaml").write_text(f"parser: {parser}\n", encoding="utf-8")
        source = work / "sources" / f"{name}.md"
        make(source)
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
    parser.add_argument("--only", action="append", help="only this input (repeatable; 'none': no built-in input)")
    parser.add_argument("--parser", default="markdown-it", choices=("markdown-it", "pulldown-cmark"))
    parser.add_argument("--badinput", type=Path, help="also every .md of this folder and what its generate.py writes")
    parser.add_argument("--mem-mb", type=int, default=8192, help="address-space limit of the run (prlimit --as)")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    inputs = {name: make for name, make in INPUTS.items() if not args.only or name in args.only}
    generated = Path(tempfile.mkdtemp(prefix="hostile-generated-"))
    try:
        if args.badinput:
            subprocess.run([sys.executable, str(args.badinput / "generate.py"), str(generated)], check=True)
            for path in sorted([*args.badinput.glob("*.md"), *generated.glob("*.md")]):
                if path.name != "README.md" and (not args.only or "none" in args.only or path.stem in args.only):
                    inputs[path.stem] = copy_of(path)
        run(inputs, args)
    finally:
        shutil.rmtree(generated, ignore_errors=True)


def run(inputs: dict[str, Callable[[Path], None]], args: argparse.Namespace) -> None:
    repo = args.repo.resolve()
    base = int(str(measure("base", base_input, repo, args.mem_mb, args.timeout, args.parser)["peak_rss"]))
    print(f"parser {args.parser}; base (a tiny document): {base / 2**20:,.1f} MB peak RSS")
    print("| input | input bytes | exit | s | peak RSS (MB) | RSS / input | over base / input | chunks.json bytes "
          "| chunks.json / input | chunks | message |")  # fmt: skip
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, make in inputs.items():
        row = measure(name, make, repo, args.mem_mb, args.timeout, args.parser)
        size, rss, out = int(str(row["bytes"])), int(str(row["peak_rss"])), int(str(row["chunks_json"]))
        over = round((rss - base) / size, 1) if size else 0
        print(
            f"| {row['input']} | {size:,} | {row['exit']} | {row['seconds']} | {rss / 2**20:,.1f} | "
            f"{row['rss_per_input']} | {over} | {out:,} | {round(out / size, 1) if size else 0} | "
            f"{row['chunks']:,} | {row['message']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
