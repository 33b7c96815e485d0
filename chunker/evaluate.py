"""Retrieval evaluation of chunks: does a chunk of the expected section come back?

The library half of ``chunker eval``. A case file is JSONL, one case per line::

    {"id": "gi-01", "doc": "general_info", "query": "...",
     "expected_doc_section": "...", "expected_text_contains": "..."}

:func:`evaluate` indexes every chunk of every document it is given together (the
documents compete, as in a real index), runs each query and measures:

- section hit@1 and hit@k: a retrieved chunk of the case's document whose
  ``section`` equals ``expected_doc_section`` (compared after collapsing
  whitespace and casefolding);
- text hit@k: a retrieved chunk of the case's document whose ``content_original``
  contains ``expected_text_contains`` (case-insensitive, whitespace collapsed);
- reciprocal rank of the first section hit within the top 10.

What is indexed is ``content_for_embedding``: the text an embedding model would
see, context prefix included. The default retriever is BM25 (``bm25s``) over
:func:`tokenize`; ``dense`` uses a sentence-transformers model from a local
directory and never downloads one.
"""

from __future__ import annotations

import importlib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from chunker.errors import UsageError
from chunker.eval_cases import MAX_CASE_FILE_BYTES, MAX_CASE_LINE_BYTES, MAX_CASES, Case, load_cases
from chunker.eval_table import render_table
from chunker.sources import shown_path

__all__ = [
    "MAX_CASES",
    "MAX_CASE_FILE_BYTES",
    "MAX_CASE_LINE_BYTES",
    "RETRIEVERS",
    "BM25Index",
    "Case",
    "CaseResult",
    "DenseIndex",
    "EvalReport",
    "Retrieved",
    "Totals",
    "build_index",
    "check_forbidden",
    "check_k",
    "check_threshold",
    "check_thresholds",
    "evaluate",
    "hit_at_k",
    "load_cases",
    "load_forbidden",
    "mean",
    "reciprocal_rank",
    "render_table",
    "resolve_model_path",
    "shown_path",
    "stemmer_name",
    "summarize",
    "tokenize",
]

RETRIEVERS: tuple[str, ...] = ("bm25", "dense")
MRR_DEPTH = 10
"""Reciprocal rank is taken over the top 10, whatever ``k`` is."""
MAX_K = 1_000_000
"""The deepest hit@k measured (far more than any index holds; keeps ``k`` a 64-bit JSON integer)."""

DENSE_HINT = (
    "install the optional extra with `pip install 'chunker[dense]'` and give a local "
    "sentence-transformers model directory with `--model PATH` or in config.yaml as `eval: {model: PATH}`"
)

# -- cases: chunker.eval_cases ------------------------------------------------


# -- tokenizer ----------------------------------------------------------------

_LINK_TARGET = re.compile(r"\]\(\s*<?[^)\s>]*>?(?:\s+\"[^\"]*\")?\s*\)")
"""The destination of an inline Markdown link or image: ``[text](url "title")``."""
_AUTOLINK = re.compile(r"<(?:https?|mailto|ftp):[^>\s]*>")
_WORD = re.compile(r"[^\W_]+")
"""Runs of letters and digits in any script; ``_`` and Markdown punctuation split words."""
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN = re.compile(r"^[a-z\u00c0-\u024f]+$")
_MIN_STEM_LEN = 4
"""Shorter words are left alone: stemming them conflates more than it helps."""


@lru_cache(maxsize=1)
def _stemmers() -> dict[str, Any] | None:
    try:
        stemmer = importlib.import_module("Stemmer")  # PyStemmer: optional, untyped
    except ImportError:
        return None
    return {lang: stemmer.Stemmer(lang) for lang in ("russian", "english", "german", "italian")}


def stemmer_name() -> str:
    """What :func:`tokenize` stems with here; recorded in reports (figures differ without it)."""
    return "snowball (PyStemmer)" if _stemmers() is not None else "none (PyStemmer not installed)"


