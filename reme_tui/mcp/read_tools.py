"""The read-only tools: search, explain, list_tags, read_memory, neighbours, suggest_tags,
tag_dupes, diagnostics, changes. Each answers with the same JSON document the matching
`--json` mode prints."""

from __future__ import annotations

import hashlib
from typing import Any, cast

from reme_tui.engine import Engine
from reme_tui.engine.files import PathOutsideWorkspace, read_regular
from reme_tui.engine.parse import decode_text
from reme_tui.engine.search import (
    DEFAULT_LIMIT,
    DEFAULT_VECTOR_WEIGHT,
    Filters,
    SearchError,
    SearchQuery,
    checked_filters,
)
from reme_tui.engine.tags import Order, OrderBy

from . import arguments as a
from .arguments import MAX_LIMIT, Args, ToolError
from .catalog import Context, ToolSpec, boolean, string, string_list, whole

# -- search -------------------------------------------------------------------


def search_filters(args: Args) -> Filters:
    """The filters of a search call: the arguments' types here, their meaning checked by
    the engine's one filter check (the same as `--query`'s flags)."""
    try:
        return checked_filters(
            tags=a.strings(args, "tags"),
            all_tags=a.flag(args, "all_tags"),
            exclude_tags=a.strings(args, "exclude_tags"),
            since=_short(a.text(args, "since")),
            until=_short(a.text(args, "until")),
            strict_dates=a.flag(args, "strict_dates"),
            paths=a.strings(args, "paths"),
            path_prefixes=a.strings(args, "path_prefixes"),
            meta=a.strings(args, "meta"),
        )
    except SearchError as exc:
        raise ToolError(str(exc)) from None


def _short(date: str | None) -> str | None:
    """A date argument is at most a date and a time: longer text is refused, not quoted."""
    if date is not None and len(date) > 40:
        raise ToolError(f"not a valid date: {len(date)} characters; use YYYY-MM-DD")
    return date


def search_query(context: Context, args: Args) -> SearchQuery:
    """The search a call asks for (the `search` tool's arguments)."""
    query = a.required_text(args, "query")
    if not query.strip():
        raise ToolError("query cannot be empty: give some text to search for")
    limit = a.integer(args, "limit", low=1, high=MAX_LIMIT)
    min_score = a.number(args, "min_score", low=0.0, high=1e9)
    weight = context.vector_weight
    return SearchQuery(
        text=query,
        filters=search_filters(args),
        limit=DEFAULT_LIMIT if limit is None else limit,
        min_score=0.0 if min_score is None else min_score,
        vector_weight=DEFAULT_VECTOR_WEIGHT if weight is None else weight,
    )


def search(context: Context, args: Args) -> dict[str, Any]:
    request = search_query(context, args)
    try:
        response = context.engine.search(request)
    except SearchError as exc:
        raise ToolError(str(exc)) from None
    document = response.to_json()
    if response.warnings:
        document["warnings"] = list(response.warnings)
    return document


SEARCH = ToolSpec(
    name="search",
    handler=search,
    description=(
        "Search the ReMe memories like ReMe's memory search (BM25, or hybrid with a model): "
        "returns the best chunks with path, start_line/end_line, score, date, tags, name and "
        "text, plus `links` (each hit's outlinks and inlinks). The same answer as "
        "`reme-tui search TEXT --json`. Filters combine with AND."
    ),
    properties={
        "query": string("What to look for (words; ReMe's tokenizer)."),
        "tags": string_list("Only memories carrying one of these tags (all of them with "
                            "all_tags)."),
        "all_tags": boolean("Require every tag in `tags` instead of any."),
        "exclude_tags": string_list("Drop memories carrying any of these tags."),
        "since": string("Inclusive start date, YYYY-MM-DD.", format="date"),
        "until": string("Inclusive end date, YYYY-MM-DD.", format="date"),
        "strict_dates": boolean("With a date range, drop memories that have no date."),
        "paths": string_list("Only these exact workspace-relative paths (any of)."),
        "path_prefixes": string_list("Only paths starting with one of these texts (plain "
                                     "prefix, as ReMe's path_prefix)."),
        "meta": string_list("Frontmatter tests KEY=VALUE (VALUE is JSON when it parses; a "
                            "JSON list means any of); needs include_frontmatter_in_metadata "
                            "in the ReMe config."),
        "limit": whole("How many results.", 1, MAX_LIMIT, DEFAULT_LIMIT),
        "min_score": {"type": "number", "minimum": 0, "default": 0,
                      "description": "Drop results scoring lower (0 = off)."},
    },
    required=("query",),
)  # fmt: skip


