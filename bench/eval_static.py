"""bench/eval_compare.py with a static-embedding retriever in place of BM25: a check that its findings do not
hang on lexical matching alone.

    .venv/bin/python bench/eval_static.py [eval_compare.py's arguments]

The model is WordLlama's ``l2_supercat`` (256 dimensions, token embeddings averaged; no network, no GPU),
whose weights and tokenizer ship inside the ``wordllama`` wheel (``pip install wordllama``). That wheel keeps
its tokenizer under ``tokenizers/`` while the loader looks in ``tokenizer/`` first and then downloads, so
the wheel's own folders are given to it as its cache (``disable_download=True``: nothing is fetched). Chunks
and queries are embedded as they are (``content_for_embedding``); ranking is by cosine similarity, scores
rounded to 6 places, equal scores in index order. The report's retriever line says so.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MODEL = "WordLlama l2_supercat 256-d (static token embeddings, cosine)"


def load_model() -> Any:
    import wordllama
    from wordllama import WordLlama

    package = Path(wordllama.__file__).parent
    cache = Path(tempfile.mkdtemp(prefix="wordllama-"))
    (cache / "tokenizers").symlink_to(package / "tokenizers", target_is_directory=True)
    (cache / "weights").symlink_to(package / "weights", target_is_directory=True)
    return WordLlama.load(cache_dir=cache, disable_download=True)


class StaticIndex:
    """Cosine similarity of WordLlama embeddings."""

    def __init__(self, model: Any, texts: Sequence[str]) -> None:
        self._model = model
        self._size = len(texts)
        self._matrix = model.embed(list(texts), norm=True) if texts else None

    def __len__(self) -> int:
        return self._size

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        if self._matrix is None or k < 1:
            return []
        q = self._model.embed([query], norm=True)[0]
        scores = [round(float(s), 6) for s in self._matrix @ q]
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return [(i, scores[i]) for i in order[:k]]


def main() -> int:
    import chunker.evaluate

    model = load_model()
    chunker.evaluate.build_index = lambda texts, retriever="bm25", model_path=None: StaticIndex(model, texts)  # type: ignore[assignment]
    sys.path.insert(0, str(HERE))
    import eval_compare

    original = eval_compare.render

    def render(runs: Any, command: str, corpus: Path) -> str:
        text = original(runs, command.replace("eval_compare.py", "eval_static.py"), corpus)
        start = text.index("- retriever: ")
        end = text.index("\n", start)
        return text[:start] + f"- retriever: {MODEL} over `content_for_embedding`" + text[end:]

    eval_compare.render = render
    return eval_compare.main()


if __name__ == "__main__":
    raise SystemExit(main())
