"""The Engine: the one front door the UI, the CLI and the MCP server share.

It owns the lifecycle (open, build, save) and the locks, and hands every question to the
room that answers it: the index state and its updates (``index``), the search pipeline
(``search``), the write door (``write``), the change history (``history``), ReMe's
workspace checks (``reme``). Every public method is thread-safe.

Locks: ``_lock`` (re-entrant) guards the index state; readers hold it for a consistent
view, an update takes it a slice at a time. ``_apply_lock`` lets one update in at a time
(it reads the state without ``_lock`` while it reads and parses files). The write door
has a lock of its own: two writes never interleave.

Its size (~570 lines, ~470 of them the class) is the public API: some sixty methods, each a
delegation with its contract in a docstring; the work lives in the rooms.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .codes import Code
from .errors import WorkspaceError
from .files import (
    FileStamp,
    LinkMap,
    PathOutsideWorkspace,
    read_regular,
    resolve_inside,
    to_relative,
)
from .history import ChangeHistory, Recorder, RecordResult
from .index import (
    BurstWindow,
    Embedder,
    IndexState,
    IndexStore,
    PendingLoad,
    Planner,
    ProgressCallback,
    Scope,
    Semantic,
    SemanticStatus,
    SimilarMemory,
    StoreInvalid,
    build_cold,
    build_warm,
    code_fingerprint,
    collector_paused,
    commit,
    give_back,
    in_slices,
    now_ns,
    try_load_model,
    worker_setting_problem,
)
from .parse import DEFAULT_MAX_FILE_BYTES, ReadFailure, TagOp, decode_text, read_file, tokenize
from .records import Delta, Diagnostic, Memory
from .reme import (
    DEFAULT_LAYOUT,
    RemeChecks,
    RemeLayout,
    Source,
    SourceChecker,
    StaleEntry,
    Transcript,
    parse_transcript,
)
from .search import (
    NO_FILTERS,
    Explainer,
    ExplainScope,
    Explanation,
    Filters,
    Neighbours,
    SearchPipeline,
    SearchQuery,
    SearchResponse,
    TagFilterInfo,
)
from .tags import DEFAULT_TAG_FIELD, Order, OrderBy, TagFix

if TYPE_CHECKING:
    from .tags import SuggestionCache, SuggestionReport
from .write import (
    EditResult,
    FixOutcome,
    MergePlan,
    MergeResult,
    PlannedFix,
    RevertPlan,
    RevertResult,
    UndoResult,
    WriteDoor,
)

__all__ = ["BuildOutcome", "Delta", "Engine", "EngineConfig", "WorkspaceError"]


@dataclass(frozen=True, slots=True)
class EngineConfig:
    tag_field: str = DEFAULT_TAG_FIELD
    all_markdown: bool = False
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    # ReMe's folder names (a ReMe config may rename daily/ and digest/).
    layout: RemeLayout = DEFAULT_LAYOUT

    @property
    def memory_roots(self) -> tuple[str, ...]:
        return self.layout.memory_roots

    @property
    def scope(self) -> Scope:
        return Scope(self.tag_field, self.max_file_bytes, self.all_markdown, self.memory_roots)


@dataclass(frozen=True, slots=True)
class BuildOutcome:
    """How `Engine.build` went: from the saved index (warm) or not, and whether the saved
    index is behind the files (only when the caller asked it not to save)."""

    warm: bool
    unsaved: bool


class Engine:
    """In-process index over one workspace. Every public method is thread-safe."""

    def __init__(self, root: Path, config: EngineConfig | None = None) -> None:
        self.root = root
        self.config = config or EngineConfig()
        self._lock = threading.RLock()
        self._apply_lock = threading.Lock()
        self._bursts = BurstWindow()  # read under _apply_lock
        self._root_real = os.path.realpath(root)
        self._symlinks = LinkMap(root)
        self._semantic = Semantic(self._lock)
        self._semantic.on_complete = self.save
        self._state = IndexState(self._semantic)
        self._planner = Planner(root, self.config.scope, self._symlinks, self._state)
        self._store: IndexStore | None = None
        self._pending: PendingLoad | None = None  # the saved index, being read (preload)
        self._recorder = Recorder(root, self.config.max_file_bytes)
        # Why the last save failed (None after a good one): shown by the CLI and the app.
        self.save_error: str | None = None
        # Why this folder is the workspace (".reme found here"...), for the status bar.
        self.chosen_because: str | None = None
        self._checks = RemeChecks(
            self.root,
            self.config.layout,
            self.config.tag_field,
            self._state.memories,
            lambda: self._state.links,
            self._read_text_or_none,
            lambda: self._state.tags.file_counts(),
            self.config.all_markdown,
        )
        self._search = SearchPipeline(
            root, self._state, self._lock, self.config.layout, self._checks
        )
        scope = self.config.scope
        self._explainer = Explainer(
            self._search,
            self._state,
            self._lock,
            ExplainScope(
                root,
                scope.tag_field,
                scope.all_markdown,
                scope.roots,
                scope.max_file_bytes,
                self.config.layout,
            ),
        )
        self._writes = WriteDoor(
            root,
            self.config.tag_field,
            None if self.config.all_markdown else tuple(self.config.memory_roots),
            self._written,
            lambda: self._recorder.history,
            self.tag_fixes,
        )
        self._suggestions: SuggestionCache | None = None  # built when first asked

    # -- lifecycle -----------------------------------------------------------

    @classmethod
    def create(cls, root: str | os.PathLike[str], config: EngineConfig | None = None) -> Engine:
        """An empty engine for `root`; raises WorkspaceError when root is not a directory."""
        path = Path(root).expanduser()
        if not path.exists():
            raise WorkspaceError(f"workspace {path} does not exist")
        if not path.is_dir():
            raise WorkspaceError(f"workspace {path} is not a directory")
        if not os.access(path, os.R_OK | os.X_OK):
            raise WorkspaceError(f"workspace {path} is not readable")
        return cls(path.resolve(), config)

    @classmethod
    def open(
        cls,
        root: str | os.PathLike[str],
        config: EngineConfig | None = None,
        progress: ProgressCallback | None = None,
        store: IndexStore | None = None,
        notice: Callable[[str], None] | None = None,
    ) -> Engine:
        engine = cls.create(root, config)
        engine.attach_store(store)
        engine.build(progress, notice=notice)
        return engine

    @property
    def is_built(self) -> bool:
        """Whether a build has filled the index (until then every query sees nothing)."""
        return self._state.built

    def attach_store(self, store: IndexStore | None) -> None:
        """Persist the index there (None: never read nor write a saved index)."""
        self._store = store

    def preload(self) -> None:
        """Start reading the saved index now, in a thread; the next `build` takes what it
        read (a warm start's reading and decoding overlap whatever the caller does next:
        the app imports and draws its UI). No-op without a store."""
        if self._store is not None and self._pending is None:
            self._pending = PendingLoad(self._store, self._config_key())

    def build(
        self,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        notice: Callable[[str], None] | None = None,
        *,
        save: bool = True,
        before_scan: Callable[[], None] | None = None,
    ) -> BuildOutcome:
        """Index every memory: from the saved index plus what changed since, when there is
        a usable one, else from scratch. Safe to call again (acts as a full refresh).
        ``notice`` hears what the user should know but that does not stop the build.

        With `save=False` nothing is written: the caller saves later (the app does it after
        showing the index) when the outcome says the saved index is behind.

        ``before_scan`` is called once (from the building thread) just before the workspace
        is scanned: the moment to start watching it. On a warm start the saved index is
        restored by then and answers queries (`is_built`), and the scan checks the files
        for changes made since it was saved."""
        problem = worker_setting_problem()
        if notice is not None and problem is not None:
            notice(problem)
        with collector_paused():
            outcome = self._build_warm(progress, notice, before_scan) or self._build_cold(
                progress, cancel, before_scan
            )
        if outcome.unsaved and save:
            outcome = BuildOutcome(outcome.warm, unsaved=not self.save())
            if notice is not None and self.save_error is not None:
                notice(self.save_error)
        return outcome

    def _build_warm(
        self,
        progress: ProgressCallback | None,
        notice: Callable[[str], None] | None,
        before_scan: Callable[[], None] | None,
    ) -> BuildOutcome | None:
        """From the saved index plus what moved since (None: no usable saved index)."""
        pending, self._pending = self._pending, None
        if self._store is None:
            return None
        try:
            key = self._config_key()
            if pending is not None and pending.store is self._store and pending.config_key == key:
                snapshot = pending.result()
            else:
                snapshot = self._store.load(key)
            locks = (self._apply_lock, self._lock)
            behind = build_warm(self._state, self._planner, snapshot, locks, progress, before_scan)
        except StoreInvalid as invalid:
            if notice is not None and self._store.path.exists():
                notice(f"{invalid}; rebuilding the index")
            return None
        return BuildOutcome(warm=True, unsaved=behind)

    def _build_cold(
        self,
        progress: ProgressCallback | None,
        cancel: threading.Event | None,
        before_scan: Callable[[], None] | None,
    ) -> BuildOutcome:
        if before_scan is not None:
            before_scan()
        build_cold(self._state, self._planner, self._lock, progress, cancel)
        return BuildOutcome(warm=False, unsaved=self.is_built and self._store is not None)

    def _config_key(self) -> str:
        cfg = self.config
        return (
            f"{code_fingerprint()}|{cfg.tag_field}|{cfg.all_markdown}|{cfg.max_file_bytes}"
            f"|{cfg.layout.key()}"
        )

    def save(self) -> bool:
        """Write the saved index now (no-op without a store). False when not written."""
        if self._store is None:
            return False
        with self._lock:  # only the capture: the snapshot is made from it after
            make_snapshot = self._state.snapshot_later(self._config_key(), now_ns())
        snapshot = make_snapshot()
        self._state.stat_only_changes = False
        try:
            saved = self._store.save(snapshot)
            del snapshot
            give_back()  # the export's arrays
        except OSError as exc:
            self.save_error = (
                f"could not save the index to {self._store.directory}: {exc.strerror or exc}; "
                "the next start indexes from scratch"
            )
            return False
        self.save_error = None
        return saved  # False: another process holds the write lock and saves its own

    # -- incremental updates -------------------------------------------------

    def apply(
        self,
        changes: Iterable[str | os.PathLike[str]],
        *,
        source: str = "watch",
        label: str = "",
        undo: str | None = None,
    ) -> Delta:
        """Re-check the given paths (files or directories, relative or absolute).

        Updates every index for exactly the touched memories and returns what moved.
        A directory path is rescanned; a path that no longer exists takes every memory
        under it along. With a history attached, what changed is recorded as one group
        (``source``, ``label`` and ``undo`` describe who changed it), after the index
        lock is released. Files are read and parsed without the index lock, then put in
        a slice at a time: searches meanwhile see the change partly applied, never wait
        for all of it."""
        delta = Delta()
        changes = list(changes)
        with self._apply_lock, self._bursts.paused_for(len(changes)):
            update = self._planner.plan(changes)
            if update is None:
                # Deleted, moved away, or moved away and replaced by another folder (a
                # watcher keeps following the old one): either way this index is done.
                delta.workspace_missing = True
                return delta
            commit(self._state, update, delta, self._lock)
            if not delta.is_empty:
                self._recorder.record_apply(
                    update.rereads, delta.removed, source=source, label=label, undo=undo
                )
        return delta

    def is_link_target(self, path: str | os.PathLike[str]) -> bool:
        """Whether a change at ``path`` (absolute) may change a symlinked memory or folder:
        the watcher passes such paths on even when they are not memories themselves.
        Lock-free (the watcher's filter runs on the app's event loop): it reads a copy."""
        return self._symlinks.touches(path)

    # -- change history (history/) --------------------------------------------

    def attach_history(self, history: ChangeHistory | None) -> None:
        """Record every change `apply` sees into `history` (None: record nothing)."""
        self._recorder.attach(history)

    @property
    def history(self) -> ChangeHistory | None:
        return self._recorder.history

    @property
    def last_record(self) -> RecordResult:
        return self._recorder.last_record

    @property
    def history_error(self) -> str | None:
        return self._recorder.error

    def sync_history(self, source: str = "start") -> RecordResult:
        """Record what changed since the history last looked (the first time: a silent
        baseline). Only files whose content hash differs from the recorded one are read."""
        if not self.is_built:
            return RecordResult()
        with self._lock:
            memories = dict(self._state.memories)
        hashes = {path: memory.content_hash for path, memory in memories.items()}
        return self._recorder.sync(
            hashes, lambda path: (memories[path].tags, memories[path].name), source
        )

    # -- queries -------------------------------------------------------------

    @property
    def memory_count(self) -> int:
        return len(self._state.memories)

    @property
    def chunk_count(self) -> int:
        return self._state.chunk_count

    def memory(self, path: str) -> Memory | None:
        return self._state.memories.get(path)

    def paths(self) -> list[str]:
        with self._lock:
            return sorted(self._state.memories)

    def read_text(self, path: str) -> str:
        """Current text of a memory (UTF-8 with replacement, newlines normalized).

        Read through the containment check: a path whose real file is outside the
        workspace (a symlink swapped in since the scan) raises ReadFailure, as does a
        FIFO, device or oversized file."""
        rel = to_relative(self.root, path)
        try:
            real = self.resolve(rel)
        except PathOutsideWorkspace:
            message = "resolves outside the workspace; not read"
            raise ReadFailure(Diagnostic(rel, None, Code.SYMLINK_OUTSIDE, message)) from None
        raw = read_file(real, rel, self.config.max_file_bytes, inside=self._root_real)
        return decode_text(raw.data)[0]

    def _read_text_or_none(self, path: str) -> str | None:
        try:
            return self.read_text(path)
        except (ReadFailure, PathOutsideWorkspace, OSError):
            return None

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path of workspace path ``path``; PathOutsideWorkspace when it (or any
        symlink on the way) leads outside the workspace. Every read of a workspace path
        (preview, editor, watcher) goes through here."""
        return resolve_inside(self.root, path)

    def tokenize_query(self, text: str) -> list[str]:
        return tokenize(text)

    def list_tags(
        self, order_by: OrderBy = "file_count", order: Order | None = None
    ) -> list[tuple[str, int]]:
        with self._lock:
            return self._state.tags.list_tags(order_by, order)

    def tags_of(self, path: str) -> tuple[str, ...]:
        return self._state.tags.tags_of(path)

    def files_with_tag(self, tag: str) -> frozenset[str]:
        with self._lock:
            return self._state.tags.files_with(tag)

    def suggest_tags(self, path: str, limit: int = 5) -> SuggestionReport:
        """Existing tags for ``path`` ranked with their evidence (KeyError: not a memory)."""
        if self._suggestions is None:
            from .tags import SuggestionCache  # near-duplicate detection: numpy

            self._suggestions = SuggestionCache(self, lambda: self._state.generation)
        return self._suggestions.suggest(path, limit)

    def keyword_similar(self, path: str, k: int = 10) -> list[tuple[str, float]]:
        return self._search.keyword_similar(path, k)

    def neighbours(self, path: str, limit: int | None = None) -> Neighbours:
        return self._search.neighbours(path, limit)

    def frontmatter_keys(self) -> frozenset[str]:
        """Every top-level frontmatter key used in the workspace (for `key:value` queries)."""
        with self._lock:
            return self._state.frontmatter_keys()

    def recent_frontmatter_keys(self) -> frozenset[str]:
        """`frontmatter_keys` as last worked out, without waiting for the index lock (the
        app's search box asks on every key, and an update or a save may hold the lock:
        at 50,000 memories during a burst the screen waited 60-90 ms a key, issue 19).
        It is as old as the last call of `frontmatter_keys` (the app makes one after every
        update); worked out now when there was none."""
        known = self._state.known_frontmatter_keys
        return known if known is not None else self.frontmatter_keys()

    def is_source(self, target: str) -> bool:
        """A link target that is an existing file of the workspace but not a memory."""
        return target not in self._state.memories and SourceChecker(self.root).exists(target)

    def sources(self, path: str) -> list[Source]:
        """Provenance of a memory: conversations, resources, images (existing or missing)."""
        with self._lock:
            return self._checks.sources(path)

    def read_transcript(self, path: str) -> Transcript:
        """A session transcript (`.jsonl`) of the workspace as a conversation.

        Raises PathOutsideWorkspace, or OSError (missing, not a regular file, too large)."""
        real = self.resolve(path)
        data, _st = read_regular(real, self.config.max_file_bytes, inside=str(self.root))
        return parse_transcript(data.decode("utf-8", errors="replace"))

    def stale_day_index(self, path: str) -> list[StaleEntry]:
        """Out-of-date entries of a day-index page (empty for any other memory)."""
        with self._lock:
            return self._checks.stale(path)

    def tag_fixes(self) -> dict[str, TagFix]:
        """The safe fix for every memory with agent junk tags, by path."""
        with self._lock:
            return self._checks.tag_fixes()

    def diagnostics(self) -> list[Diagnostic]:
        """Every problem found, per file in path order (scan, read, parse, dangling links).

        Worked out a slice of memories at a time under the index lock (`in_slices`, as an
        update is put in): at 50,000 memories the whole pass takes about a second, and a
        search typed meanwhile (the app counts them after every update) waited for all of
        it (issue 19)."""
        with self._lock:
            state = self._state
            found = [*state.scan_diagnostics, *state.failures.values()]
            paths = list(state.memories)
            tagging = self._checks.tagging()
        paths.sort()
        checks = self._checks
        context = checks.context_of(tagging)

        def check(path: str) -> None:
            found.extend(checks.diagnostics_of([path], context))

        in_slices(self._lock, paths, check)
        found.sort(key=lambda d: (d.path, d.line or 0))
        return found

    # -- search (search/) -------------------------------------------------------

    def allowed_paths(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[frozenset[str] | None, TagFilterInfo | None, list[str]]:
        """Paths passing ``filters`` (None = no filter), the tag info, warnings."""
        return self._search.allowed_paths(filters)

    def search(self, query: SearchQuery) -> SearchResponse:
        return self._search.search(query)

    def explain(self, path: str | os.PathLike[str], query: SearchQuery) -> Explanation:
        """Why the memory at ``path`` is returned by ``query``, or the stage that drops it."""
        return self._explainer.explain(path, query)

    def match_date_counts(self, text: str, filters: Filters = NO_FILTERS) -> Counter[str | None]:
        """How many chunks matching ``text`` under ``filters`` carry each date (None: undated)."""
        return self._search.match_date_counts(text, filters)

    def browse(self, filters: Filters = NO_FILTERS, *, limit: int = 200) -> list[Memory]:
        """Memories passing ``filters``, newest first (undated last, then by path)."""
        return self._search.browse(filters, limit=limit)

    # -- writes (the one door: write/door.py) ------------------------------------

    def _written(
        self, paths: Sequence[str], source: str, label: str, undo: str | None = None
    ) -> Delta | None:
        """Re-index what a write changed (when the index is built) and say what moved;
        with a history attached, the change is recorded under ``source`` and ``label``."""
        if not paths or not self.is_built:
            return None
        return self.apply(paths, source=source, label=label, undo=undo)

    def edit_tags(self, path: str, op: TagOp, expected: FileStamp | None = None) -> EditResult:
        """Apply a tag operation to memory ``path`` and re-index it (see WriteDoor)."""
        return self._writes.edit_tags(path, op, expected)

    def apply_fix(self, path: str, expected: FileStamp | None = None) -> EditResult:
        """The compatibility report's safe fix for memory ``path``, re-indexed."""
        return self._writes.apply_fix(path, expected)

    def plan_tag_fixes(
        self, paths: Iterable[str] | None = None
    ) -> tuple[list[PlannedFix], list[tuple[str, str]]]:
        """Dry run of the junk-tag fixes (all, or those of `paths`)."""
        return self._writes.plan_tag_fixes(paths)

    def apply_tag_fixes(self, plans: Iterable[PlannedFix]) -> tuple[list[FixOutcome], Delta]:
        """Write planned fixes (each refused if its file changed since the plan)."""
        return self._writes.apply_tag_fixes(plans)

    def merge(self, plan: MergePlan, *, data_dir: Path | None = None) -> MergeResult:
        """Write a planned tag merge (journaled first) and re-index the written files."""
        return self._writes.merge(plan, data_dir=data_dir)

    def undo_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> UndoResult | None:
        """Undo ``entry`` (default: the newest merge with something to undo)."""
        return self._writes.undo_merge(entry, data_dir=data_dir)

    def resume_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> MergeResult | None:
        """Finish the interrupted merge ``entry`` (default: the newest pending one)."""
        return self._writes.resume_merge(entry, data_dir=data_dir)

    def revert(self, plan: RevertPlan) -> tuple[RevertResult, Delta]:
        """Carry out a revert plan; what it wrote is re-indexed and recorded as one
        "revert" group of the history. The delta is also ``result.delta``."""
        result = self._writes.revert(plan)
        return result, result.delta or Delta()

    # -- semantic search (index/semantic.py) ---------------------------------------

    def attach_model(self, embedder: Embedder | None) -> None:
        """Search with `embedder` too (None: BM25 only); chunks are embedded in the background,
        reusing the saved vectors of the same model."""
        with self._lock:
            self._semantic.attach(embedder, list(self._state.memories.values()))

    def stop_embedding(self, timeout: float | None = None) -> bool:
        """Stop the background embedding thread for good (True once it has ended); search
        keeps the vectors embedded so far."""
        return self._semantic.stop(timeout)

    def load_model(self, name_or_path: str, *, allow_download: bool = False) -> str | None:
        """Load and attach a model2vec model; on failure stay BM25-only and return why."""
        embedder, error = try_load_model(name_or_path, allow_download=allow_download)
        if embedder is None:
            self._semantic.fail(name_or_path, error or "unknown error")
            return error
        self.attach_model(embedder)
        return None

    @property
    def embedder(self) -> Embedder | None:
        """The loaded model (also for tag-string similarity), or None."""
        return self._semantic.embedder

    def semantic_status(self) -> SemanticStatus:
        return self._semantic.status()

    @property
    def search_mode(self) -> str:
        """ "bm25", "hybrid", or either with the reason it is degraded, in parentheses."""
        return self._semantic.status().search_mode

    def wait_for_embeddings(self, timeout: float | None = None) -> bool:
        """Block until every chunk is embedded (True) or `timeout` passes (False)."""
        return self._semantic.wait(timeout)

    def add_embedding_listener(self, callback: ProgressCallback) -> None:
        """`callback(embedded, total)` chunks, called from the embedding thread."""
        self._semantic.add_listener(callback)

    def remove_embedding_listener(self, callback: ProgressCallback) -> None:
        self._semantic.remove_listener(callback)

    def similar(self, path: str, k: int = 5) -> list[SimilarMemory]:
        """The memories most similar to `path` that it neither links to nor is linked from."""
        with self._lock:
            links = self._state.links
            linked = {e.target for e in links.outlinks(path)}
            linked |= {e.source for e in links.inlinks(path)}
            found = self._semantic.similar(path, k, linked)
            memories = self._state.memories
            return [
                SimilarMemory(p, m.name, m.description, score)
                for p, score in found
                if (m := memories.get(p)) is not None
            ]

    def fingerprint(self) -> dict[str, object]:
        """Everything derived from files, in comparable form (equality with a rebuild)."""
        with self._lock:
            return self._state.fingerprint()
