"""The retrievers of ``chunker eval``: BM25 over :func:`~chunker.eval_tokens.tokenize`
(``bm25s``), and cosine similarity of sentence-transformers embeddings from a local model
directory (never downloaded)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from chunker.errors import UsageError
from chunker.eval_tokens import tokenize

RETRIEVERS: tuple[str, ...] = ("bm25", "dense")

DENSE_HINT = (
    "install the optional extra with `pip install 'chunker[dense]'` and give a local "
    "sentence-transformers model directory with `--model PATH` or in config.yaml as `eval: {model: PATH}`"
)


class Index(Protocol):
    """A retriever over a fixed list of texts."""

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """The best ``k`` texts as (index into the texts, score), best first."""
        ...


def _top(scores: Sequence[float], k: int, *, positive_only: bool) -> list[tuple[int, float]]:
    """Best ``k`` by score, ties broken by the lower index."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    out: list[tuple[int, float]] = []
    for i in order[: max(k, 0)]:
        if positive_only and not scores[i] > 0:
            break
        out.append((i, float(scores[i])))
    return out


class BM25Index:
    """BM25 (Lucene variant, ``bm25s``) over ``texts`` tokenized with :func:`tokenize`."""

    def __init__(self, texts: Sequence[str], *, k1: float = 1.5, b: float = 0.75, stem: bool = True) -> None:
        self._stem = stem
        self._size = len(texts)
        self._vocab: dict[str, int] = {}
        ids: list[list[int]] = []
        for text in texts:
            ids.append([self._vocab.setdefault(tok, len(self._vocab)) for tok in tokenize(text, stem=stem)])
        self._bm25: Any = None
        if self._size and self._vocab:
            import bm25s

            self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene")
            self._bm25.index(bm25s.tokenization.Tokenized(ids=ids, vocab=self._vocab), show_progress=False)

    def __len__(self) -> int:
        return self._size

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """Texts with a positive score, best first; equal scores in text order."""
        if self._bm25 is None or k < 1:
            return []
        query_ids = list(dict.fromkeys(self._vocab[t] for t in tokenize(query, stem=self._stem) if t in self._vocab))
        if not query_ids:
            return []
        scores = self._bm25.get_scores_from_ids(query_ids)
        return _top([float(s) for s in scores], k, positive_only=True)


def resolve_model_path(model: str | Path | None, configured: str | None = None) -> Path:
    """The local model directory from ``--model`` or config ``eval: {model: PATH}``; never a hub name."""
    value = model if model is not None else configured
    if value is None or (isinstance(value, str) and not value.strip()):
        raise UsageError(f"the dense retriever needs a local model: {DENSE_HINT}")
    path = Path(value).expanduser()
    if not path.is_dir():
        raise UsageError(
            f"model directory not found: {path} (models are never downloaded; {DENSE_HINT})", path=str(path)
        )
    return path


class DenseIndex:
    """Cosine similarity of sentence-transformers embeddings from a local model directory."""

    def __init__(self, texts: Sequence[str], model: str | Path, *, batch_size: int = 32) -> None:
        path = resolve_model_path(model)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise UsageError(f"sentence-transformers is not installed: {DENSE_HINT}") from None
        try:
            self._model: Any = SentenceTransformer(str(path), device="cpu", local_files_only=True)
        except Exception as exc:  # the library raises many kinds for a bad directory
            raise UsageError(
                f"cannot load a sentence-transformers model from {path}: {exc} ({DENSE_HINT})", path=str(path)
            ) from None
        self._size = len(texts)
        self._matrix: Any = None
        if texts:
            self._matrix = self._model.encode(
                list(texts), batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
            )

    def __len__(self) -> int:
        return self._size

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """All texts by cosine similarity, best first; equal scores in text order."""
        if self._matrix is None or k < 1:
            return []
        q = self._model.encode([query], normalize_embeddings=True, show_progress_bar=False)[0]
        scores = self._matrix @ q
        # Rounding makes the order independent of last-bit noise between BLAS runs.
        return _top([round(float(s), 6) for s in scores], k, positive_only=False)


def build_index(texts: Sequence[str], retriever: str = "bm25", model: str | Path | None = None) -> Index:
    """A :class:`BM25Index` or :class:`DenseIndex` over ``texts``."""
    if retriever == "bm25":
        return BM25Index(texts)
    if retriever == "dense":
        if model is None:
            raise UsageError(f"the dense retriever needs a local model: {DENSE_HINT}")
        return DenseIndex(texts, model)
    raise UsageError(f"unknown retriever {retriever!r}; choose one of {', '.join(RETRIEVERS)}")
