"""The search pipeline of SPEC.md, over the index state: filters -> allowed paths, keyword
and vector retrieval within them, fusion, the cut-off, hits, link expansion.

Also the queries that share its filters: every match's date (the app's chart), browsing
memories without a query, and a memory's neighbours (what link expansion returns).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..dates import date_bound
from ..index import IndexState
from ..parse import tokenize
from ..records import DocKey, Memory
from ..reme import RemeChecks, RemeLayout, SourceChecker
from ..tags import TagError, normalize_query_tags
from .date_table import DatesByPathId
from .filters import NO_FILTERS, Filters
from .fusion import Ranked, apply_cutoff, candidate_count, fuse
from .reme_filters import PathFilter, metadata_matches
from .types import (
    MAX_LINKS_PER_DIRECTION,
    NeighbourLink,
    Neighbours,
    SearchError,
    SearchHit,
    SearchQuery,
    SearchResponse,
    TagFilterInfo,
)

# Typing dates makes many short-lived filters; keep only the recent ones.
_FILTER_CACHE_SIZE = 32


@dataclass(slots=True)
class _FilterResult:
    allowed: frozenset[str] | None
    info: TagFilterInfo | None
    warnings: tuple[str, ...]
    mask: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class SearchTrace:
    """One search as it went: the response, and what each step produced on the way
    (the allowed paths, the two branches' candidates, the fused list, the cut list)."""

    response: SearchResponse
    allowed: frozenset[str] | None
    tokens: tuple[str, ...]
    candidates: int
    keyword: tuple[tuple[DocKey, float], ...]
    vector: tuple[tuple[DocKey, float], ...]
    fused: tuple[Ranked, ...]
    ranked: tuple[Ranked, ...]
    query_vec: np.ndarray | None


class SearchPipeline:
    """Answers searches over one engine's index; every call takes the engine's lock."""

    def __init__(
        self,
        root: Path,
        state: IndexState,
        lock: threading.RLock,
        layout: RemeLayout,
        checks: RemeChecks,
    ) -> None:
        self.root = root
        self._state = state
        self._lock = lock
        self._layout = layout
        self._checks = checks
        self._filter_cache: dict[Filters, _FilterResult] = {}
        self._cache_generation = -1
        self._dates = DatesByPathId()

    # -- filters --------------------------------------------------------------

    def allowed_paths(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[frozenset[str] | None, TagFilterInfo | None, list[str]]:
        """Paths passing ``filters`` (None = no filter), the tag info, warnings.

        Cached per filter until the next change to the index: while a person types, the
        filters stay the same and only the query text moves.
        """
        with self._lock:
            if self._cache_generation != self._state.generation:
                self._filter_cache.clear()
                self._cache_generation = self._state.generation
            cached = self._filter_cache.get(filters)
            if cached is None:
                if len(self._filter_cache) >= _FILTER_CACHE_SIZE:
                    del self._filter_cache[next(iter(self._filter_cache))]
                cached = self._filter_cache[filters] = self._compute_allowed(filters)
            return cached.allowed, cached.info, list(cached.warnings)

    def _allowed_mask(self, key_allowed: frozenset[str] | None) -> np.ndarray | None:
        if key_allowed is None:
            return None
        for cached in self._filter_cache.values():
            if cached.allowed is key_allowed:
                if cached.mask is None:
                    cached.mask = self._state.keyword.path_mask(key_allowed)
                return cached.mask
        return self._state.keyword.path_mask(key_allowed)

    def _compute_allowed(self, filters: Filters) -> _FilterResult:
        """The uncached filter: raises SearchError for tags that normalize to nothing."""
        warnings: list[str] = []
        try:
            wanted = normalize_query_tags(filters.tags)
            excluded = normalize_query_tags(filters.exclude_tags)
        except TagError as exc:
            raise SearchError(str(exc)) from None
        start, warning = date_bound(filters.since, "since")
        warnings += [warning] if warning else []
        end, warning = date_bound(filters.until, "until")
        warnings += [warning] if warning else []
        state = self._state
        allowed: set[str] | None = None
        info: TagFilterInfo | None = None
        if wanted or excluded:
            if wanted:
                allowed = (
                    state.tags.files_all(wanted)
                    if filters.all_tags
                    else state.tags.files_any(wanted)
                )
            else:
                allowed = set(state.memories)
            if excluded:
                allowed -= state.tags.files_any(excluded)
            info = TagFilterInfo(
                tags=wanted,
                mode="all" if filters.all_tags else "any",
                exclude=excluded,
                matched_paths=len(allowed),
            )
        if start or end:
            by_date = state.paths_in_range(start, end, include_undated=not filters.strict_dates)
            allowed = by_date if allowed is None else allowed & by_date
        if filters.paths or filters.path_prefixes or filters.meta:
            allowed = self._reme_filtered(filters, allowed)
        if filters.meta and not self._layout.include_frontmatter_in_metadata:
            warnings.append(
                "metadata filters see no frontmatter: ReMe puts it in chunk metadata only "
                "with include_frontmatter_in_metadata: true (pass such a config with "
                "--reme-config)"
            )
        return _FilterResult(None if allowed is None else frozenset(allowed), info, tuple(warnings))

    def _reme_filtered(self, filters: Filters, allowed: set[str] | None) -> set[str]:
        """ReMe's path, prefix and metadata tests over `allowed` (None: every memory)."""
        exact = frozenset(filters.paths) if filters.paths else None
        by_path = PathFilter(exact, filters.path_prefixes)
        memories = self._state.memories
        layout = self._layout
        candidates = memories.keys() if allowed is None else allowed
        return {
            path
            for path in candidates
            if by_path.matches(path)
            and (memory := memories.get(path)) is not None
            and metadata_matches(
                filters.meta,
                memory.frontmatter,
                layout.include_frontmatter_in_metadata,
                layout.frontmatter_keys_in_metadata,
            )
        }

    # -- retrieval ------------------------------------------------------------

    def search(self, query: SearchQuery) -> SearchResponse:
        """SPEC steps 1-7 for ``query``."""
        return self.trace(query).response

    def trace(self, query: SearchQuery) -> SearchTrace:
        """``search`` with what each step produced along the way (for ``explain``)."""
        text = (query.text or "").strip()
        if not text:
            raise SearchError("query cannot be empty")
        if query.limit <= 0:
            raise SearchError(f"limit must be positive, got {query.limit}")
        allowed, info, warnings = self.allowed_paths(query.filters)
        tokens = tokenize(text)
        candidates = candidate_count(query.limit)
        semantic = self._state.semantic
        query_vec, vector_error = semantic.encode_query(text)
        if vector_error is not None:
            warnings.append(
                f"the vector search failed for this query ({vector_error}); keyword results only"
            )
        with self._lock:
            nothing_allowed = allowed is not None and not allowed
            keyword = (
                []
                if nothing_allowed
                else self._state.keyword.top_k(
                    tokens, candidates, allowed_mask=self._allowed_mask(allowed)
                )
            )
            vector = [] if nothing_allowed else semantic.top_k(query_vec, candidates, allowed)
            semantic_warning = semantic.warning()
            if semantic_warning:
                warnings.append(semantic_warning)
            fused = fuse(keyword, vector, query.vector_weight)
            ranked = apply_cutoff(fused, query.min_score, query.limit)
            checker = SourceChecker(self.root)
            hits = [self._hit(r, tokens, checker) for r in ranked]
            links: dict[str, Neighbours] = {}
            if query.expand_links:
                for path in dict.fromkeys(h.path for h in hits):
                    links[path] = self.neighbours(path, limit=MAX_LINKS_PER_DIRECTION)
        response = SearchResponse(
            query=text,
            hits=hits,
            tag_filter=info,
            links=links,
            counts={
                # As ReMe counts: the chunks each branch retrieved, at most `candidates`
                # (min(200, 5 x limit)), not every chunk that matches.
                "candidates": candidates,
                "keyword": len(keyword),
                "vector": len(vector),
                "returned": len(hits),
                "hybrid": bool(keyword) and bool(vector),
            },
            warnings=warnings,
            query_tokens=tokens,
            vector_error=vector_error,
        )
        return SearchTrace(
            response=response,
            allowed=allowed,
            tokens=tuple(tokens),
            candidates=candidates,
            keyword=tuple(keyword),
            vector=tuple(vector),
            fused=tuple(fused),
            ranked=tuple(ranked),
            query_vec=query_vec,
        )

    def _hit(self, ranked: Ranked, tokens: Sequence[str], checker: SourceChecker) -> SearchHit:
        path, start = ranked.key
        chunk = self._state.chunk(ranked.key)
        assert chunk is not None  # ranked from the index this lock holds
        memory = self._state.memories[path]
        matched = self._state.keyword.terms_in(ranked.key, tokens)
        return SearchHit(
            path=path,
            start_line=start,
            end_line=chunk.end_line,
            score=ranked.score,
            keyword_score=ranked.keyword_score,
            vector_score=ranked.vector_score,
            keyword_rank=ranked.keyword_rank,
            vector_rank=ranked.vector_rank,
            date=memory.date,
            tags=memory.tags,
            name=memory.name,
            description=memory.description,
            text=chunk.text,
            matched_terms=matched,
            sources=tuple(self._checks.sources(path, checker)),
        )

    def keyword_similar(self, path: str, k: int, terms: int = 24) -> list[tuple[str, float]]:
        """The ``k`` memories most like ``path`` by BM25 ("more like this"): the index
        queried with its name, description and ``terms`` most frequent body terms;
        each memory scored by its best chunk, ``path`` itself left out."""
        memory = self._state.memories.get(path)
        if memory is None:
            return []
        counts = Counter(tokenize("\n".join(chunk.text for chunk in memory.chunks)))
        heading = tokenize(" ".join(x for x in (memory.name, memory.description) if x))
        chosen = list(dict.fromkeys([*heading, *(t for t, _ in counts.most_common(terms))]))
        if not chosen:
            return []
        query = SearchQuery(" ".join(chosen), limit=k * 3, expand_links=False)
        best: dict[str, float] = {}
        for hit in self.search(query).hits:
            if hit.path != path and hit.path not in best:
                best[hit.path] = hit.score
        return sorted(best.items(), key=lambda item: -item[1])[:k]

    def match_date_counts(self, text: str, filters: Filters = NO_FILTERS) -> Counter[str | None]:
        """How many chunks matching ``text`` under ``filters`` carry each date (None:
        undated), for the results' count and chart: counted in array arithmetic. Per
        keystroke at 50,000 memories, a date per matching chunk looked up one by one
        cost ~35 ms and counting them ~20 ms more; this is a few ms (issue 19)."""
        allowed, _info, _warnings = self.allowed_paths(filters)
        if allowed is not None and not allowed:
            return Counter()
        tokens = tokenize(text)
        with self._lock:
            keyword = self._state.keyword
            path_ids = keyword.matching_path_ids(tokens, allowed_mask=self._allowed_mask(allowed))
            if not path_ids.shape[0]:
                return Counter()
            date_of_path, dates = self._dates.get(self._state)
            per_date = np.bincount(date_of_path[path_ids], minlength=len(dates))
        return Counter({dates[i]: int(per_date[i]) for i in np.flatnonzero(per_date).tolist()})

    def browse(self, filters: Filters = NO_FILTERS, *, limit: int = 200) -> list[Memory]:
        """Memories passing ``filters``, newest first (undated last, then by path)."""
        allowed, _info, _warnings = self.allowed_paths(filters)
        with self._lock:
            memories = self._state.memories
            paths = memories.keys() if allowed is None else allowed
            found = [memories[p] for p in paths if p in memories]
        found.sort(key=lambda m: m.path)
        found.sort(key=lambda m: m.date or "", reverse=True)
        return found[:limit]

    # -- the link expansion ----------------------------------------------------

    def neighbours(self, path: str, limit: int | None = None) -> Neighbours:
        with self._lock:
            links = self._state.links
            outs = links.outlinks(path)
            ins = links.inlinks(path)
            if limit is not None:
                outs, ins = outs[:limit], ins[:limit]
            checker = SourceChecker(self.root)
            return Neighbours(
                outlinks=[self._neighbour(e.target, e.anchors) for e in outs],
                inlinks=[self._neighbour(e.source, e.anchors) for e in ins],
                dangling=self._checks.dangling(path, checker),
                sources=self._checks.sources(path, checker),
                stale={e.target: e.message for e in self._checks.stale(path)},
            )

    def _neighbour(self, path: str, anchors: tuple[str, ...]) -> NeighbourLink:
        memory = self._state.memories.get(path)
        return NeighbourLink(
            path=path,
            name=memory.name if memory else None,
            description=memory.description if memory else None,
            anchors=anchors,
        )
