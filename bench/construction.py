"""Cost of building Chunk, Block, Draft and Unit with keywords, against positional arguments.

The four are ``kw_only`` dataclasses (two swapped fields of one type cannot pass mypy). This
builds N objects of each from the field values of real ones (the first corpus files, chunked)
twice: once through a call with every field by keyword, as the pipeline does, and once through
a positional call of a twin dataclass with the same fields and options but not ``kw_only``.
Best of ``--repeat`` runs, per 10,000 objects::

    .venv/bin/python bench/construction.py [--objects 10000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import sys
import timeit
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from chunker.config import ChunkerConfig  # noqa: E402
from chunker.models import Block, Chunk  # noqa: E402
from chunker.pack import budget, drafts, strength  # noqa: E402
from chunker.pipeline import chunk_markdown  # noqa: E402
from chunker.strategies import Section  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


def _twin(cls: type, slots: bool, unsafe_hash: bool) -> type:
    """The same fields and options as ``cls``, positional (no defaults, no kw_only)."""
    fields = [(f.name, Any) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(f"Positional{cls.__name__}", fields, slots=slots, unsafe_hash=unsafe_hash)


def _builders(cls: type, twin: type) -> tuple[Any, Any]:
    """Two functions building a list of objects from a list of value tuples: keyword and positional."""
    names = [f.name for f in dataclasses.fields(cls)]
    keywords = ", ".join(f"{n}=v[{k}]" for k, n in enumerate(names))
    positional = ", ".join(f"v[{k}]" for k in range(len(names)))
    scope: dict[str, Any] = {"cls": cls, "twin": twin}
    exec(f"def by_keyword(values):\n    return [cls({keywords}) for v in values]\n", scope)
    exec(f"def by_position(values):\n    return [twin({positional}) for v in values]\n", scope)
    return scope["by_keyword"], scope["by_position"]


def _samples(objects: int) -> dict[type, list[tuple[Any, ...]]]:
    cfg = ChunkerConfig.from_mapping({})
    files = sorted(p for p in CORPUS.rglob("*.md") if p.name != "SOURCES.md")
    chunks: list[Chunk] = []
    blocks: list[Block] = []
    for path in files:
        result = chunk_markdown(path.read_text(encoding="utf-8"), cfg, stem=path.stem, source_path=str(path))
        chunks.extend(result.chunks)
        blocks.extend(result.blocks)
        if len(chunks) >= 1000 and len(blocks) >= 1000:
            break

    def values(objs: list[Any]) -> list[tuple[Any, ...]]:
        rows = [tuple(getattr(o, f.name) for f in dataclasses.fields(o)) for o in objs]
        return (rows * (objects // len(rows) + 1))[:objects]

    units = [strength.Unit(start=b.start_offset, end=b.end_offset, block=b, strength=strength.BLOCK) for b in blocks]
    section = Section(title="x", blocks=tuple(blocks[:3]))
    space = budget.SectionSpace(blocks[0].source, section, 0, cfg, "x")
    found: list[Any] = []
    draft_list = [drafts.make_draft(space, [u], found) for u in units if u.block.source is space.source]
    return {
        Chunk: values(chunks),
        Block: values(blocks),
        drafts.Draft: values(draft_list),
        strength.Unit: values(units),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    samples = _samples(args.objects)
    per = 10_000 / args.objects
    print(f"per 10,000 objects, best of {args.repeat} (ms): keywords, positional twin, difference")
    for cls, rows in samples.items():
        params = dataclasses.fields(cls)
        twin = _twin(cls, slots=True, unsafe_hash=cls in (Chunk, Block))
        by_keyword, by_position = _builders(cls, twin)
        kw = min(timeit.repeat(functools.partial(by_keyword, rows), number=1, repeat=args.repeat)) * 1000 * per
        pos = min(timeit.repeat(functools.partial(by_position, rows), number=1, repeat=args.repeat)) * 1000 * per
        print(f"{cls.__name__:6} ({len(params):2} fields): {kw:6.2f}  {pos:6.2f}  {kw - pos:+6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
