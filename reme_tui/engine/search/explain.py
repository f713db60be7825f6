"""Why one memory came back from a search, or where the pipeline dropped it.

``Explainer.explain(path, query)`` runs the real search (``SearchPipeline.trace``: the
same call ``search`` makes, so ranks and scores are the ones ``--query`` prints) and then
walks the pipeline for that one memory, stage by stage, with the data that decided each:

``discovery``    is it a memory: the index's own record of it, else what the scan or the
                 read said (symlink outside, not a regular file, too large...), else why
                 the files room would not take it (not ``.md``, not under a memory folder);
``frontmatter``  valid or voided (the parse diagnostic and its line); each tag item as
                 ReMe reads it (``tags.walk_tag_items``): kept, repeated, over the limit,
                 invalid;
``tags``         the tag filter, asked against the tag index exactly as the pipeline asks
                 (ANY / ALL / excluded), with a near-duplicate spelling of an asked tag
                 (the tags room's separator and fingerprint keys) or an asked tag the
                 file lists but ReMe drops;
``dates``        the date from the path against since/until (``strict`` for undated);
``paths``        ReMe's exact paths and prefixes; ``metadata`` its frontmatter tests;
``keyword``      each chunk's BM25 score term by term (``KeywordIndex.explain``: the
                 index's own float32 arithmetic, so the terms' ``added`` sum to the score
                 exactly), its rank among the candidates, or why it is not one;
``vector``       the similarity and rank of each chunk when a model is loaded;
``fusion``       the RRF arithmetic (or one branch's native scores);
``cutoff``       ``min_score`` and the limit;
``links``        listed beside a returned result (which one, which direction).

The verdict is decided from the trace (is one of its chunks in the returned list, the
fused list, the branches, the allowed paths), never from the stages' own reasoning; each
stage says why.
"""

from __future__ import annotations

import os
import stat as _stat
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..codes import Code
from ..dates import date_bound
from ..files import PathOutsideWorkspace, is_memory_path, resolve_inside, to_relative
from ..index import ChunkScore, IndexState
from ..parse import VOIDING_CODES, preview_value
from ..records import Diagnostic, DocKey, Memory
from ..reme import RemeLayout
from ..tags import normalize_query_tags, walk_tag_items
from .filters import Filters
from .fusion import RRF_K, Ranked
from .pipeline import SearchPipeline, SearchTrace
from .reme_filters import PathFilter, chunk_metadata
from .types import SearchQuery

STAGES = (
    "discovery",
    "frontmatter",
    "tags",
    "dates",
    "paths",
    "metadata",
    "keyword",
    "vector",
    "fusion",
    "cutoff",
    "links",
)
_FILTER_STAGES = ("tags", "dates", "paths", "metadata")
_MAX_ITEMS_SHOWN = 20  # a file with 10,000 tag items lists the first ones and a count
# Codes that mean ReMe sees no frontmatter at all (the BOM hides the fence).
_NO_FRONTMATTER = VOIDING_CODES | {Code.BOM}


@dataclass(frozen=True, slots=True)
class ExplainScope:
    """Which files are memories (the engine's config) and ReMe's layout."""

    root: Path
    tag_field: str
    all_markdown: bool
    roots: tuple[str, ...]
    max_file_bytes: int
    layout: RemeLayout


