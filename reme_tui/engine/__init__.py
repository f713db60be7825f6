"""The index engine: plain Python with no UI imports (walls: ``[tool.importlinter]`` in
pyproject.toml; tests/engine/test_import_hygiene.py).

``from reme_tui.engine import Engine`` is the front door. Names here are loaded lazily, so
that the command line's help, or a caller that needs one record type, does not load the
whole engine. The rooms, in the order data flows through them (each folder's
``__init__`` is its face; the UI and the CLI import faces only):

- ``files/``   which files are memories, safe paths, symlinks, the one bounded read and the
  one atomic rewrite (``fileio``), file events (``watch``), per-workspace user data;
- ``parse/``   one file -> one ``Memory``: frontmatter, ReMe-exact chunking, wikilinks, tokens;
- ``index/``   the loader (many files, many cores), BM25 postings, the link graph,
  embeddings, the saved index;
- ``tags/``    ReMe's tag normalization, the tag index, near-duplicates, lints, editor checks;
- ``search/``  the pipeline: query types, filters, ReMe's path/metadata filters, the query
  grammar people type, fusion and the cut-off;
- ``write/``   the one write door: tag edits and fixes, merges (journal, undo, resume),
  reverts;
- ``history/`` the change history: store, entries, bursts, diffs, the report;
- ``reme/``    ReMe's layout and config, compatibility checks, day indexes, provenance,
  transcripts.

At this level: ``engine`` (the ``Engine`` facade), ``records`` (plain records shared by
the rooms), ``codes`` (diagnostic codes), ``dates`` (the one date rule), ``errors``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy_face import lazy_getattr

if TYPE_CHECKING:
    from .codes import Code, Severity
    from .dates import EXPECTED, DateError, date_bound, date_or_none, day, parse_date
    from .engine import BuildOutcome, Engine, EngineConfig
    from .errors import EditError, InvalidTag, UnsafeEditError, WorkspaceError
    from .records import (
        Chunk,
        Delta,
        Diagnostic,
        DocKey,
        FieldLink,
        Link,
        Memory,
        WriteResult,
    )
    from .search import (
        NO_FILTERS,
        Explanation,
        Filters,
        SearchError,
        SearchHit,
        SearchQuery,
        SearchResponse,
        Stage,
    )

_WHERE = {
    "Code": "codes",
    "Severity": "codes",
    "EXPECTED": "dates",
    "DateError": "dates",
    "date_bound": "dates",
    "day": "dates",
    "date_or_none": "dates",
    "parse_date": "dates",
    "BuildOutcome": "engine",
    "Engine": "engine",
    "EngineConfig": "engine",
    "WorkspaceError": "errors",
    "EditError": "errors",
    "InvalidTag": "errors",
    "UnsafeEditError": "errors",
    "Chunk": "records",
    "Delta": "records",
    "Diagnostic": "records",
    "DocKey": "records",
    "FieldLink": "records",
    "Link": "records",
    "Memory": "records",
    "WriteResult": "records",
    "NO_FILTERS": "search",
    "Explanation": "search",
    "Stage": "search",
    "Filters": "search",
    "SearchError": "search",
    "SearchHit": "search",
    "SearchQuery": "search",
    "SearchResponse": "search",
}

__all__ = [
    "EXPECTED",
    "NO_FILTERS",
    "BuildOutcome",
    "Chunk",
    "Code",
    "DateError",
    "Delta",
    "Diagnostic",
    "DocKey",
    "EditError",
    "Engine",
    "EngineConfig",
    "Explanation",
    "FieldLink",
    "Filters",
    "InvalidTag",
    "Link",
    "Memory",
    "SearchError",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "Severity",
    "Stage",
    "UnsafeEditError",
    "WorkspaceError",
    "WriteResult",
    "date_bound",
    "date_or_none",
    "day",
    "parse_date",
]


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
