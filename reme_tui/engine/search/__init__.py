"""The search pipeline (``pipeline``: filters -> retrieval -> fusion -> cut-off -> hits ->
link expansion), its types (``types``), the one ``Filters`` value (``filters``), ReMe's path
and metadata filters (``reme_filters``), fusion and the cut-off (``fusion``), and the query
grammar people type (``grammar``: ``tag:``, ``since:``...), and why one memory was or
was not returned (``explain``)."""

from .checked import ArgumentNames, checked_filters
from .explain import STAGES, Explainer, ExplainScope, Explanation, Stage
from .filters import NO_FILTERS, Filters
from .fusion import Ranked, apply_cutoff, candidate_count, fuse
from .grammar import SearchState, parse_query
from .pipeline import SearchPipeline, SearchTrace
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
    "STAGES",
    "ArgumentNames",
    "ExplainScope",
    "Explainer",
    "Explanation",
    "Filters",
    "MetaArgError",
    "MetaTest",
    "NeighbourLink",
    "Neighbours",
    "PathFilter",
    "Ranked",
    "SearchError",
    "SearchHit",
    "SearchPipeline",
    "SearchQuery",
    "SearchResponse",
    "SearchState",
    "SearchTrace",
    "Stage",
    "TagFilterInfo",
    "apply_cutoff",
    "candidate_count",
    "checked_filters",
    "fuse",
    "metadata_matches",
    "parse_meta",
    "parse_query",
]
