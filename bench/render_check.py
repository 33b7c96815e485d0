"""The rendering-equivalence check (:mod:`chunker.rendering`): what it flags and what it costs.

    python bench/render_check.py ../shared/corpus                 # whole shared corpus
    python bench/render_check.py ../shared/corpus/de-gesetze --repeat 5
    python bench/render_check.py /work/docset --examples 5        # flagged chunks, a few shown
    python bench/render_check.py ../shared/corpus --command --no-timing --repeat 4   # the command, on vs off

Every Markdown file under the folder is chunked in memory with the default config (:class:`ChunkerConfig`
defaults, or ``--set max_chars=300 --set target_chars=200 ...``; ``.txt`` sources are not checked, so they
are left out). Printed:

- ``chunks``, ``pieces`` (a cut first or last block, or added text), ``parsed`` (the pieces the check
  parses: not equivalent by construction) and
  ``flagged`` (chunks with a ``rendering-changed`` finding), with the first examples on stderr;
- the cost, as CPU time of this process in rounds that alternate the check on and off (``off``: the
  validator's call replaced by nothing), median of the per-round ratios ``on / off - 1``; and the CPU time
  spent inside the check itself in the ``on`` rounds, as a share of those rounds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import yaml

import chunker.validator as validator
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown
from chunker.rendering import check_rendering, is_piece
from chunker.rendering_rules import by_construction, cut_like_text

SUFFIXES = (".md", ".mdx", ".markdown")


def _texts(root: Path) -> list[tuple[str, str]]:
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    return [(str(p.relative_to(root)), p.read_text(encoding="utf-8", errors="surrogateescape")) for p in files]


class _Timed:
    """check_rendering with the CPU time spent in it summed up."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self, *args: Any) -> Iterator[Any]:
        start = time.process_time()
        found = list(check_rendering(*args))
        self.seconds += time.process_time() - start
        return iter(found)


def _off(*args: Any) -> Iterator[Any]:
    return iter(())


def _round(texts: Sequence[tuple[str, str]], cfg: ChunkerConfig, check: Any) -> float:
    validator.check_rendering = check  # type: ignore[attr-defined]
    start = time.process_time()
    for doc, text in texts:
        chunk_markdown(text, cfg, "x", doc)
    return time.process_time() - start


def flagged(texts: Sequence[tuple[str, str]], cfg: ChunkerConfig, examples: int) -> dict[str, int]:
    counts = {"documents": len(texts), "chunks": 0, "pieces": 0, "parsed": 0, "flagged": 0}
    for doc, text in texts:
        result = chunk_markdown(text, cfg, "x", doc)
        by_id = {b.id: b for b in result.blocks}
        counts["chunks"] += len(result.chunks)
        pieces = [c for c in result.chunks if is_piece(c, by_id)]
        counts["pieces"] += len(pieces)
        for c in pieces:
            own = [by_id[i] for i in c.block_ids if i in by_id]
            counts["parsed"] += not (cut_like_text(text, c, own) or by_construction(text, c, own))
        for finding in result.diagnostics.diagnostics:
            if finding.code == "rendering-changed":
                counts["flagged"] += 1
                if counts["flagged"] <= examples:
                    print(f"  {doc} {finding.chunk_id}: {finding.message}", file=sys.stderr)
    return counts


_COMMAND = """
import sys
import chunker.validator
if sys.argv.pop(1) == "off":
    chunker.validator.check_rendering = lambda *args: iter(())
from chunker.entry import main
main()
"""


def command(corpus: Path, repeat: int) -> dict[str, Any]:
    """``chunker --force --jobs 1 --quiet`` as whole processes, the check on and off alternating
    (``off``: the same process with the validator's call replaced); child CPU time."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from e2e import _copy_corpus, _timed

    ratios = []
    with tempfile.TemporaryDirectory(prefix="chunker-render-") as tmp:
        root = Path(tmp)
        _copy_corpus(corpus, root / "sources")
        for r in range(repeat):
            runs = {}
            for mode in ("on", "off") if r % 2 == 0 else ("off", "on"):
                out = root / f"out-{mode}"
                cmd = [sys.executable, "-c", _COMMAND, mode, "--force", "--jobs", "1", "--quiet", "--out", str(out)]
                runs[mode] = _timed(cmd, root)[0]
                shutil.rmtree(out, ignore_errors=True)
            ratios.append(runs["on"] / runs["off"] - 1)
            print(f"round {r + 1}: on {runs['on']:.2f}s off {runs['off']:.2f}s cpu", file=sys.stderr)
    return {"command_cost_on_vs_off": f"{100 * statistics.median(ratios):+.1f} %", "command_rounds": ratios}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="rounds of each (default 3)")
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--command", action="store_true", help="time the chunker command, check on vs off")
    parser.add_argument(
        "--set", action="append", default=[], metavar="OPTION=VALUE", help="a config option (YAML value), repeatable"
    )
    args = parser.parse_args(argv)
    cfg = ChunkerConfig(**{k: yaml.safe_load(v) for k, v in (o.split("=", 1) for o in args.set)})
    texts = _texts(args.root)
    result: dict[str, Any] = flagged(texts, cfg, args.examples)
    if not args.no_timing:
        ratios, shares = [], []
        for _ in range(args.repeat):
            timed = _Timed()
            on = _round(texts, cfg, timed)
            off = _round(texts, cfg, _off)
            ratios.append(on / off - 1)
            shares.append(timed.seconds / on)
        validator.check_rendering = check_rendering  # type: ignore[attr-defined]
        result["cost_on_vs_off"] = f"{100 * statistics.median(ratios):+.1f} %"
        result["time_in_check"] = f"{100 * statistics.median(shares):.1f} % of a run"
        result["rounds"] = [f"{100 * r:+.1f} %" for r in ratios]
    if args.command:
        result.update(command(args.root, args.repeat))
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
