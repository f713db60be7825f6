"""Links from what the files say (co-occurrence, similar text) and from an
embedding model."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import combinations

import numpy as np
from rapidfuzz import fuzz

from .candidates import Link, Tag, guard_rejects, link
from .model import LOW, MEDIUM, DupeThresholds, TagEvidence
from .spelling import affinity

_TEXT_TOKEN = re.compile(r"\w{3,}")


_TEXT_STOPWORDS = frozenset(
    {
        "the", "and", "for", "are", "was", "were", "with", "that", "this", "from", "have",
        "has", "had", "not", "but", "you", "all", "any", "can", "her", "his", "its", "our",
        "their", "they", "them", "she", "him", "who", "what", "when", "where", "which", "will",
        "would", "about", "into", "than", "then", "there", "these", "those", "been", "also",
        "more", "most", "some", "such", "only", "very", "just",
    }
)  # fmt: skip


def cooccurrence_counts(
    evidence: TagEvidence, known: Collection[str], max_tags: int
) -> Counter[tuple[str, str]]:
    tags_by_file: dict[str, list[str]] = defaultdict(list)
    for tag in sorted(evidence.files_by_tag):
        if tag in known:
            for path in evidence.files_by_tag[tag]:
                tags_by_file[path].append(tag)
    counts: Counter[tuple[str, str]] = Counter()
    for file_tags in tags_by_file.values():
        if 1 < len(file_tags) <= max_tags:
            counts.update(combinations(file_tags, 2))
    return counts


def cooccurrence_links(
    by_tag: Mapping[str, Tag], evidence: TagEvidence, limits: DupeThresholds
) -> Iterator[Link]:
    total = max(evidence.total_files, 1)
    counts = cooccurrence_counts(evidence, by_tag, limits.max_tags_per_file)
    for (a, b), shared in sorted(counts.items()):
        if shared < limits.cooc_min_support:
            continue
        n_a, n_b = len(evidence.files_by_tag[a]), len(evidence.files_by_tag[b])
        lift = shared * total / (n_a * n_b)
        overlap = shared / min(n_a, n_b)
        if lift < limits.cooc_min_lift or overlap < limits.cooc_min_overlap:
            continue
        if affinity(by_tag[a], by_tag[b], limits.affinity_min_ratio):
            yield link(a, b, "cooccurrence", LOW)


def _term_vector(text: str) -> dict[str, float]:
    counts = Counter(
        tok for tok in _TEXT_TOKEN.findall(text.casefold()) if tok not in _TEXT_STOPWORDS
    )
    norm = math.sqrt(sum(c * c for c in counts.values()))
    return {tok: c / norm for tok, c in counts.items()} if norm else {}


def _cosine(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    if len(u) > len(v):
        u, v = v, u
    return sum(weight * v.get(tok, 0.0) for tok, weight in u.items())


def text_links(
    by_tag: Mapping[str, Tag],
    candidates: Iterable[tuple[str, str]],
    text_of_tag: Callable[[str], str],
    limits: DupeThresholds,
) -> Iterator[Link]:
    vectors: dict[str, dict[str, float]] = {}

    def vector(tag: str) -> dict[str, float]:
        if tag not in vectors:
            vectors[tag] = _term_vector((text_of_tag(tag) or "")[: limits.text_max_chars])
        return vectors[tag]

    for a, b in sorted(candidates):
        if not affinity(by_tag[a], by_tag[b], limits.affinity_min_ratio):
            continue
        if _cosine(vector(a), vector(b)) >= limits.text_min_cosine:
            yield link(a, b, "text_similarity", LOW)


def embedding_links(
    tags: Sequence[Tag],
    embed: Callable[[list[str]], np.ndarray],
    limits: DupeThresholds,
    block: int = 512,
) -> Iterator[Link]:
    if len(tags) < 2:
        return
    texts = [" ".join(t.tokens) or t.tag for t in tags]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    for start in range(0, len(tags), block):
        sims = vectors[start : start + block] @ vectors.T
        rows, cols = np.nonzero(sims >= limits.embed_low)
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
            i = start + row
            if col <= i:
                continue
            level = _embedding_level(tags[i], tags[col], float(sims[row, col]), limits)
            if level:
                yield link(tags[i].tag, tags[col].tag, "embedding", level)


def _embedding_level(a: Tag, b: Tag, similarity: float, limits: DupeThresholds) -> int:
    if a.key == b.key or guard_rejects(a, b):
        return 0
    looks_alike = fuzz.ratio(a.key, b.key) >= limits.embed_lexical_ratio
    if similarity >= limits.embed_medium and not looks_alike:
        return MEDIUM
    return LOW