@lru_cache(maxsize=200_000)
def _stem(token: str) -> str:
    stemmers = _stemmers()
    if stemmers is None or len(token) < _MIN_STEM_LEN or token.isdigit():
        return token
    if _CYRILLIC.search(token):
        return str(stemmers["russian"].stemWord(token))
    if _LATIN.match(token):
        # Latin-script text may be English, German or Italian, and a short query gives no
        # reliable language clue. The shortest of the three stems is one function of the word
        # alone, so a query and a chunk always stem a word the same way.
        stems = sorted((str(stemmers[lang].stemWord(token)) for lang in ("english", "german", "italian")), key=len)
        return stems[0]
    return token


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s import stopwords as lists

    words: set[str] = set()
    for name in ("STOPWORDS_EN", "STOPWORDS_GERMAN", "STOPWORDS_ITALIAN", "STOPWORDS_RUSSIAN"):
        words.update(w.casefold().replace("ё", "е") for w in getattr(lists, name, ()))
    return frozenset(words)


def tokenize(text: str, *, stem: bool = True, stopwords: bool = True) -> list[str]:
    """Words of ``text`` for BM25: NFC, casefolded, Markdown punctuation and link targets dropped.

    Splits on every non-word character (``_`` included), keeps digits, maps ``ё`` to ``е``.
    With ``stopwords``, drops the English, German, Italian and Russian stop words of ``bm25s``.
    With PyStemmer installed and ``stem`` true, Cyrillic words get the Russian Snowball stem
    and Latin-script words the shortest of their English, German and Italian stems.
    Deterministic: the same text always gives the same tokens.
    """
    text = unicodedata.normalize("NFC", text)
    text = _AUTOLINK.sub(" ", _LINK_TARGET.sub("] ", text))
    text = text.casefold().replace("ё", "е")
    words: list[str] = _WORD.findall(text)
    if stopwords:
        stop = _stopwords()
        words = [w for w in words if w not in stop]
    if not stem:
        return words
    return [_stem(w) for w in words]


# -- indexes ------------------------------------------------------------------


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


# -- metrics ------------------------------------------------------------------


def hit_at_k(ranked_relevance: Sequence[bool], k: int) -> bool:
    """True when one of the first ``k`` results is relevant."""
    return any(ranked_relevance[:k])


def first_relevant_rank(ranked_relevance: Sequence[bool], k: int | None = None) -> int | None:
    """1-based rank of the first relevant result within the first ``k`` (all when None)."""
    limit = len(ranked_relevance) if k is None else k
    for rank, relevant in enumerate(ranked_relevance[:limit], start=1):
        if relevant:
            return rank
    return None


def reciprocal_rank(ranked_relevance: Sequence[bool], k: int = MRR_DEPTH) -> float:
    """1/rank of the first relevant result within the first ``k``; 0.0 when there is none."""
    rank = first_relevant_rank(ranked_relevance, k)
    return 0.0 if rank is None else 1.0 / rank


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


# -- evaluation ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Retrieved:
    """One retrieved chunk, as shown for a miss."""

    rank: int
    doc: str
    section: str
    chunk_id: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "doc": self.doc,
            "section": self.section,
            "chunk_id": self.chunk_id,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The outcome of one case."""

    case: Case
    section_hit_at_1: bool
    section_hit_at_k: bool
    text_hit_at_k: bool
    reciprocal_rank: float
    """Of the first section hit within the top 10."""
    section_rank: int | None
    """1-based rank of the first section hit within the top 10."""
    top: tuple[Retrieved, ...] = ()
    """The top ``k`` results, filled for section misses only."""
    section_exists: bool = True
    """Some chunk of the case's document has the expected section. When none has, the case can
    never hit: a typo, a section the config skips, or a heading of another level."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "section_exists": self.section_exists,
            "doc": self.case.doc,
            "query": self.case.query,
            "expected_doc_section": self.case.expected_doc_section,
            "expected_text_contains": self.case.expected_text_contains,
            "section_hit_at_1": self.section_hit_at_1,
            "section_hit_at_k": self.section_hit_at_k,
            "text_hit_at_k": self.text_hit_at_k,
            "reciprocal_rank": round(self.reciprocal_rank, 4),
            "section_rank": self.section_rank,
            "top": [r.to_dict() for r in self.top],
        }


