"""Retrieval metrics over one ranked list of relevance flags: hit@k, rank, reciprocal rank."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

MRR_DEPTH = 10
"""Reciprocal rank is taken over the top 10, whatever ``k`` is."""


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