def explain(context: Context, args: Args) -> dict[str, Any]:
    engine = context.engine
    rel = a.workspace_path(args, "path")
    request = search_query(context, args)
    try:
        engine.resolve(rel)
    except PathOutsideWorkspace:
        raise ToolError(f"path {rel[:200]!r} resolves outside the workspace; not read") from None
    engine.apply([rel])  # a change the watcher has not delivered yet
    try:
        explanation = engine.explain(rel, request)
    except SearchError as exc:
        raise ToolError(str(exc)) from None
    if not explanation.exists:
        raise ToolError(f"{rel[:200]!r}: no such file in the workspace")
    return explanation.to_json()


EXPLAIN = ToolSpec(
    name="explain",
    handler=explain,
    description=(
        "Why one memory is or is not returned by a search: ReMe's pipeline stage by stage "
        "(found as a memory, frontmatter, tag/date/path/metadata filters, BM25 with each "
        "term's contribution, vector and fusion, cut-off, link expansion) and a verdict "
        "('returned at rank N' or 'dropped at STAGE'). Takes the `search` tool's arguments "
        "plus `path`; ranks and scores equal `search`'s (`reme-tui explain PATH QUERY --json`)."
    ),
    properties={
        "path": string("Workspace-relative path of the memory to explain."),
        **SEARCH.properties,
    },
    required=("path", "query"),
)


# -- tags -----------------------------------------------------------------------


def list_tags(context: Context, args: Args) -> dict[str, Any]:
    order_by = a.choice(args, "order_by", ("file_count", "tag")) or "file_count"
    order = a.choice(args, "order", ("asc", "desc"))
    items = context.engine.list_tags(cast(OrderBy, order_by), cast(Order | None, order))
    return {"total_tags": len(items), "items": [[tag, count] for tag, count in items]}


LIST_TAGS = ToolSpec(
    name="list_tags",
    handler=list_tags,
    description=(
        "Every tag in the workspace with how many memories carry it, as [tag, file_count] "
        "pairs (the same answer as `reme-tui tags --json`)."
    ),
    properties={
        "order_by": string("Sort key (default file_count).", enum=["file_count", "tag"]),
        "order": string("Direction (default: desc for file_count, asc for tag).",
                        enum=["asc", "desc"]),
    },
)  # fmt: skip


def tag_dupes(context: Context, args: Args) -> dict[str, Any]:
    from reme_tui.engine.tags import DismissedPairs, detect_duplicates

    engine = context.engine
    clusters = detect_duplicates(engine, embed=None, dismissed=DismissedPairs(engine.root))
    return {"clusters": [cluster.to_json() for cluster in clusters]}


TAG_DUPES = ToolSpec(
    name="tag_dupes",
    handler=tag_dupes,
    description=(
        "Clusters of near-duplicate tags (spelling variants, plurals, separators) with the "
        "file count of each member, a suggested canonical tag, the evidence and a "
        "confidence; feed a cluster to merge_tags (when writes are allowed) to unify it."
    ),
    properties={},
)


# -- one memory -------------------------------------------------------------------


def known_memory(engine: Engine, args: Args, name: str = "path") -> str:
    """A path that is a memory of this workspace now (re-checked on disk first)."""
    rel = a.workspace_path(args, name)
    try:
        engine.resolve(rel)
    except PathOutsideWorkspace:
        raise ToolError(f"{name} {rel[:200]!r} resolves outside the workspace; not read") from None
    engine.apply([rel])  # a change the watcher has not delivered yet
    if engine.memory(rel) is None:
        raise ToolError(f"{rel[:200]!r} is not a memory of this workspace (see search or a "
                        "resource list for paths)")  # fmt: skip
    return rel


def read_memory(context: Context, args: Args) -> dict[str, Any]:
    engine = context.engine
    rel = known_memory(engine, args)
    start = a.integer(args, "start_line", low=1, high=10**9)
    end = a.integer(args, "end_line", low=1, high=10**9)
    if start is not None and end is not None and end < start:
        raise ToolError(f"end_line {end} is before start_line {start}")
    try:
        real = engine.resolve(rel)
        data, st = read_regular(real, engine.config.max_file_bytes, inside=str(engine.root))
    except PathOutsideWorkspace:
        raise ToolError(f"{rel[:200]!r} resolves outside the workspace; not read") from None
    except OSError as exc:
        raise ToolError(f"{rel[:200]!r} cannot be read: {exc.strerror or exc}") from None
    lines = decode_text(data)[0].splitlines(keepends=True)
    first = start or 1
    last = min(end or len(lines), len(lines))
    return {
        "path": rel,
        "start_line": first,
        "end_line": last,
        "total_lines": len(lines),
        "text": "".join(lines[first - 1 : last]),
        "tags": list(engine.tags_of(rel)),
        "stamp": {
            "mtime_ns": st.st_mtime_ns,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        },
    }