@dataclass(frozen=True, slots=True)
class Totals:
    """Figures over a set of cases (each a mean over the cases)."""

    cases: int
    section_hit_at_1: float
    section_hit_at_k: float
    text_hit_at_k: float
    mrr_at_10: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "section_hit_at_1": round(self.section_hit_at_1, 4),
            "section_hit_at_k": round(self.section_hit_at_k, 4),
            "text_hit_at_k": round(self.text_hit_at_k, 4),
            "mrr_at_10": round(self.mrr_at_10, 4),
        }


def summarize(results: Sequence[CaseResult]) -> Totals:
    """Totals of any subset of case results (e.g. one language or one document)."""
    return Totals(
        cases=len(results),
        section_hit_at_1=mean(float(r.section_hit_at_1) for r in results),
        section_hit_at_k=mean(float(r.section_hit_at_k) for r in results),
        text_hit_at_k=mean(float(r.text_hit_at_k) for r in results),
        mrr_at_10=mean(r.reciprocal_rank for r in results),
    )


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Everything :func:`evaluate` measured; ``to_dict`` is the ``chunks/_eval/*.json`` body."""

    k: int
    retriever: str
    model: str | None
    results: tuple[CaseResult, ...]
    totals: Totals
    chunk_count: int
    mean_chars: float
    documents: tuple[tuple[str, int], ...]
    """(stem, chunk count) of every indexed document, by stem."""
    tokenizer: str = field(default_factory=stemmer_name)

    @property
    def misses(self) -> tuple[CaseResult, ...]:
        return tuple(r for r in self.results if not r.section_hit_at_k)

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "retriever": self.retriever,
            "model": self.model,
            "tokenizer": self.tokenizer if self.retriever == "bm25" else None,
            "totals": self.totals.to_dict(),
            "chunks": {
                "count": self.chunk_count,
                "mean_chars": round(self.mean_chars, 1),
                "documents": dict(self.documents),
            },
            "cases": [r.to_dict() for r in self.results],
        }


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _chunk_chars(chunk: Mapping[str, Any]) -> int:
    chars = chunk.get("chars")
    if isinstance(chars, int) and not isinstance(chars, bool):
        return chars
    return len(str(chunk.get("content_for_embedding", "")))


def evaluate(
    cases: Sequence[Case],
    chunks_by_stem: Mapping[str, Sequence[Mapping[str, Any]]],
    k: int = 5,
    retriever: str = "bm25",
    model: str | Path | None = None,
) -> EvalReport:
    """Run every case against one index of all chunks of all documents in ``chunks_by_stem``.

    Chunks are ``chunks.json`` objects (``Chunk.to_dict()``); they need ``content_for_embedding``,
    ``content_original`` and ``section`` (``chunk_id`` and ``chars`` are used when present).
    Every document a case names must be in ``chunks_by_stem``.
    """
    check_k(k)
    if retriever not in RETRIEVERS:
        raise UsageError(f"unknown retriever {retriever!r}; choose one of {', '.join(RETRIEVERS)}")
    missing = sorted({c.doc for c in cases} - set(chunks_by_stem))
    if missing:
        named = ", ".join(f"{c.id} → {c.doc!r}" for c in cases if c.doc in missing)
        raise UsageError(f"no chunks for document(s) {', '.join(missing)} named by case(s) {named}; chunk them first")

    stems = sorted(chunks_by_stem)
    owners: list[str] = []
    chunks: list[Mapping[str, Any]] = []
    for stem in stems:
        for chunk in chunks_by_stem[stem]:
            owners.append(stem)
            chunks.append(chunk)
    texts = [str(c.get("content_for_embedding", "")) for c in chunks]
    sections = [_norm(str(c.get("section", ""))) for c in chunks]
    originals = [_norm(str(c.get("content_original", ""))) for c in chunks]
    index = build_index(texts, retriever, model)
    known_sections = set(zip(owners, sections, strict=True))

    depth = max(k, MRR_DEPTH)
    results: list[CaseResult] = []
    for case in cases:
        ranked = index.search(case.query, depth)
        want_section = _norm(case.expected_doc_section)
        want_text = _norm(case.expected_text_contains)
        section_rel = [owners[i] == case.doc and sections[i] == want_section for i, _ in ranked]
        text_rel = [owners[i] == case.doc and want_text in originals[i] for i, _ in ranked]
        hit_k = hit_at_k(section_rel, k)
        top: tuple[Retrieved, ...] = ()
        if not hit_k:
            top = tuple(
                Retrieved(
                    rank=rank,
                    doc=owners[i],
                    section=str(chunks[i].get("section", "")),
                    chunk_id=str(chunks[i].get("chunk_id", i)),
                    score=score,
                )
                for rank, (i, score) in enumerate(ranked[:k], start=1)
            )
        results.append(
            CaseResult(
                case=case,
                section_hit_at_1=hit_at_k(section_rel, 1),
                section_hit_at_k=hit_k,
                text_hit_at_k=hit_at_k(text_rel, k),
                reciprocal_rank=reciprocal_rank(section_rel, MRR_DEPTH),
                section_rank=first_relevant_rank(section_rel, MRR_DEPTH),
                top=top,
                section_exists=(case.doc, want_section) in known_sections,
            )
        )
    return EvalReport(
        k=k,
        retriever=retriever,
        model=shown_path(model) if model is not None and retriever == "dense" else None,
        results=tuple(results),
        totals=summarize(results),
        chunk_count=len(chunks),
        mean_chars=mean(float(_chunk_chars(c)) for c in chunks),
        documents=tuple((stem, len(chunks_by_stem[stem])) for stem in stems),
    )


def check_k(k: int) -> None:
    """Raise :class:`UsageError` unless ``k`` is an integer 1..MAX_K."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        shown = f"{k!r}" if not isinstance(k, int) or abs(k) < 10**30 else "a larger number"
        raise UsageError(f"k must be a positive integer of at most {MAX_K}, got {shown}")


def check_threshold(option: str, value: float | None) -> None:
    """Raise :class:`UsageError` unless a gate threshold is absent or a number within 0..1: a figure
    is a share of the cases, and a NaN threshold would let every run pass."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise UsageError(f"{option} must be a number within 0..1 (a share of the cases), got {value!r}")


def check_thresholds(report: EvalReport, min_hit_at_k: float | None = None, min_mrr: float | None = None) -> list[str]:
    """One message per figure below its threshold (for the CI gate; empty means pass); a threshold
    that is not a number within 0..1 raises :class:`UsageError`."""
    check_threshold("--min-hit-at-k", min_hit_at_k)
    check_threshold("--min-mrr", min_mrr)
    failures: list[str] = []
    totals = report.totals
    if min_hit_at_k is not None and totals.section_hit_at_k < min_hit_at_k:
        failures.append(f"section hit@{report.k} is {totals.section_hit_at_k:.3f}, below --min-hit-at-k {min_hit_at_k}")
    if min_mrr is not None and totals.mrr_at_10 < min_mrr:
        failures.append(f"MRR@{MRR_DEPTH} is {totals.mrr_at_10:.3f}, below --min-mrr {min_mrr}")
    return failures


# -- forbidden text -----------------------------------------------------------


def load_forbidden(path: Path) -> list[str]:
    """One forbidden string per line (line ends dropped, blank lines skipped)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError("forbidden-strings file not found", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"forbidden-strings file is not UTF-8: {exc.reason}", path=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot read forbidden-strings file: {exc.strerror or exc}", path=str(path)) from None
    return [line for line in text.split("\n") if line.strip()]  # "\n" only, as in load_cases


def check_forbidden(
    strings: Sequence[str], chunks_by_stem: Mapping[str, Sequence[Mapping[str, Any]]]
) -> list[tuple[str, str, str]]:
    """(stem, chunk_id, string) for every chunk whose original or embedded text contains a string.

    Matching is exact (case-sensitive); the order is by stem, then chunk order, then string order.
    """
    wanted = [s for s in dict.fromkeys(strings) if s]
    found: list[tuple[str, str, str]] = []
    for stem in sorted(chunks_by_stem):
        for position, chunk in enumerate(chunks_by_stem[stem]):
            original = str(chunk.get("content_original", ""))
            embedded = str(chunk.get("content_for_embedding", ""))
            chunk_id = str(chunk.get("chunk_id", position))
            found.extend((stem, chunk_id, s) for s in wanted if s in original or s in embedded)
    return found
