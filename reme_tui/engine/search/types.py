"""What a search is asked and answers: the query, hits, link neighbours, tag-filter info."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..reme import Source
from .filters import NO_FILTERS, Filters

DEFAULT_LIMIT = 5
DEFAULT_VECTOR_WEIGHT = 0.7
MAX_LINKS_PER_DIRECTION = 10


class SearchError(ValueError):
    """A search that cannot run (empty query, bad limit, tags that normalize to nothing)."""


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """Everything a search asks for; defaults follow ReMe."""

    text: str
    filters: Filters = NO_FILTERS
    limit: int = DEFAULT_LIMIT
    min_score: float = 0.0
    expand_links: bool = True
    vector_weight: float = DEFAULT_VECTOR_WEIGHT


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One returned chunk with its scores and the metadata a reader needs."""

    path: str
    start_line: int
    end_line: int
    score: float
    keyword_score: float | None
    vector_score: float | None
    keyword_rank: int | None
    vector_rank: int | None
    date: str | None
    tags: tuple[str, ...]
    name: str | None
    description: str | None
    text: str
    matched_terms: tuple[str, ...] = ()
    sources: tuple[Source, ...] = ()  # provenance: conversations, resources, images

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "score": self.score,
            "scores": {"keyword": self.keyword_score, "vector": self.vector_score},
            "date": self.date,
            "tags": list(self.tags),
            "name": self.name,
            "text": self.text,
            "sources": [source.to_json() for source in self.sources],
        }


@dataclass(frozen=True, slots=True)
class NeighbourLink:
    """A linked memory as shown beside a result: its path, name, description, anchors."""

    path: str
    name: str | None
    description: str | None
    anchors: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "description": self.description,
            "anchors": list(self.anchors),
        }


@dataclass(frozen=True, slots=True)
class Neighbours:
    """Outlinks and inlinks of one memory (indexed memories only), and its dangling targets."""

    outlinks: list[NeighbourLink]
    inlinks: list[NeighbourLink]
    dangling: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    stale: dict[str, str] = field(default_factory=dict)  # day-index entries: target -> why

    def to_json(self) -> dict[str, Any]:
        return {
            "outlinks": [n.to_json() for n in self.outlinks],
            "inlinks": [n.to_json() for n in self.inlinks],
        }


@dataclass(frozen=True, slots=True)
class TagFilterInfo:
    tags: list[str]
    mode: str
    exclude: list[str]
    matched_paths: int

    def to_json(self) -> dict[str, Any]:
        return {
            "tags": self.tags,
            "mode": self.mode,
            "exclude": self.exclude,
            "matched_paths": self.matched_paths,
        }


@dataclass(slots=True)
class SearchResponse:
    query: str
    hits: list[SearchHit]
    tag_filter: TagFilterInfo | None
    links: dict[str, Neighbours]
    counts: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    query_tokens: list[str] = field(default_factory=list)
    vector_error: str | None = None  # the model failed on this query: keyword results only

    @property
    def hybrid(self) -> bool:
        return bool(self.counts.get("hybrid"))

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "tag_filter": self.tag_filter.to_json() if self.tag_filter else None,
            "results": [hit.to_json() for hit in self.hits],
            "links": {path: n.to_json() for path, n in self.links.items()},
            "counts": dict(self.counts),
        }
