"""Piecewise parsing (``BlockTokens(doc, cfg, piece_chars)``) gives the tokens of the whole-document parse.

For every corpus file, the synthetic 10 MB document of ``bench/run.py --scaling`` and 20,000 random
documents, with small piece sizes (so that every file is cut in many pieces) and the default one,
compares the token lists (pieces concatenated) and the parse's diagnostics with those of the whole
parse (``piece_chars=None``); documents parsed in more than one piece are counted::

    .venv/bin/python bench/piece_identity.py
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from markdown_it.token import Token  # noqa: E402

from bench.run import DEFAULT_CORPUS, load_texts, synthetic  # noqa: E402
from chunker.config import ChunkerConfig  # noqa: E402
from chunker.parse import PIECE_CHARS, BlockTokens, read_document  # noqa: E402
from chunker.text import normalise_newlines  # noqa: E402

PIECES = ["# h\n", "## s\n", "\n", "text ", "$$", "$$\n", "```\n", "~~~\n", "<!--\n", "-->\n", "---\n", "x: 1\n",
          "- item\n", "  more\n", "> quote\n", "| a | b |\n|---|---|\n", "    code\n", "[r]: /u\n", "<div>\n",
          "\n\n", "#\n", " # not\n", "setext\n===\n", "1. one\n"]  # fmt: skip


def compare(text: str, cfg: ChunkerConfig, size: int) -> str:
    """Whether the pieces give the same parse: "same" (one piece), "same, pieces" or "DIFFERENT"."""
    doc = read_document(text, cfg)
    whole, pieces = BlockTokens(doc, cfg, None), BlockTokens(doc, cfg, size)
    expected = [t for piece in whole for t in piece]
    count = 0
    got: list[Token] = []
    for piece in pieces:
        got.extend(piece)
        count += 1
    if got != expected or pieces.diagnostics != whole.diagnostics:
        return "DIFFERENT"
    return "same, pieces" if count > 1 else "same"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS, help="folder of Markdown files")
    corpus = ap.parse_args().corpus
    cfg = ChunkerConfig()
    texts = [normalise_newlines(text) for _, text in load_texts(corpus)]
    rnd = random.Random(1)
    randoms = ["".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 60))) for _ in range(20_000)]
    big = synthetic(corpus, 10_000_000)
    default = PIECE_CHARS
    runs = [("corpus", texts, 2_000), ("corpus", texts, 30_000), ("random", randoms, 20), ("random", randoms, 80),
            ("synthetic 10 MB", [big], default), ("synthetic 10 MB", [big], 50_000)]  # fmt: skip
    different = 0
    for name, docs, size in runs:
        counts = {"same": 0, "same, pieces": 0, "DIFFERENT": 0}
        for text in docs:
            outcome = compare(text, cfg, size)
            counts[outcome] += 1
            if outcome == "DIFFERENT":
                print(f"DIFFERENT ({name}, pieces of {size}): {text[:300]!r}")
        different += counts["DIFFERENT"]
        print(f"{name}, pieces of {size} chars: {len(docs)} documents, {counts}")
    print(f"documents with different tokens: {different}")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
