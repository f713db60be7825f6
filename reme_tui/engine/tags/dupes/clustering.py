"""From links to clusters: union-find with cannot-links, weak links that neither
dilute nor chain, and the two entry points."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .candidates import Link, Tag, prepare
from .evidence import cooccurrence_counts, cooccurrence_links, embedding_links, text_links
from .model import (
    DEFAULT_THRESHOLDS,
    EVIDENCE_METHODS,
    LEVEL_NAME,
    MEDIUM,
    METHOD_RANK,
    WEAK_STRING_METHODS,
    Confidence,
    DupeCluster,
    DupeMember,
    DupeThresholds,
    TagEvidence,
    TagStats,
)
from .spelling import (
    affinity_candidates,
    distinct,
    edit_links,
    fingerprint_links,
    lookalike_links,
    ngram_links,
    separator_links,
)


@dataclass
class _Components:
    """Union-find with member sets and cannot-link constraints."""

    parent: dict[str, str]
    members: dict[str, set[str]]
    forbidden: Mapping[str, set[str]]
    conflict: Callable[[str, str], bool]
    weak_cluster_cap: int = 4
    bottleneck: dict[str, int] = field(default_factory=dict)

    def find(self, item: str) -> str:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: str, b: str, level: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if level < MEDIUM and not self._weak_link_allowed(ra, rb, level):
            return False
        small, big = sorted((ra, rb), key=lambda r: (len(self.members[r]), r))
        big_members = self.members[big]
        if any(self.forbidden.get(m, set()) & big_members for m in self.members[small]):
            return False
        if any(self.conflict(x, y) for x in self.members[small] for y in big_members):
            return False
        self.parent[small] = big
        big_members |= self.members.pop(small)
        worst = min(level, self.bottleneck.pop(small, level), self.bottleneck.get(big, level))
        self.bottleneck[big] = worst
        return True

    def _weak_link_allowed(self, ra: str, rb: str, level: int) -> bool:
        """Weak links neither dilute nor chain.

        A weak link may not drag a cluster built from stronger links down to its
        level, and it only attaches a lone tag to a small weak cluster, so a string
        of look-alikes (``finjo``-``finlo``-``finlos``-``finros``) cannot snowball.
        """
        if any(self.bottleneck.get(root, level) > level for root in (ra, rb)):
            return False
        sizes = sorted((len(self.members[ra]), len(self.members[rb])))
        return sizes[0] == 1 and sizes[1] < self.weak_cluster_cap


def _pair_levels(links: Iterable[Link]) -> dict[tuple[str, str], int]:
    methods: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for link in links:
        known = methods[(link.a, link.b)]
        known[link.method] = max(link.level, known.get(link.method, 0))
    levels: dict[tuple[str, str], int] = {}
    for pair, by_method in methods.items():
        level = max(by_method.values())
        if _corroborated(by_method.keys()):
            level = max(level, MEDIUM)
        levels[pair] = level
    return levels


def _corroborated(methods: Collection[str]) -> bool:
    """A weak string link and file evidence for the same pair."""
    has_evidence = not EVIDENCE_METHODS.isdisjoint(methods)
    return has_evidence and not WEAK_STRING_METHODS.isdisjoint(methods)


def _forbidden(dismissed: Collection[frozenset[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for pair in dismissed:
        if len(pair) == 2:
            a, b = sorted(pair)
            out[a].add(b)
            out[b].add(a)
    return out


def _components(
    tags: Sequence[Tag],
    levels: Mapping[tuple[str, str], int],
    forbidden: Mapping[str, set[str]],
    weak_cluster_cap: int,
) -> _Components:
    by_tag = {t.tag: t for t in tags}

    def conflict(a: str, b: str) -> bool:
        return distinct(by_tag[a], by_tag[b])

    comps = _Components(
        parent={t.tag: t.tag for t in tags}, members={t.tag: {t.tag} for t in tags},
        forbidden=forbidden, conflict=conflict, weak_cluster_cap=weak_cluster_cap,
    )  # fmt: skip
    for (a, b), level in sorted(levels.items(), key=lambda item: (-item[1], item[0])):
        comps.union(a, b, level)
    return comps


def _suggest(members: Sequence[Tag]) -> str:
    return min(members, key=lambda t: (-t.files, len(t.tag), t.tag)).tag


def _build_cluster(members: Sequence[Tag], level: int, links: Iterable[Link]) -> DupeCluster:
    ordered = sorted(members, key=lambda t: (-t.files, t.tag))
    inside = sorted(
        {(ln.a, ln.b, ln.method) for ln in links},
        key=lambda p: (METHOD_RANK[p[2]], p[0], p[1]),
    )
    methods = tuple(sorted({p[2] for p in inside}, key=METHOD_RANK.__getitem__))
    return DupeCluster(
        members=tuple(DupeMember(t.tag, t.files, t.spellings) for t in ordered),
        suggested=_suggest(members),
        methods=methods,
        confidence=LEVEL_NAME[level],
        pairs=tuple(inside),
    )


def find_links(
    stats: Sequence[TagStats],
    evidence: TagEvidence | None = None,
    *,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    dismissed: Collection[frozenset[str]] = (),
    thresholds: DupeThresholds = DEFAULT_THRESHOLDS,
) -> list[tuple[str, str, str, Confidence]]:
    """Every link (a, b, method, level) before clustering; for tests and diagnostics."""
    tags = prepare(stats)
    links = _all_links(tags, evidence, embed, thresholds, _dismissed_set(dismissed))
    return [(ln.a, ln.b, ln.method, LEVEL_NAME[ln.level]) for ln in links]


def find_tag_clusters(
    stats: Sequence[TagStats],
    evidence: TagEvidence | None = None,
    *,
    embed: Callable[[list[str]], np.ndarray] | None = None,
    dismissed: Collection[frozenset[str]] = (),
    thresholds: DupeThresholds = DEFAULT_THRESHOLDS,
) -> list[DupeCluster]:
    """Clusters of canonical tags that probably name one entity, most certain first."""
    tags = prepare(stats)
    links = _all_links(tags, evidence, embed, thresholds, _dismissed_set(dismissed))
    comps = _components(
        tags, _pair_levels(links), _forbidden(dismissed), thresholds.weak_cluster_cap
    )
    by_tag = {t.tag: t for t in tags}
    links_by_root: dict[str, list[Link]] = defaultdict(list)
    for link in links:
        root = comps.find(link.a)
        if root == comps.find(link.b):
            links_by_root[root].append(link)
    clusters = [
        _build_cluster([by_tag[m] for m in members], comps.bottleneck[root], links_by_root[root])
        for root, members in comps.members.items()
        if len(members) > 1
    ]
    rank = {"high": 0, "medium": 1, "low": 2}
    clusters.sort(key=lambda c: (rank[c.confidence], -c.total_files, c.suggested))
    return clusters


def _dismissed_set(dismissed: Collection[frozenset[str]]) -> frozenset[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for pair in dismissed:
        if len(pair) == 2:
            a, b = sorted(pair)
            out.add((a, b))
    return frozenset(out)


def _all_links(
    tags: Sequence[Tag],
    evidence: TagEvidence | None,
    embed: Callable[[list[str]], np.ndarray] | None,
    limits: DupeThresholds,
    dismissed: frozenset[tuple[str, str]],
) -> list[Link]:
    by_tag = {t.tag: t for t in tags}
    by_key: dict[str, list[Tag]] = defaultdict(list)
    for tag in tags:
        by_key[tag.key].append(tag)
    links: list[Link] = [
        *lookalike_links(tags),
        *separator_links(tags),
        *fingerprint_links(tags),
        *ngram_links(tags, limits),
        *edit_links(tags, by_key, limits),
    ]
    if evidence is not None:
        links.extend(cooccurrence_links(by_tag, evidence, limits))
        if evidence.text_of_tag is not None:
            candidates = affinity_candidates(tags, limits.bucket_cap)
            candidates |= set(cooccurrence_counts(evidence, by_tag, limits.max_tags_per_file))
            links.extend(text_links(by_tag, candidates, evidence.text_of_tag, limits))
    if embed is not None:
        links.extend(embedding_links(tags, embed, limits))
    unique = {(ln.a, ln.b, ln.method, ln.level): ln for ln in links if ln.a != ln.b}
    kept = [ln for ln in unique.values() if (ln.a, ln.b) not in dismissed]
    kept.sort(key=lambda ln: (-ln.level, METHOD_RANK[ln.method], ln.a, ln.b))
    return kept
