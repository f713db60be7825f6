"""SPEC steps 2, 5 and 6: how many candidates each branch retrieves, Reciprocal Rank Fusion,
and the min-score cut-off and limit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..records import DocKey

MAX_CANDIDATES = 200

CANDIDATE_MULTIPLIER = 5

RRF_K = 60


def candidate_count(limit: int) -> int:
    return min(MAX_CANDIDATES, max(1, limit * CANDIDATE_MULTIPLIER))


@dataclass(frozen=True, slots=True)
class Ranked:
    """A fused candidate before it becomes a SearchHit."""

    key: DocKey
    score: float
    keyword_score: float | None
    vector_score: float | None
    keyword_rank: int | None
    vector_rank: int | None


def fuse(
    keyword: Sequence[tuple[DocKey, float]],
    vector: Sequence[tuple[DocKey, float]],
    vector_weight: float,
) -> list[Ranked]:
    """Fusion of the SPEC: one branch empty -> the other's native ranking; both -> RRF."""
    if not vector:
        return [Ranked(k, s, s, None, r, None) for r, (k, s) in enumerate(keyword, 1)]
    if not keyword:
        return [Ranked(k, s, None, s, None, r) for r, (k, s) in enumerate(vector, 1)]
    text_weight = 1.0 - vector_weight
    merged: dict[DocKey, dict[str, Any]] = {}
    for rank, (key, score) in enumerate(vector, 1):
        merged[key] = {"score": vector_weight / (RRF_K + rank), "v": score, "vr": rank}
    for rank, (key, score) in enumerate(keyword, 1):
        entry = merged.setdefault(key, {"score": 0.0})
        entry["score"] += text_weight / (RRF_K + rank)
        entry["k"], entry["kr"] = score, rank
    fused = [
        Ranked(key, e["score"], e.get("k"), e.get("v"), e.get("kr"), e.get("vr"))
        for key, e in merged.items()
    ]
    fused.sort(key=lambda r: (-r.score, r.key))
    return fused


def apply_cutoff(ranked: list[Ranked], min_score: float, limit: int) -> list[Ranked]:
    """`min_score` (0 = off) drops lower scores, then truncate to the limit."""
    if min_score > 0.0:
        ranked = [r for r in ranked if r.score >= min_score]
    return ranked[:limit]
