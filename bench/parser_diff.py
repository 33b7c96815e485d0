"""Differential check of the two block parsers: markdown-it-py (the reference) and pulldown-cmark.

For every CommonMark spec example and every corpus file, the blocks of both paths are compared:
kind, line range, heading path, fence lines, nested kinds, joints. Prints a summary and the first
differences; ``--json FILE`` writes every differing (source, block) pair.

    .venv/bin/python bench/parser_diff.py                 # spec + ../shared/corpus
    .venv/bin/python bench/parser_diff.py --show 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chunker.config import ChunkerConfig  # noqa: E402
from chunker.models import Block  # noqa: E402
from chunker.pipeline import _blocks  # noqa: E402
from chunker.text import normalise_newlines  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
SPEC = CORPUS / "commonmark-spec" / "spec.txt"
FENCE = "`" * 32
REFERENCE = ChunkerConfig()
FAST = ChunkerConfig(parser="pulldown-cmark")


def spec_examples(path: Path = SPEC) -> list[tuple[str, str]]:
    if not path.is_file():
        return []
    out: list[tuple[str, str]] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    k = 0
    while k < len(lines):
        if lines[k].startswith(FENCE + " example"):
            start = k + 1
            end = lines.index(".", start)
            out.append((f"spec example {len(out) + 1}", "\n".join(lines[start:end]).replace("→", "\t") + "\n"))
            k = lines.index(FENCE, end)
        k += 1
    return out


def shape(block: Block) -> tuple[Any, ...]:
    return (
        block.kind,
        block.start_line,
        block.end_line,
        tuple(h.text for h in block.header_path),
        block.fence,
        tuple(sorted(block.inner)),
        len(block.joints),
    )


def compare(text: str) -> list[tuple[tuple[Any, ...] | None, tuple[Any, ...] | None]]:
    """Pairs (reference block, fast block) that differ, aligned by position in the block list."""
    text = normalise_newlines(text)
    ref = [shape(b) for b in _blocks(text, REFERENCE)[0]]
    fast = [shape(b) for b in _blocks(text, FAST)[0]]
    if ref == fast:
        return []
    diffs: list[tuple[tuple[Any, ...] | None, tuple[Any, ...] | None]] = []
    rest_fast = list(fast)
    for item in ref:
        if item in rest_fast:
            rest_fast.remove(item)
        else:
            diffs.append((item, None))
    diffs.extend((None, item) for item in rest_fast)
    return diffs


def classify(pair: tuple[tuple[Any, ...] | None, tuple[Any, ...] | None]) -> str:
    ref, fast = pair
    kind = (ref or fast or ("?",))[0]
    return f"{kind} only in {'markdown-it' if fast is None else 'pulldown-cmark'}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sources = spec_examples()
    files = sorted(
        p for p in args.corpus.rglob("*") if p.is_file() and p.suffix in (".md", ".markdown") and p.name != "SOURCES.md"
    )
    sources += [(str(p.relative_to(args.corpus)), p.read_text(encoding="utf-8")) for p in files]
    started = time.perf_counter()
    differing: dict[str, list[Any]] = {}
    classes: Counter[str] = Counter()
    total_blocks = 0
    for name, text in sources:
        total_blocks += len(_blocks(normalise_newlines(text), REFERENCE)[0])
        diffs = compare(text)
        if diffs:
            differing[name] = diffs
            classes.update(classify(d) for d in diffs)
    spec_count = sum(1 for name, _ in sources if name.startswith("spec example"))
    spec_diff = sum(1 for name in differing if name.startswith("spec example"))
    corpus_diff = len(differing) - spec_diff
    print(
        f"{len(sources)} sources ({spec_count} spec examples, {len(sources) - spec_count} corpus files), "
        f"{total_blocks:,} reference blocks, {time.perf_counter() - started:.1f} s"
    )
    print(
        f"identical blocks: {spec_count - spec_diff}/{spec_count} spec examples, "
        f"{len(sources) - spec_count - corpus_diff}/{len(sources) - spec_count} corpus files"
    )
    for label, count in classes.most_common():
        print(f"  {count:5d}  {label}")
    for name, diffs in list(differing.items())[: args.show]:
        print(f"\n{name}:")
        for ref, fast in diffs[:6]:
            print(f"  markdown-it:    {ref}\n  pulldown-cmark: {fast}")
    if args.json:
        args.json.write_text(json.dumps(differing, indent=1, ensure_ascii=False, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
