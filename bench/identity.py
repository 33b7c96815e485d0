"""Output identity check: one sha256 per corpus file of its chunks.json bytes (and its report).

Run before and after an optimisation and diff the two JSON files; they must be equal::

    .venv/bin/python bench/identity.py -o /tmp/before.json
    ... change the code ...
    .venv/bin/python bench/identity.py -o /tmp/after.json --compare /tmp/before.json

Every file is chunked under several configurations (the default, and ones that exercise
other code paths: recursive strategy, blockquote prefixes, overlap, auto section level).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parent.parent
# --repo DIR imports the chunker package from DIR instead (e.g. a copy with a change reverted).
_ROOT = Path(sys.argv[sys.argv.index("--repo") + 1]) if "--repo" in sys.argv else REPO
sys.path.insert(0, str(_ROOT))

from chunker.config import ChunkerConfig  # noqa: E402
from chunker.pipeline import chunk_markdown  # noqa: E402
from chunker.runner import chunks_bytes  # noqa: E402

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "recursive-quote-overlap": {"strategy": "recursive", "context_prefix": "blockquote", "overlap_sentences": 1},
    "auto-heading-small": {
        "section_level": "auto",
        "context_prefix": "heading",
        "max_chars": 500,
        "target_chars": 300,
        "min_chars": 40,
    },
}


STREAMABLE: dict[str, dict[str, Any]] = {
    "default": {},
    "level1-quote-overlap": {"section_level": 1, "context_prefix": "blockquote", "overlap_sentences": 1},
    "level3-heading-small": {
        "section_level": 3,
        "context_prefix": "heading",
        "max_chars": 500,
        "target_chars": 300,
        "min_chars": 40,
    },
}
"""Configurations of the streamed path (``--configs streamable``): strategy headings at fixed levels."""


def corpus_files(root: Path) -> list[Path]:
    files = [
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in (".md", ".markdown", ".txt") and p.name != "SOURCES.md"
    ]
    return sorted(files)


def digest(root: Path, configs: dict[str, dict[str, Any]], streamed: bool = False) -> dict[str, str]:
    out: dict[str, str] = {}
    cfgs = {name: ChunkerConfig.from_mapping(opts) for name, opts in configs.items()}
    for path in corpus_files(root):
        rel = str(path.relative_to(root))
        text = path.read_bytes().decode("utf-8")
        for name, cfg in cfgs.items():
            if streamed and _streamable(cfg, rel):
                out[f"{name}:{rel}"] = _streamed_digest(text, cfg, path.stem, rel)
                continue
            result = chunk_markdown(text, cfg, path.stem, rel)
            h = hashlib.sha256(chunks_bytes(result))
            h.update(orjson.dumps(result.diagnostics.to_dict()))
            out[f"{name}:{rel}"] = h.hexdigest()
    return out


def _streamable(cfg: ChunkerConfig, rel: str) -> bool:
    from chunker.streamed import streamable

    return streamable(cfg, rel)


def _streamed_digest(text: str, cfg: ChunkerConfig, stem: str, rel: str) -> str:
    """The digest of a document through the streamed path (the runner's), chunks.json as it writes it."""
    from chunker.core import streamed_parts
    from chunker.streamed import StreamedChunks

    stream = StreamedChunks(text, cfg, stem, rel)
    h = hashlib.sha256()
    for part in streamed_parts(stream):
        h.update(part)
    h.update(orjson.dumps(stream.result().diagnostics.to_dict()))
    return h.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--compare", type=Path, help="a previous output to compare with")
    parser.add_argument("--default-only", action="store_true", help="only the default configuration")
    parser.add_argument("--repo", type=Path, help="import chunker from this folder (default: this repo)")
    parser.add_argument("--parser", help="add 'parser: NAME' to every configuration (e.g. pulldown-cmark)")
    parser.add_argument(
        "--configs", choices=("all", "streamable"), default="all", help="streamable: the streamed path's configurations"
    )
    parser.add_argument(
        "--streamed", action="store_true", help="chunk through the runner's streamed path where it applies"
    )
    args = parser.parse_args()
    configs = CONFIGS if args.configs == "all" else STREAMABLE
    if args.default_only:
        configs = {"default": {}}
    if args.parser:
        configs = {name: {**opts, "parser": args.parser} for name, opts in configs.items()}
    import chunker

    print(f"chunker from {Path(chunker.__file__).parent}")
    hashes = digest(args.corpus, configs, args.streamed)
    args.output.write_bytes(orjson.dumps(hashes, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    print(f"{len(hashes)} hashes -> {args.output}")
    if args.compare:
        before = orjson.loads(args.compare.read_bytes())
        differ = sorted(k for k in set(before) | set(hashes) if before.get(k) != hashes.get(k))
        for key in differ[:20]:
            print(f"DIFFERS: {key}")
        print(f"identical: {len(hashes) - len(differ)}/{len(hashes)}; differing: {len(differ)}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
