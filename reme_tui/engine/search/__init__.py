"""The search pipeline: query and result types, filters (tags, dates, ReMe's path and
metadata filters), the query grammar people type, fusion and the cut-off."""

from .filters import NO_FILTERS, Filters
from .fusion import Ranked, apply_cutoff, candidate_count, fuse
from .grammar import SearchState, parse_query
from .reme_filters import MetaArgError, MetaTest, PathFilter, metadata_matches, parse_meta
from .types import (
    DEFAULT_LIMIT,
    DEFAULT_VECTOR_WEIGHT,
    MAX_LINKS_PER_DIRECTION,
    NeighbourLink,
    Neighbours,
    SearchError,
    SearchHit,
    SearchQuery,
    SearchResponse,
    TagFilterInfo,
)

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_VECTOR_WEIGHT",
    "MAX_LINKS_PER_DIRECTION",
    "NO_FILTERS",
    "Filters",
    "MetaArgError",
    "MetaTest",
    "NeighbourLink",
    "Neighbours",
    "PathFilter",
    "Ranked",
    "SearchError",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "SearchState",
    "TagFilterInfo",
    "apply_cutoff",
    "candidate_count",
    "fuse",
    "metadata_matches",
    "parse_meta",
    "parse_query",
]