READ_MEMORY = ToolSpec(
    name="read_memory",
    handler=read_memory,
    description=(
        "The text of one memory (a workspace-relative path such as daily/2026-03-10/x.md), "
        "whole or lines start_line..end_line (1-based, inclusive), with its tags and a "
        "`stamp`; pass the stamp as `expected` to a write tool so it refuses the write if "
        "the file changed since this read. Paths outside the workspace are refused."
    ),
    properties={
        "path": string("Workspace-relative path of the memory."),
        "start_line": whole("First line to return (1-based).", 1, 10**9),
        "end_line": whole("Last line to return (inclusive).", 1, 10**9),
    },
    required=("path",),
)


def neighbours(context: Context, args: Args) -> dict[str, Any]:
    engine = context.engine
    rel = known_memory(engine, args)
    limit = a.integer(args, "limit", low=1, high=MAX_LIMIT)
    found = engine.neighbours(rel, limit or MAX_LIMIT)
    document = found.to_json()
    document["path"] = rel
    document["dangling"] = list(found.dangling)
    return document


NEIGHBOURS = ToolSpec(
    name="neighbours",
    handler=neighbours,
    description=(
        "The memories one memory links to (outlinks: wikilinks and Markdown links) and the "
        "memories linking to it (inlinks), each with name, description and anchors, plus "
        "its dangling link targets."
    ),
    properties={
        "path": string("Workspace-relative path of the memory."),
        "limit": whole("At most this many links per direction.", 1, MAX_LIMIT, MAX_LIMIT),
    },
    required=("path",),
)


def suggest_tags(context: Context, args: Args) -> dict[str, Any]:
    engine = context.engine
    rel = known_memory(engine, args)
    limit = a.integer(args, "limit", low=1, high=MAX_LIMIT) or 5
    try:
        return engine.suggest_tags(rel, limit).to_json()
    except KeyError:
        raise ToolError(f"{rel[:200]!r} is not a memory of this workspace") from None


SUGGEST_TAGS = ToolSpec(
    name="suggest_tags",
    description=(
        "Existing workspace tags that fit one memory, ranked, each with its evidence (an "
        "entity page it names, links, the tags of similar memories); never a tag it already "
        "carries (`reme-tui suggest-tags PATH --json`). Apply one with add_tag."
    ),
    handler=suggest_tags,
    properties={
        "path": string("Workspace-relative path of the memory."),
        "limit": whole("How many suggestions.", 1, MAX_LIMIT, 5),
    },
    required=("path",),
)


# -- the workspace ------------------------------------------------------------------


def diagnostics(context: Context, args: Args) -> dict[str, Any]:
    limit = a.integer(args, "limit", low=1, high=10_000) or 1_000
    found = context.engine.diagnostics()
    return {"total": len(found), "diagnostics": [d.to_json() for d in found[:limit]]}


DIAGNOSTICS = ToolSpec(
    name="diagnostics",
    handler=diagnostics,
    description=(
        "What ReMe silently drops or cannot read, per file in path order: bad frontmatter, "
        "tags ReMe voids, unreadable files, dangling links (`reme-tui diagnostics --json`)."
    ),
    properties={"limit": whole("At most this many diagnostics.", 1, 10_000, 1_000)},
)


def changes(context: Context, args: Args) -> dict[str, Any]:
    from reme_tui.engine.history import HistoryError, ReportArgumentError, report_json, select

    since = a.text(args, "since")
    limit = a.integer(args, "limit", low=1, high=MAX_LIMIT) or 50
    first = not context.history_open
    history = context.history()
    try:
        if not first:
            context.engine.sync_history(source="mcp")
        entries = select(history, since)
        return report_json(
            history,
            entries[:limit],
            since=since,
            tag_field=context.engine.config.tag_field,
            baseline_recorded=first and context.baseline_recorded,
        )
    except ReportArgumentError as exc:
        raise ToolError(f"since: {exc}") from None
    except HistoryError as exc:
        raise ToolError(str(exc)) from None


CHANGES = ToolSpec(
    name="changes",
    handler=changes,
    description=(
        "What changed in the memories, newest first: created, edited, deleted, tags added or "
        "removed, with a diff summary (`reme-tui changes --json`). The server records a "
        "baseline when it opens the workspace; later calls list what changed since."
    ),
    properties={
        "since": string("A date YYYY-MM-DD, a time YYYY-MM-DDTHH:MM, or `last-review`."),
        "limit": whole("At most this many entries.", 1, MAX_LIMIT, 50),
    },
)

READ_TOOLS: tuple[ToolSpec, ...] = (
    SEARCH,
    EXPLAIN,
    LIST_TAGS,
    READ_MEMORY,
    NEIGHBOURS,
    SUGGEST_TAGS,
    TAG_DUPES,
    DIAGNOSTICS,
    CHANGES,
)
