"""Token identity of chunker's block parser (with its speed-ups) and stock markdown-it-py.

Parses every corpus file, every CommonMark spec example and 20,000 random documents with both parsers,
and counts the documents whose token streams differ::

    .venv/bin/python bench/token_identity.py
"""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from markdown_it import MarkdownIt  # noqa: E402

from bench.run import DEFAULT_CORPUS, load_texts  # noqa: E402
from chunker.parse import markdown_parser  # noqa: E402
from chunker.parse.markdown import without_cells  # noqa: E402
from chunker.parse.plugins import use_block_plugins  # noqa: E402

PIECES = ["[", "]", ":", "\\", "\n", " ", "\t", "a", "b", "#", "-", "*", ">", "`", "|", "1.", "$$", "<div>", "'",
          '"', "(", ")", "=", "\n\n", "  ", "---\n", "x: 1\n", "%", "+++", "(a)=", "\xa0", "    "]  # fmt: skip


def stock() -> MarkdownIt:
    md = use_block_plugins(MarkdownIt("commonmark", {"maxNesting": 64}).enable("table"))
    md.core.ruler.disable(["inline", "text_join"])
    return md


def documents(corpus: Path) -> list[str]:
    texts = [text for _, text in load_texts(corpus)]
    spec = corpus / "commonmark-spec" / "spec.txt"
    if spec.is_file():
        examples = re.findall(r"^`{32} example\n(.*?)^\.\n", spec.read_text(), re.S | re.M)
        texts += [e.replace("→", "\t") for e in examples]
    rnd = random.Random(1)
    texts += ["".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 40))) for _ in range(20_000)]
    return texts


def main() -> int:
    texts = documents(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CORPUS)
    differ = 0
    ours, theirs = markdown_parser(64), stock()
    t_ours = t_theirs = 0.0
    for text in texts:
        a = time.process_time()
        expected = without_cells(theirs.parse(text))  # our parser keeps no cell tokens
        b = time.process_time()
        got = ours.parse(text)
        t_theirs, t_ours = t_theirs + b - a, t_ours + time.process_time() - b
        if got != expected:
            differ += 1
            print(f"DIFFERS: {text[:200]!r}")
    print(f"{len(texts)} documents, stock {t_theirs:.2f}s, ours {t_ours:.2f}s")
    print(f"documents with different tokens: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
