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
:func:`~chunker.eval_tokens.tokenize`; ``dense`` uses a sentence-transformers model from a local
directory and never downloads one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chunker.errors import UsageError
from chunker.eval_cases import Case
from chunker.eval_index import RETRIEVERS, build_index
from chunker.eval_metrics import MRR_DEPTH, first_relevant_rank, hit_at_k, mean, reciprocal_rank
from chunker.eval_tokens import stemmer_name
from chunker.path_display import shown_path

__all__ = [
    "CaseResult",
    "EvalReport",
    "Retrieved",
    "Totals",
    "check_k",
    "check_threshold",
    "check_thresholds",
    "evaluate",
    "summarize",
]

MAX_K = 1_000_000
"""The deepest hit@k measured (far more than any index holds; keeps ``k`` a 64-bit JSON integer)."""


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
    pool = _Pool.of(chunks_by_stem)
    index = build_index(pool.texts, retriever, model)
    depth = max(k, MRR_DEPTH)
    results = [_judge(case, index.search(case.query, depth), pool, k) for case in cases]
    return EvalReport(
        k=k,
        retriever=retriever,
        model=shown_path(model) if model is not None and retriever == "dense" else None,
        results=tuple(results),
        totals=summarize(results),
        chunk_count=len(pool.chunks),
        mean_chars=mean(float(_chunk_chars(c)) for c in pool.chunks),
        documents=tuple((stem, len(chunks_by_stem[stem])) for stem in pool.stems),
    )


@dataclass(frozen=True, slots=True)
class _Pool:
    """Every chunk of every document in one list (by stem, then chunk order), with what a case
    is judged by: the owning document, the normalised section and original text."""

    stems: list[str]
    owners: list[str]
    chunks: list[Mapping[str, Any]]
    texts: list[str]
    """What is indexed: ``content_for_embedding``."""
    sections: list[str]
    originals: list[str]
    known_sections: set[tuple[str, str]]
    """(stem, normalised section) of every chunk."""

    @classmethod
    def of(cls, chunks_by_stem: Mapping[str, Sequence[Mapping[str, Any]]]) -> _Pool:
        stems = sorted(chunks_by_stem)
        owners: list[str] = []
        chunks: list[Mapping[str, Any]] = []
        for stem in stems:
            for chunk in chunks_by_stem[stem]:
                owners.append(stem)
                chunks.append(chunk)
        sections = [_norm(str(c.get("section", ""))) for c in chunks]
        return cls(
            stems=stems,
            owners=owners,
            chunks=chunks,
            texts=[str(c.get("content_for_embedding", "")) for c in chunks],
            sections=sections,
            originals=[_norm(str(c.get("content_original", ""))) for c in chunks],
            known_sections=set(zip(owners, sections, strict=True)),
        )


def _judge(case: Case, ranked: Sequence[tuple[int, float]], pool: _Pool, k: int) -> CaseResult:
    """One case against its ranked results (index into the pool, score), best first."""
    owners, chunks = pool.owners, pool.chunks
    want_section = _norm(case.expected_doc_section)
    want_text = _norm(case.expected_text_contains)
    section_rel = [owners[i] == case.doc and pool.sections[i] == want_section for i, _ in ranked]
    text_rel = [owners[i] == case.doc and want_text in pool.originals[i] for i, _ in ranked]
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
    return CaseResult(
        case=case,
        section_hit_at_1=hit_at_k(section_rel, 1),
        section_hit_at_k=hit_k,
        text_hit_at_k=hit_at_k(text_rel, k),
        reciprocal_rank=reciprocal_rank(section_rel, MRR_DEPTH),
        section_rank=first_relevant_rank(section_rel, MRR_DEPTH),
        top=top,
        section_exists=(case.doc, want_section) in pool.known_sections,
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