@dataclass(frozen=True, slots=True)
class Stage:
    """One step of the pipeline for one memory: did it pass, why, and the deciding data.

    ``skipped`` stages did not apply (no tag filter, no model); they pass."""

    stage: str
    passed: bool
    detail: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    skipped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "passed": self.passed,
            "skipped": self.skipped,
            "detail": self.detail,
            **self.data,
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """The verdict first ("returned at rank N" / "dropped at STAGE"), then every stage."""

    path: str
    verdict: str
    rank: int | None  # 1-based position of its first returned chunk, as --query lists
    score: float | None  # that chunk's score
    dropped_at: str | None  # the stage that dropped it (None when returned)
    exists: bool  # False: no such file (nor a memory of that name in the index)
    stages: tuple[Stage, ...]

    @property
    def returned(self) -> bool:
        return self.rank is not None

    def stage(self, name: str) -> Stage | None:
        return next((s for s in self.stages if s.stage == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "verdict": self.verdict,
            "rank": self.rank,
            "score": self.score,
            "dropped_at": self.dropped_at,
            "exists": self.exists,
            "stages": [s.to_json() for s in self.stages],
        }


class Explainer:
    """Explains searches over one engine's index (its lock held for a consistent view)."""

    def __init__(
        self,
        pipeline: SearchPipeline,
        state: IndexState,
        lock: threading.RLock,
        scope: ExplainScope,
    ) -> None:
        self._pipeline = pipeline
        self._state = state
        self._lock = lock
        self._scope = scope

    def explain(self, path: str | os.PathLike[str], query: SearchQuery) -> Explanation:
        """Walk ``query``'s pipeline for the memory at ``path`` (workspace-relative or
        absolute). Raises SearchError when the search itself cannot run (empty query...),
        exactly as ``search`` does; a path that is no memory is a ``discovery`` outcome."""
        with self._lock:
            trace = self._pipeline.trace(query)
            return self._explain(os.fspath(path), query, trace)

    # -- the walk ------------------------------------------------------------------

    def _explain(self, raw: str, query: SearchQuery, trace: SearchTrace) -> Explanation:
        discovery, rel, memory, exists = self._discovery(raw)
        if memory is None:
            verdict = f"dropped at discovery: {discovery.detail}"
            return Explanation(rel or raw, verdict, None, None, "discovery", exists, (discovery,))
        filters = query.filters
        stages = [
            discovery,
            self._frontmatter(memory),
            self._tags(memory, filters),
            self._dates(memory, filters),
            self._paths(memory, filters),
            self._metadata(memory, filters),
        ]
        allowed = trace.allowed is None or rel in trace.allowed
        keys = [(rel, c.start_line) for c in memory.chunks]
        stages.append(self._keyword(memory, keys, trace, allowed))
        stages.append(self._vector(memory, keys, trace, allowed))
        stages.append(self._fusion(keys, trace, query))
        stages.append(self._cutoff(rel, keys, trace, query))
        stages.append(self._links(rel, trace, query))
        return self._verdict(rel, tuple(stages), trace, allowed, set(keys))

    def _verdict(
        self,
        rel: str,
        stages: tuple[Stage, ...],
        trace: SearchTrace,
        allowed: bool,
        keys: set[DocKey],
    ) -> Explanation:
        hits = trace.response.hits
        positions = [i for i, hit in enumerate(hits, 1) if hit.path == rel]
        by_name = {s.stage: s for s in stages}
        if positions:
            rank = positions[0]
            score = hits[rank - 1].score
            verdict = f"returned at rank {rank} (score {score:.4f})"
            if len(positions) > 1:
                verdict += f"; also at rank {', '.join(map(str, positions[1:]))}"
            return Explanation(rel, verdict, rank, score, None, True, stages)
        if not allowed:
            failing = [n for n in _FILTER_STAGES if not by_name[n].passed]
            dropped = failing[0] if failing else "tags"
        elif not any(r.key in keys for r in trace.fused):
            dropped = "keyword"
        else:
            dropped = "cutoff"
        verdict = f"dropped at {dropped}: {by_name[dropped].detail}"
        links = by_name["links"]
        if links.passed and not links.skipped:
            verdict += f"; {links.detail}"
        return Explanation(rel, verdict, None, None, dropped, True, stages)

    # -- discovery -----------------------------------------------------------------

    def _discovery(self, raw: str) -> tuple[Stage, str, Memory | None, bool]:
        scope = self._scope
        try:
            rel = to_relative(scope.root, raw)
        except PathOutsideWorkspace:
            detail = f"{raw} is outside the workspace {scope.root}"
            exists = os.path.lexists(raw)
            return _fail("discovery", detail, reason="outside"), "", None, exists
        memory = self._state.memories.get(rel)
        if memory is not None:
            where = (
                "every .md counts (--all-markdown)"
                if scope.all_markdown
                else f"under {rel.split('/')[0]}/, a memory folder"
            )
            data = {"reason": "indexed", "chunks": len(memory.chunks), "bytes": memory.size}
            detail = f"an indexed memory ({where}); {_count(len(memory.chunks), 'chunk')}"
            return Stage("discovery", True, detail, data), rel, memory, True
        abs_path = scope.root / rel
        exists = os.path.lexists(abs_path)
        recorded = self._recorded(rel)
        if recorded is not None:
            data = {"reason": str(recorded.code), "code": str(recorded.code)}
            where = f"{recorded.path}: " if recorded.path != rel else ""
            return _fail("discovery", where + recorded.message, **data), rel, None, exists
        if not exists:
            return _fail("discovery", f"{rel}: no such file", reason="missing"), rel, None, False
        stage = self._not_taken(rel, abs_path)
        return stage, rel, None, True

    def _recorded(self, rel: str) -> Diagnostic | None:
        """What the last scan or read said about ``rel`` (or a folder above it)."""
        state = self._state
        failure = state.failures.get(rel)
        if failure is not None:
            return failure
        for diagnostic in state.scan_diagnostics:
            inside = diagnostic.path == rel or rel.startswith(diagnostic.path.rstrip("/") + "/")
            if inside and diagnostic.code != Code.STALE_TEMP:
                return diagnostic
        return None

    def _not_taken(self, rel: str, abs_path: Path) -> Stage:
        """A file on disk the index does not hold: why the files room would not take it."""
        scope = self._scope
        if not is_memory_path(rel, all_markdown=scope.all_markdown, roots=scope.roots):
            if not rel.lower().endswith(".md"):
                return _fail("discovery", f"{rel} is not a Markdown (.md) file", reason="not-md")
            folders = ", ".join(f"{r}/" for r in scope.roots)
            detail = (
                f"{rel} is not under a memory folder ({folders}): ReMe does not index it "
                "(--all-markdown would)"
            )
            return _fail("discovery", detail, reason="not-memory-folder")
        try:
            real = resolve_inside(scope.root, rel)
        except PathOutsideWorkspace:
            detail = f"{rel} resolves outside the workspace (a symlink); not followed"
            return _fail("discovery", detail, reason=str(Code.SYMLINK_OUTSIDE))
        try:
            st = os.stat(real)
        except OSError as exc:
            detail = f"{rel}: cannot stat ({exc.strerror or exc})"
            return _fail("discovery", detail, reason=str(Code.UNREADABLE))
        if _stat.S_ISDIR(st.st_mode):
            return _fail("discovery", f"{rel} is a directory", reason="directory")
        if not _stat.S_ISREG(st.st_mode):
            detail = f"{rel} is not a regular file (a FIFO, device or socket)"
            return _fail("discovery", detail, reason=str(Code.NOT_REGULAR))
        if st.st_size > scope.max_file_bytes:
            detail = f"{rel} is {st.st_size:,} bytes, over the {scope.max_file_bytes:,} limit"
            return _fail("discovery", detail, reason=str(Code.TOO_LARGE))
        detail = f"{rel} is a memory on disk but not in the index (written since the last scan)"
        return _fail("discovery", detail, reason="not-indexed")

    # -- frontmatter ---------------------------------------------------------------

    def _frontmatter(self, memory: Memory) -> Stage:
        field_name = self._scope.tag_field
        voiding = next((d for d in memory.diagnostics if d.code in _NO_FRONTMATTER), None)
        if voiding is not None:
            data = {
                "valid": False,
                "code": str(voiding.code),
                "line": voiding.line,
                "tags": [],
            }
            where = f" (line {voiding.line})" if voiding.line else ""
            return Stage("frontmatter", False, f"voided{where}: {voiding.message}", data)
        if memory.frontmatter_end_line == 0 and not memory.frontmatter:
            data = {"valid": True, "present": False, "tags": []}
            return Stage("frontmatter", True, "no frontmatter, so no tags", data)
        value = memory.frontmatter.get(field_name)
        base: dict[str, Any] = {"valid": True, "present": True, "field": field_name}
        if field_name not in memory.frontmatter or value is None:
            detail = f"valid; no `{field_name}` entry, so no tags"
            return Stage("frontmatter", True, detail, {**base, "tags": []})
        if not isinstance(value, list):
            detail = (
                f"valid; `{field_name}` is a {type(value).__name__} "
                f"({preview_value(value)}), not a list, so ReMe reads no tags"
            )
            return Stage("frontmatter", True, detail, {**base, "tags": [], "items": []})
        walked = walk_tag_items(value)
        items = [
            {"item": preview_value(w.item), "tag": w.canonical, "outcome": w.outcome}
            for w in walked[:_MAX_ITEMS_SHOWN]
        ]
        dropped = [w for w in walked if w.outcome != "kept"]
        tags = ", ".join(f"`{t}`" for t in memory.tags) or "none"
        detail = f"valid; {_count(len(walked), 'tag item')} -> tags {tags}"
        if dropped:
            shown = "; ".join(
                f"{preview_value(w.item)} {_OUTCOMES.get(w.outcome, w.outcome)}"
                for w in dropped[:3]
            )
            more = f" and {len(dropped) - 3} more" if len(dropped) > 3 else ""
            detail += f"; dropped: {shown}{more}"
        data = {
            **base,
            "line": memory.tag_line,
            "tags": list(memory.tags),
            "items": items,
            "items_total": len(walked),
            "dropped": len(dropped),
        }
        return Stage("frontmatter", True, detail, data)

    # -- the filters ---------------------------------------------------------------

    def _tags(self, memory: Memory, filters: Filters) -> Stage:
        wanted = normalize_query_tags(filters.tags)
        excluded = normalize_query_tags(filters.exclude_tags)
        if not wanted and not excluded:
            return _skip("tags", "no tag filter")
        path = memory.path
        index = self._state.tags
        carried = list(index.tags_of(path))
        mode = "all" if filters.all_tags else "any"
        matched = [t for t in wanted if path in index.files_with(t)]
        excluded_hit = [t for t in excluded if path in index.files_with(t)]
        wanted_ok = True
        if wanted:
            found = index.files_all(wanted) if filters.all_tags else index.files_any(wanted)
            wanted_ok = path in found
        passed = wanted_ok and path not in index.files_any(excluded)
        missing = [t for t in wanted if t not in matched]
        hints = [] if wanted_ok else self._tag_hints(memory, missing, carried)
        data: dict[str, Any] = {
            "asked": wanted,
            "mode": mode,
            "excluded": excluded,
            "carries": carried,
            "matched": matched,
            "excluded_matched": excluded_hit,
            "hints": hints,
        }
        has = ", ".join(f"`{t}`" for t in carried) if carried else "no tags"
        asked = (" and " if mode == "all" else " or ").join(f"`{t}`" for t in wanted)
        parts = []
        if wanted and wanted_ok:
            parts.append(f"carries {', '.join(f'`{t}`' for t in matched)} (asked {asked})")
        elif wanted:
            lacks = ", ".join(f"`{t}`" for t in missing)
            parts.append(f"carries {has}, not {lacks} (asked {asked}, {mode.upper()})")
        if excluded_hit:
            parts.append(f"carries excluded {', '.join(f'`{t}`' for t in excluded_hit)}")
        elif excluded:
            parts.append(f"carries none of the excluded {', '.join(f'`{t}`' for t in excluded)}")
        parts.extend(h["text"] for h in hints)
        return Stage("tags", passed, "; ".join(parts), data)

    def _tag_hints(
        self, memory: Memory, missing: Sequence[str], carried: Sequence[str]
    ) -> list[dict[str, str]]:
        """For each asked tag it lacks: a near-duplicate spelling it carries, the same tag
        listed but dropped by ReMe, or a voided frontmatter."""
        if not missing:
            return []
        # The near-duplicate keys live with dupe detection (rapidfuzz...): loaded only here,
        # so a headless query does not pay for them.
        from ..tags import fingerprint_key, separator_key

        hints: list[dict[str, str]] = []
        voided = next((d for d in memory.diagnostics if d.code in _NO_FRONTMATTER), None)
        items = memory.frontmatter.get(self._scope.tag_field)
        walked = walk_tag_items(items) if isinstance(items, list) else []
        for asked in missing:
            variant = next(
                (
                    t
                    for t in carried
                    if separator_key(t) == separator_key(asked)
                    or fingerprint_key(t) == fingerprint_key(asked)
                ),
                None,
            )
            if variant is not None:
                text = f"carries `{variant}`; you asked `{asked}` (near-duplicate: merge?)"
                hints.append({"kind": "variant", "asked": asked, "tag": variant, "text": text})
                continue
            listed = next((i for i, w in enumerate(walked, 1) if w.canonical == asked), None)
            if listed is not None and walked[listed - 1].outcome != "kept":
                outcome = walked[listed - 1].outcome
                text = f"lists `{asked}` as item {listed}, but it is {_OUTCOMES[outcome]}"
                hints.append({"kind": outcome, "asked": asked, "tag": asked, "text": text})
                continue
            if voided is not None:
                where = f" (line {voiding_line})" if (voiding_line := voided.line) else ""
                text = f"its frontmatter is voided{where}, so ReMe reads no tags from it"
                hints.append({"kind": "voided", "asked": asked, "tag": "", "text": text})
        return hints

    def _dates(self, memory: Memory, filters: Filters) -> Stage:
        start, _warning = date_bound(filters.since, "since")
        end, _warning = date_bound(filters.until, "until")
        if not start and not end:
            return _skip("dates", "no date filter")
        strict = filters.strict_dates
        date = memory.date
        inside = memory.path in self._state.paths_in_range(start, end, include_undated=not strict)
        span = f"{start or '…'}..{end or '…'}"
        data = {"date": date, "since": start, "until": end, "strict": strict}
        if date is None:
            detail = (
                f"undated (no date in its path): dropped from {span} by --strict-dates"
                if strict
                else f"undated (no date in its path): passes {span} (not strict)"
            )
        elif inside:
            detail = f"dated {date}, inside {span}"
        elif start and date < start:
            detail = f"dated {date}, before the start {start}"
        else:
            detail = f"dated {date}, after the end {end}"
        return Stage("dates", inside, detail, data)

    def _paths(self, memory: Memory, filters: Filters) -> Stage:
        if not filters.paths and not filters.path_prefixes:
            return _skip("paths", "no path filter")
        exact = frozenset(filters.paths) if filters.paths else None
        passed = PathFilter(exact, filters.path_prefixes).matches(memory.path)
        data = {"paths": list(filters.paths), "prefixes": list(filters.path_prefixes)}
        parts = []
        if exact is not None:
            parts.append(
                "is one of the --path values"
                if memory.path in exact
                else "is not one of the --path values"
            )
        if filters.path_prefixes:
            starts = [p for p in filters.path_prefixes if memory.path.startswith(p)]
            shown = ", ".join(f"`{p}`" for p in filters.path_prefixes)
            parts.append(f"starts with `{starts[0]}`" if starts else f"starts with none of {shown}")
        return Stage("paths", passed, "; ".join(parts), data)

    def _metadata(self, memory: Memory, filters: Filters) -> Stage:
        if not filters.meta:
            return _skip("metadata", "no metadata filter")
        layout = self._scope.layout
        on = layout.include_frontmatter_in_metadata
        metadata = (
            chunk_metadata(memory.frontmatter or {}, layout.frontmatter_keys_in_metadata)
            if on
            else {}
        )
        tests = []
        for test in filters.meta:
            tests.append(
                {
                    "key": test.key,
                    "want": test.label,
                    "actual": preview_value(metadata.get(test.key)),
                    "matched": test.matches(metadata),
                }
            )
        passed = all(t["matched"] for t in tests)
        failing = [t for t in tests if not t["matched"]]
        if passed:
            detail = "matches " + ", ".join(str(t["want"]) for t in tests)
        else:
            first = failing[0]
            detail = f"{first['want']} does not hold: its {first['key']} is {first['actual']}"
        if not on:
            detail += (
                " (chunk metadata holds no frontmatter: include_frontmatter_in_metadata is off)"
            )
        return Stage("metadata", passed, detail, {"tests": tests, "frontmatter_in_metadata": on})

    # -- retrieval -----------------------------------------------------------------

    def _keyword(
        self, memory: Memory, keys: list[DocKey], trace: SearchTrace, allowed: bool
    ) -> Stage:
        keyword = self._state.keyword
        tokens = list(trace.tokens)
        ranks = {key: rank for rank, (key, _score) in enumerate(trace.keyword, 1)}
        chunks: list[dict[str, Any]] = []
        explained: list[tuple[ChunkScore, dict[str, Any]]] = []
        everything: dict[DocKey, float] | None = None
        for chunk, key in zip(memory.chunks, keys, strict=True):
            scored = keyword.explain(key, tokens)
            entry: dict[str, Any] = {
                "start_line": chunk.start_line,
                "end_line": chunk.end_line,
                "indexed": scored is not None,
                "score": scored.score if scored else 0.0,
                "rank": ranks.get(key),
            }
            if scored is not None:
                entry |= {
                    "length": scored.length,
                    "avg_length": scored.avg_length,
                    "length_norm": scored.length_norm,
                    "terms": [
                        {
                            "term": t.term,
                            "tf": t.tf,
                            "df": t.df,
                            "idf": t.idf,
                            "part": t.part,
                            "added": t.added,
                        }
                        for t in scored.terms
                    ],
                }
                if scored.score > 0 and key not in ranks and allowed:
                    if everything is None:
                        everything = keyword.score(tokens)
                    entry["rank_among_matching"] = _rank_of(key, everything, trace.allowed)
                explained.append((scored, entry))
            chunks.append(entry)
        data: dict[str, Any] = {
            "terms": tokens,
            "candidates": trace.candidates,
            "retrieved": len(trace.keyword),
            "documents": len(keyword),
            "k1": keyword.k1,
            "b": keyword.b,
            "chunks": chunks,
        }
        passed = any(key in ranks for key in keys)
        if not tokens:
            return Stage(
                "keyword",
                False,
                "the query has no searchable words (all stopwords or one letter)",
                data,
            )
        if not memory.chunks:
            return Stage("keyword", False, "its body is empty: no chunk to search", data)
        matching = [(s, e) for s, e in explained if s.score > 0]
        if not matching:
            words = ", ".join(f"`{t}`" for t in tokens)
            return Stage("keyword", False, f"no chunk contains any query word ({words})", data)
        best, entry = max(matching, key=lambda se: (se[0].score, -se[1]["start_line"]))
        sums = " + ".join(f"`{t.term}` {t.added:.4f}" for t in best.terms if t.tf)
        where = f"lines {entry['start_line']}-{entry['end_line']}"
        detail = f"{where} scores {best.score:.4f} = {sums}"
        if entry["rank"] is not None:
            detail += f"; keyword rank {entry['rank']} of {len(trace.keyword)} candidates"
        elif not allowed:
            detail += "; not a candidate: the filters above leave it out"
        else:
            among = entry.get("rank_among_matching")
            detail += (
                f"; rank {among} among matching chunks, but only the top {trace.candidates} "
                "are candidates (limit x 5)"
            )
        return Stage("keyword", passed, detail, data)

    def _vector(
        self, memory: Memory, keys: list[DocKey], trace: SearchTrace, allowed: bool
    ) -> Stage:
        if trace.query_vec is None:
            reason = trace.response.vector_error
            detail = (
                f"the model failed on the query ({reason})"
                if reason
                else "no model loaded: keyword search only"
            )
            return _skip("vector", detail)
        semantic = self._state.semantic
        own = dict(semantic.top_k(trace.query_vec, max(1, len(keys)), [memory.path]))
        ranks = {key: rank for rank, (key, _score) in enumerate(trace.vector, 1)}
        chunks = [
            {
                "start_line": key[1],
                "similarity": own.get(key),
                "rank": ranks.get(key),
            }
            for key in keys
        ]
        data: dict[str, Any] = {
            "candidates": trace.candidates,
            "retrieved": len(trace.vector),
            "chunks": chunks,
        }
        passed = any(key in ranks for key in keys)
        if not own:
            return Stage("vector", False, "none of its chunks is embedded yet", data)
        best_key = max(own, key=lambda k: (own[k], -k[1]))
        detail = f"best similarity {own[best_key]:.4f} (line {best_key[1]})"
        if best_key in ranks or passed:
            ranked = min(r for k, r in ranks.items() if k in own)
            detail += f"; vector rank {ranked} of {len(trace.vector)} candidates"
        elif not allowed:
            detail += "; not a candidate: the filters above leave it out"
        elif trace.vector:
            detail += f"; below the {len(trace.vector)}th candidate's {trace.vector[-1][1]:.4f}"
        return Stage("vector", passed, detail, data)

    def _fusion(self, keys: list[DocKey], trace: SearchTrace, query: SearchQuery) -> Stage:
        mine = [(pos, r) for pos, r in enumerate(trace.fused, 1) if r.key in set(keys)]
        hybrid = bool(trace.keyword) and bool(trace.vector)
        if not hybrid:
            branch = "keyword" if trace.keyword or not trace.vector else "vector"
            detail = f"one branch only ({branch}): its own scores and ranking"
            detail += f"; fused rank {mine[0][0]}" if mine else "; not among its hits"
            return Stage(
                "fusion",
                bool(mine),
                detail,
                {"hybrid": False, "branch": branch, "ranks": [p for p, _ in mine]},
            )
        weight = query.vector_weight
        rows = [_rrf(pos, r, weight) for pos, r in mine]
        data = {"hybrid": True, "k": RRF_K, "vector_weight": weight, "chunks": rows}
        if not rows:
            return Stage("fusion", False, "not fused: in neither branch's candidates", data)
        first = rows[0]
        return Stage("fusion", True, f"fused rank {first['rank']}: {first['formula']}", data)

    def _cutoff(
        self, rel: str, keys: list[DocKey], trace: SearchTrace, query: SearchQuery
    ) -> Stage:
        key_set = set(keys)
        min_score = query.min_score
        limit = query.limit
        kept = [r for r in trace.fused if min_score <= 0.0 or r.score >= min_score]
        mine = [(pos, r) for pos, r in enumerate(trace.fused, 1) if r.key in key_set]
        returned = [r for r in trace.ranked if r.key in key_set]
        paths = {r.key[0] for r in trace.ranked}
        data: dict[str, Any] = {
            "limit": limit,
            "min_score": min_score,
            "returned": len(trace.ranked),
            "returned_memories": len(paths),
            "last_score": trace.ranked[-1].score if trace.ranked else None,
        }
        if not mine:
            return Stage("cutoff", False, "not reached: no chunk of it was retrieved", data)
        best = mine[0][1]
        if returned:
            return Stage(
                "cutoff", True, f"kept (score {returned[0].score:.4f}; limit {limit})", data
            )
        if min_score > 0.0 and best.score < min_score:
            detail = f"score {best.score:.4f} is below --min-score {min_score:g}"
            return Stage("cutoff", False, detail, data | {"reason": "min_score"})
        position = next(i for i, r in enumerate(kept, 1) if r.key == best.key)
        detail = (
            f"fused rank {position}, past the limit {limit}: the last returned scored "
            f"{data['last_score']:.4f}"
        )
        if len(paths) < len(trace.ranked):
            detail += (
                f" (the {len(trace.ranked)} results are chunks of {len(paths)} memories: "
                "chunks of one file each take a place)"
            )
        return Stage("cutoff", False, detail, data | {"reason": "limit", "rank": position})

    def _links(self, rel: str, trace: SearchTrace, query: SearchQuery) -> Stage:
        if not query.expand_links:
            return _skip("links", "link expansion is off")
        response = trace.response
        if any(h.path == rel for h in response.hits):
            data = {"returned": True, "neighbour_of": []}
            return Stage("links", True, "returned itself; its links are listed with it", data)
        of: list[dict[str, str]] = []
        for source, neighbours in response.links.items():
            if any(n.path == rel for n in neighbours.outlinks):
                of.append({"result": source, "direction": "outlink"})
            if any(n.path == rel for n in neighbours.inlinks):
                of.append({"result": source, "direction": "inlink"})
        data = {"returned": False, "neighbour_of": of}
        if not of:
            return Stage("links", False, "not a link neighbour of any returned result", data)
        shown = "; ".join(
            f"{o['result']} links to it"
            if o["direction"] == "outlink"
            else f"it links to {o['result']}"
            for o in of
        )
        return Stage("links", True, f"listed as a neighbour: {shown}", data)


_OUTCOMES = {
    "kept": "kept",
    "duplicate": "a repeat of an earlier tag",
    "over-limit": "past the first 3 tags (ReMe keeps 3)",
    "type": "not text (a string or an integer)",
    "empty": "empty",
    "too-long": "longer than 64 characters",
    "no-alnum": "without a letter or digit",
}


def _fail(stage: str, detail: str, **data: Any) -> Stage:
    return Stage(stage, False, detail, dict(data))


def _skip(stage: str, detail: str) -> Stage:
    return Stage(stage, True, detail, {}, skipped=True)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _rank_of(key: DocKey, scores: dict[DocKey, float], allowed: frozenset[str] | None) -> int:
    """Rank of ``key`` among the matching chunks inside ``allowed``, ordered as ``top_k``
    orders them (score descending, then key)."""
    mine = (-scores[key], key)
    return 1 + sum(
        1
        for other, score in scores.items()
        if (allowed is None or other[0] in allowed) and (-score, other) < mine
    )


def _rrf(position: int, ranked: Ranked, weight: float) -> dict[str, Any]:
    """The RRF sum of one fused chunk, added in the order ``fuse`` adds it (vector part
    first), so ``total`` equals the fused score exactly."""
    vector_part = weight / (RRF_K + ranked.vector_rank) if ranked.vector_rank else None
    keyword_part = (1.0 - weight) / (RRF_K + ranked.keyword_rank) if ranked.keyword_rank else None
    total = vector_part if vector_part is not None else 0.0
    if keyword_part is not None:
        total += keyword_part
    terms = []
    if vector_part is not None:
        terms.append(f"{weight:g}/({RRF_K}+{ranked.vector_rank})")
    if keyword_part is not None:
        terms.append(f"{1.0 - weight:g}/({RRF_K}+{ranked.keyword_rank})")
    return {
        "start_line": ranked.key[1],
        "rank": position,
        "score": ranked.score,
        "vector_rank": ranked.vector_rank,
        "keyword_rank": ranked.keyword_rank,
        "vector_part": vector_part,
        "keyword_part": keyword_part,
        "total": total,
        "formula": " + ".join(terms) + f" = {total:.6f}",
    }
