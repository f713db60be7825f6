"""The facade the UI and the CLI share: open, apply(changes), search, tags, neighbours.

Why this module is long (~1,200 lines): it is the engine's one front door, and every
method is a short delegation to the room that does the work (``loader``, ``keyword``,
``tags``, ``links``, ``search``, ``semantic``, ``fileio``/``writes``, ``history``) plus the
locking that keeps those indexes consistent with each other. The sections (lifecycle,
incremental updates, change history, queries, writes, search, semantic search, equality
with a rebuild) share the lock and the index fields; split apart they would each need
the whole engine's state.
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .codes import Code
from .dates import date_bound
from .errors import EditError
from .files import (
    FileStamp,
    FoundFile,
    LinkMap,
    PathOutsideWorkspace,
    is_memory_path,
    read_regular,
    resolve_inside,
    resolves_inside,
    scan,
    to_relative,
)
from .history import ChangeHistory, HistoryError, Observed, RecordResult
from .index import (
    STATE_KEY,
    Embedder,
    IndexStore,
    KeywordIndex,
    LinkGraph,
    Reread,
    Semantic,
    SemanticStatus,
    SimilarMemory,
    Snapshot,
    StoreInvalid,
    code_fingerprint,
    collector_paused,
    load_all,
    now_ns,
    reread_one,
    try_load_model,
    worker_setting_problem,
)
from .parse import (
    DEFAULT_MAX_FILE_BYTES,
    ReadFailure,
    SetTags,
    TagOp,
    read_file,
    tokenize,
)
from .records import Chunk, Delta, Diagnostic, Memory
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
    MAX_LINKS_PER_DIRECTION,
    NO_FILTERS,
    Filters,
    NeighbourLink,
    Neighbours,
    PathFilter,
    Ranked,
    SearchError,
    SearchHit,
    SearchQuery,
    SearchResponse,
    TagFilterInfo,
    apply_cutoff,
    candidate_count,
    fuse,
    metadata_matches,
)
from .tags import (
    DEFAULT_TAG_FIELD,
    Order,
    OrderBy,
    TagError,
    TagFix,
    TagIndex,
    normalize_query_tags,
)
from .write import (
    EditResult,
    FixOutcome,
    Journal,
    MergePlan,
    MergeResult,
    PlannedFix,
    RevertPlan,
    RevertResult,
    UndoResult,
    carry_out,
    load_targets,
    plan_fixes,
)
from .write import apply_fix as write_safe_fix
from .write import apply_merge as merge_files
from .write import edit_tags as write_tag_edit
from .write import resume_merge as resume_files
from .write import undo_merge as undo_files

ProgressCallback = Callable[[int, int], None]

# Files put into the index per hold of the index lock while an `apply` lands: a search
# typed during a burst of thousands of changed files waits for one slice, not the burst.
_APPLY_SLICE = 32


def _let_readers_in() -> None:
    """Between slices: give up the GIL so a search waiting for the index lock takes it
    (a lock released and at once re-taken by the same thread is seldom handed over)."""
    time.sleep(0)


class WorkspaceError(RuntimeError):
    """The workspace itself is missing or unreadable."""


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


@dataclass(frozen=True, slots=True)
class BuildOutcome:
    """How `Engine.build` went: from the saved index (warm) or not, and whether the saved
    index is behind the files (only when the caller asked it not to save)."""

    warm: bool
    unsaved: bool


@dataclass(slots=True)
class _Update:
    """What one `apply` will change, worked out (files read and parsed) without the
    index lock: the files read again, then the known paths to drop."""

    rereads: dict[str, Reread | None] = field(default_factory=dict)
    forget: list[str] = field(default_factory=list)


def _stat_key(memory: Memory) -> tuple[int, int, int, int]:
    return (memory.size, memory.mtime_ns, memory.ino, memory.ctime_ns)


def _stat_matches(path: Path, memory: Memory, trust_before_ns: int) -> bool:
    """Whether a warm start may trust the saved record without reading the file: same
    size, mtime, inode and ctime, and not changed in the seconds before the save."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (
        (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns) == _stat_key(memory)
        and st.st_mtime_ns < trust_before_ns
        and st.st_ctime_ns < trust_before_ns
    )


_FILTER_CACHE_SIZE = 32


@dataclass(slots=True)
class _FilterResult:
    allowed: frozenset[str] | None
    info: TagFilterInfo | None
    warnings: tuple[str, ...]
    mask: np.ndarray | None = None


def _dir_identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class Engine:
    """In-process index over one workspace. Every public method is thread-safe."""

    def __init__(self, root: Path, config: EngineConfig | None = None) -> None:
        self.root = root
        self._root_identity = _dir_identity(root)
        self.config = config or EngineConfig()
        self._lock = threading.RLock()
        # One `apply` at a time: it reads the index without `_lock` while it prepares,
        # and only appliers change what it reads.
        self._apply_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._symlinks = LinkMap(root)
        self._root_real = os.path.realpath(root)
        self._memories: dict[str, Memory] = {}
        self._failures: dict[str, Diagnostic] = {}
        self._scan_diagnostics: list[Diagnostic] = []
        self._chunks: dict[tuple[str, int], Chunk] = {}
        self._keyword = KeywordIndex()
        self._tags = TagIndex()
        self._links = LinkGraph()
        self._dated: list[tuple[str, str]] = []  # sorted (date, path)
        self._undated: set[str] = set()
        self._store: IndexStore | None = None
        # Why the last save failed (None after a good one): shown by the CLI and the app.
        self.save_error: str | None = None
        self._stat_only_changes = False
        self._filter_cache: dict[Filters, _FilterResult] = {}
        self._frontmatter_keys: frozenset[str] | None = None
        self.is_built = False
        self._history: ChangeHistory | None = None
        self.last_record = RecordResult()
        self.history_error: str | None = None
        self._semantic = Semantic(self._lock)
        # Why this folder is the workspace (".reme found here"...), for the status bar.
        self.chosen_because: str | None = None
        self._checks = RemeChecks(
            self.root,
            self.config.layout,
            self.config.tag_field,
            self._memories,
            lambda: self._links,
            self._read_text_or_none,
            self.config.all_markdown,
        )
        self._semantic.on_complete = self.save

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

    def attach_store(self, store: IndexStore | None) -> None:
        """Persist the index there (None: never read nor write a saved index)."""
        self._store = store

    def build(
        self,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
        notice: Callable[[str], None] | None = None,
        *,
        save: bool = True,
    ) -> BuildOutcome:
        """Index every memory: from the saved index plus what changed since, when there is
        a usable one, else from scratch. Safe to call again (acts as a full refresh).
        ``notice`` hears what the user should know but that does not stop the build.

        With `save=False` nothing is written: the caller saves later (the app does it after
        showing the index) when the outcome says the saved index is behind."""
        problem = worker_setting_problem()
        if notice is not None and problem is not None:
            notice(problem)
        with collector_paused():
            return self._build(progress, cancel, notice, save=save)

    def _build(
        self,
        progress: ProgressCallback | None,
        cancel: threading.Event | None,
        notice: Callable[[str], None] | None,
        *,
        save: bool,
    ) -> BuildOutcome:
        if self._store is not None:
            try:
                snapshot = self._store.load(self._config_key())
            except StoreInvalid as invalid:
                if notice is not None and self._store.path.exists():
                    notice(f"{invalid}; rebuilding the index")
            else:
                try:
                    behind = self._warm_start(snapshot, progress)
                except StoreInvalid as invalid:
                    if notice is not None:
                        notice(f"{invalid}; rebuilding the index")
                else:
                    if behind and save:
                        behind = not self.save()
                        self._report_save(notice)
                    return BuildOutcome(warm=True, unsaved=behind)
        self._cold_build(progress, cancel)
        unsaved = self.is_built and self._store is not None
        if unsaved and save:
            unsaved = not self.save()
            self._report_save(notice)
        return BuildOutcome(warm=False, unsaved=unsaved)

    def _report_save(self, notice: Callable[[str], None] | None) -> None:
        if notice is not None and self.save_error is not None:
            notice(self.save_error)

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
        with self._lock:
            snapshot = Snapshot(
                config_key=self._config_key(),
                memories=list(self._memories.values()),
                keyword_state=self._keyword.export_state(),
                saved_at_ns=now_ns(),
                extras=self._semantic_extras(),
            )
        self._stat_only_changes = False
        try:
            saved = self._store.save(snapshot)
        except OSError as exc:
            self.save_error = (
                f"could not save the index to {self._store.directory}: {exc.strerror or exc}; "
                "the next start indexes from scratch"
            )
            return False
        self.save_error = None
        return saved  # False: another process holds the write lock and saves its own

    def _scan_all(self) -> tuple[list[FoundFile], list[Diagnostic]]:
        """Every memory on disk now, and what the scan could not follow or read."""
        diagnostics: list[Diagnostic] = []
        self._symlinks.clear()
        found = list(
            scan(
                self.root,
                all_markdown=self.config.all_markdown,
                on_diagnostic=diagnostics.append,
                on_symlink=self._symlinks.record,
                roots=self.config.memory_roots,
            )
        )
        return found, diagnostics

    def _warm_start(self, snapshot: Snapshot, progress: ProgressCallback | None) -> bool:
        """Restore the snapshot, then re-check only files whose stat moved (or is too recent
        to trust: a write in the same clock tick as the save is hashed, not trusted).
        True when the saved index is now behind the files."""
        found, scan_diagnostics = self._scan_all()
        trust_before = snapshot.saved_at_ns - 2_000_000_000
        delta = Delta()
        with self._apply_lock:
            with self._lock:
                self._restore(snapshot)
                self._scan_diagnostics = scan_diagnostics
            on_disk = {item.rel for item in found}
            update = _Update(forget=[p for p in self._memories if p not in on_disk])
            total = len(found)
            for done, item in enumerate(found, 1):
                old = self._memories.get(item.rel)
                if old is None or not _stat_matches(item.abs_path, old, trust_before):
                    self._plan_reread(item, update)
                if progress is not None and done % 200 == 0:
                    progress(done, total)
            self._commit(update, delta)
            with self._lock:
                self.is_built = True
        if progress is not None:
            progress(len(found), len(found))
        return not delta.is_empty or self._stat_only_changes

    def _restore(self, snapshot: Snapshot) -> None:
        """Load a snapshot into the indexes; StoreInvalid (nothing kept) when its parts do
        not fit together: the file is hostile input even when its checksum matches."""
        try:
            self._semantic.restore_state(snapshot.extras.get(STATE_KEY))
            self._reset()
            self._keyword = KeywordIndex.from_state(snapshot.keyword_state)
            memories = snapshot.memories
            if len({m.path for m in memories}) != len(memories):
                raise ValueError("a memory appears twice")
            self._links.load((m.path, m.links) for m in memories)
            for memory in memories:
                self._index(memory, keyword=False, links=False)
            # A chunk without tokens (only stopwords) has no keyword entry: subset, not equal.
            if not set(self._keyword.keys()) <= self._chunks.keys():
                raise ValueError("keyword index names chunks that do not exist")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            self._reset()
            raise StoreInvalid(f"saved index is inconsistent ({exc})") from None

    def _cold_build(
        self, progress: ProgressCallback | None, cancel: threading.Event | None
    ) -> None:
        found, scan_diagnostics = self._scan_all()
        parsed: list[Memory] = []
        failures: dict[str, Diagnostic] = {}
        # Postings are built batch by batch so each file's token lists are dropped as soon
        # as they are counted (holding them all roughly doubled peak memory).
        keyword = KeywordIndex()
        pending: list[tuple[tuple[str, int], list[str]]] = []
        for loaded in load_all(
            found,
            tag_field=self.config.tag_field,
            max_file_bytes=self.config.max_file_bytes,
            progress=progress,
            cancel=cancel,
        ):
            if loaded.memory is not None:
                parsed.append(loaded.memory)
                pending.extend(
                    ((c.path, c.start_line), chunk_tokens)
                    for c, chunk_tokens in zip(loaded.memory.chunks, loaded.tokens, strict=True)
                )
                if len(pending) >= 512:
                    keyword.add_many(pending)
                    pending = []
            elif loaded.failure is not None:
                failures[loaded.rel] = loaded.failure
        if cancel is not None and cancel.is_set():
            return
        keyword.add_many(pending)
        with self._lock:
            self._reset()
            self._keyword = keyword
            self._scan_diagnostics = scan_diagnostics
            self._failures = failures
            for memory in parsed:
                self._index(memory, keyword=False)
            self.is_built = True
        if progress is not None and not found:
            progress(0, 0)

    def _reset(self) -> None:
        self._filter_cache.clear()
        self._frontmatter_keys = None
        self._memories.clear()
        self._chunks.clear()
        self._keyword = KeywordIndex()
        self._tags = TagIndex()
        self._links = LinkGraph()
        self._dated = []
        self._undated = set()
        self._semantic.reset()

    # -- incremental updates -----------------------------------------------

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
        lock is released.

        Files are read and parsed without the index lock, then put in a slice at a time
        (`_APPLY_SLICE`): searches meanwhile see the batch partly applied, never wait
        for all of it. Measured at 10k memories, a 3,000-file burst: a search waited up
        to 4.9 s with the lock held throughout, 27-40 ms in slices (`make bench`).
        """
        delta = Delta()
        with self._apply_lock:
            update = self._plan_update(changes)
            if update is None:
                # Deleted, moved away, or moved away and replaced by another folder (a
                # watcher keeps following the old one): either way this index is done.
                delta.workspace_missing = True
                return delta
            self._commit(update, delta)
            if self._history is not None and not delta.is_empty:
                self._record(update, delta, source=source, label=label, undo=undo)
        return delta

    def _plan_update(self, changes: Iterable[str | os.PathLike[str]]) -> _Update | None:
        """Read and parse what changed, without the index lock (None: the workspace is gone)."""
        if not self.root.is_dir() or _dir_identity(self.root) != self._root_identity:
            return None
        update = _Update()
        gone: set[str] = set()
        rescanned: dict[str, set[str]] = {}
        for rel in self._with_symlinks(changes):
            abs_path = self.root / rel if rel else self.root
            if not rel or abs_path.is_dir():
                if abs_path.is_symlink() and not resolves_inside(self._root_real, abs_path):
                    gone.add(rel)  # a symlinked directory leading outside: not followed
                else:
                    rescanned[rel] = self._rescan_dir(rel, update)
            elif is_memory_path(
                rel, all_markdown=self.config.all_markdown, roots=self.config.memory_roots
            ) and (abs_path.is_file()):
                found = self._find_single(rel)
                if found is not None:
                    self._plan_reread(found, update)
                else:
                    gone.add(rel)
            else:
                gone.add(rel)
        update.forget = self._paths_to_forget(gone, rescanned, update)
        return update

    def _plan_reread(self, item: FoundFile, update: _Update) -> None:
        if item.rel not in update.rereads:
            update.rereads[item.rel] = reread_one(
                item,
                self._memories.get(item.rel),
                self.config.tag_field,
                self.config.max_file_bytes,
                self._root_real,
            )

    def _commit(self, update: _Update, delta: Delta) -> None:
        """Put a planned update into the index, a slice at a time."""
        steps: list[Reread | str] = [r for r in update.rereads.values() if r is not None]
        steps += update.forget
        for start in range(0, len(steps), _APPLY_SLICE):
            if start:
                _let_readers_in()
            with self._lock:
                for step in steps[start : start + _APPLY_SLICE]:
                    if isinstance(step, str):
                        self._forget(step, delta)
                    else:
                        self._put(step, delta)

    def _record(
        self, update: _Update, delta: Delta, *, source: str, label: str, undo: str | None
    ) -> None:
        """Record one apply's changes in the history as one group, outside the index lock."""
        assert self._history is not None
        observed = {
            r.rel: Observed(r.rel, r.data, r.memory.tags, r.memory.name)
            for r in update.rereads.values()
            if r is not None and r.memory is not None and r.content_changed
        }
        for path in delta.removed:
            observed.setdefault(path, Observed(path, None))
        try:
            self.last_record = self._history.record(
                [observed[p] for p in sorted(observed)], source=source, label=label, undo=undo
            )
        except HistoryError as error:
            # The index must follow the files even when the history cannot.
            self.history_error = str(error)
            self.last_record = RecordResult()

    def is_link_target(self, path: str | os.PathLike[str]) -> bool:
        """Whether a change at ``path`` (absolute) may change a symlinked memory or folder:
        the watcher passes such paths on even when they are not memories themselves.
        Lock-free (the watcher's filter runs on the app's event loop): it reads a copy."""
        return self._symlinks.touches(path)

    def _with_symlinks(self, changes: Iterable[str | os.PathLike[str]]) -> list[str]:
        """The changed paths (relative, inside), then every symlink whose target they
        touch: the watcher reports the target, a cold build would see the link change."""
        out: dict[str, None] = {}
        for change in changes:
            try:
                out[to_relative(self.root, change)] = None
            except PathOutsideWorkspace:
                continue
        for rel in list(out):
            for link in sorted(self._symlinks.affected(rel)):
                out.setdefault(link, None)
        return list(out)

    def _rescan_dir(self, rel: str, update: _Update) -> set[str]:
        seen: set[str] = set()
        for item in scan(
            self.root,
            start=rel,
            all_markdown=self.config.all_markdown,
            on_symlink=self._symlinks.record,
            roots=self.config.memory_roots,
        ):
            seen.add(item.rel)
            self._plan_reread(item, update)
        return seen

    def _paths_to_forget(
        self, gone: set[str], rescanned: dict[str, set[str]], update: _Update
    ) -> list[str]:
        """One pass over known paths: those at or under a gone path, or under a rescanned
        directory without having been seen by its scan, or that are now themselves a
        directory (a file replaced by a folder of the same name)."""
        if not gone and not rescanned:
            return []
        forget: list[str] = []
        for path in dict.fromkeys([*self._memories, *self._failures, *update.rereads]):
            if path in gone or path in rescanned:
                forget.append(path)
                continue
            parts = path.split("/")
            for depth in range(len(parts) - 1, -1, -1):
                prefix = "/".join(parts[:depth])
                if depth and prefix in gone:
                    forget.append(path)
                    break
                seen = rescanned.get(prefix)
                if seen is not None:
                    if path not in seen:
                        forget.append(path)
                    break
        return forget

    def _find_single(self, rel: str) -> FoundFile | None:
        """The file as a scan would see it (symlink policy included), or None."""
        abs_path = self.root / rel
        if abs_path.is_symlink() and not resolves_inside(os.path.realpath(self.root), abs_path):
            return None
        if any(p.is_symlink() for p in abs_path.parents if self.root in p.parents):
            parent, _, _ = rel.rpartition("/")
            for item in scan(
                self.root,
                start=parent,
                all_markdown=self.config.all_markdown,
                roots=self.config.memory_roots,
            ):
                if item.rel == rel:
                    return item
            return None
        return FoundFile(rel, abs_path)

    def _put(self, reread: Reread, delta: Delta) -> None:
        """One file read again, into the index (under the lock)."""
        rel = reread.rel
        if reread.memory is None:
            assert reread.failure is not None
            self._forget(rel, delta)
            self._failures[rel] = reread.failure
            return
        self._failures.pop(rel, None)
        if not reread.content_changed:
            self._memories[rel] = reread.memory
            self._stat_only_changes = True
            return
        old = self._memories.get(rel)
        if old is not None:
            delta.tags_moved |= self._unindex(rel)
        delta.tags_moved |= self._index(reread.memory, tokens=reread.tokens)
        (delta.changed if old is not None else delta.added).append(rel)

    def _forget(self, rel: str, delta: Delta) -> None:
        self._failures.pop(rel, None)
        if rel in self._memories:
            delta.tags_moved |= self._unindex(rel)
            delta.removed.append(rel)

    def _index(
        self,
        memory: Memory,
        *,
        keyword: bool = True,
        links: bool = True,
        tokens: Sequence[list[str]] | None = None,
    ) -> set[str]:
        self._filter_cache.clear()
        self._frontmatter_keys = None
        path = memory.path
        self._memories[path] = memory
        for chunk in memory.chunks:
            self._chunks[(path, chunk.start_line)] = chunk
        if keyword:
            if tokens is None:
                tokens = [tokenize(c.text) for c in memory.chunks]
            self._keyword.replace_path(
                path,
                [((path, c.start_line), t) for c, t in zip(memory.chunks, tokens, strict=True)],
            )
        if links:
            self._links.set_file(path, list(memory.links))
        if memory.date is None:
            self._undated.add(path)
        else:
            bisect.insort(self._dated, (memory.date, path))
        self._semantic.add(memory)
        return self._tags.set_file(path, memory.tags)

    def _unindex(self, path: str) -> set[str]:
        self._filter_cache.clear()
        self._frontmatter_keys = None
        memory = self._memories.pop(path)
        for chunk in memory.chunks:
            self._chunks.pop((path, chunk.start_line), None)
        self._keyword.remove_path(path)
        self._semantic.remove(path)
        self._links.remove_file(path)
        if memory.date is None:
            self._undated.discard(path)
        else:
            index = bisect.bisect_left(self._dated, (memory.date, path))
            if index < len(self._dated) and self._dated[index] == (memory.date, path):
                del self._dated[index]
        return self._tags.remove_file(path)

    # -- change history (engine/history/database.py) ----------------------------------

    def attach_history(self, history: ChangeHistory | None) -> None:
        """Record every change `apply` sees into `history` (None: record nothing)."""
        self._history = history
        self.last_record = RecordResult()

    @property
    def history(self) -> ChangeHistory | None:
        return self._history

    def sync_history(self, source: str = "start") -> RecordResult:
        """Record what changed since the history last looked (the first time: a silent
        baseline). Only files whose content hash differs from the recorded one are read."""
        history = self._history
        if history is None or not self.is_built:
            return RecordResult()
        with self._lock:
            now = {p: (m.content_hash, m.tags, m.name) for p, m in self._memories.items()}
        if not history.has_baseline:
            history.record_baseline(self._observe(p, *now[p][1:]) for p in sorted(now))
            return RecordResult()
        recorded = history.current()
        touched = sorted(
            {p for p, (h, _, _) in now.items() if recorded.get(p) != h}
            | {p for p in recorded if p not in now}
        )
        observed = [
            self._observe(p, *now[p][1:]) if p in now else Observed(p, None) for p in touched
        ]
        return history.record(observed, source=source)

    def revert(self, plan: RevertPlan) -> tuple[RevertResult, Delta]:
        """Carry out a revert plan (see engine/write/revert.py); what it wrote is re-indexed and
        recorded as one "revert" group of the history."""
        result = RevertResult()
        if self._history is None:
            result.refused = [(s.path, "no change history is attached") for s in plan.steps]
            return result, Delta()
        try:
            blobs = load_targets(self._history, plan.steps)
        except HistoryError as error:
            result.refused = [(s.path, str(error)) for s in plan.steps]
            return result, Delta()
        for step in plan.steps:
            data = blobs.get(step.target) if step.target else None
            why = carry_out(self.root, step, data, self._write_roots())
            if why is None:
                result.written.append(step.path)
            else:
                result.refused.append((step.path, why))
        delta = Delta()
        if result.written:
            delta = self.apply(result.written, source="revert", label=plan.label)
        return result, delta

    def _observe(self, rel: str, tags: tuple[str, ...], name: str | None) -> Observed:
        try:
            raw = read_file(
                self.root / rel, rel, self.config.max_file_bytes, inside=self._root_real
            )
        except ReadFailure:
            return Observed(rel, None)
        return Observed(rel, raw.data, tags, name)

    # -- queries -------------------------------------------------------------

    @property
    def memory_count(self) -> int:
        return len(self._memories)

    @property
    def chunk_count(self) -> int:
        return len(self._chunks)

    def memory(self, path: str) -> Memory | None:
        return self._memories.get(path)

    def paths(self) -> list[str]:
        with self._lock:
            return sorted(self._memories)

    def read_text(self, path: str) -> str:
        """Current text of a memory (UTF-8 with replacement, newlines normalized).

        Read through the containment check: a path whose real file is outside the
        workspace (a symlink swapped in since the scan) raises ReadFailure, as does a
        FIFO, device or oversized file."""
        from .parse import decode_text

        rel = to_relative(self.root, path)
        try:
            real = self.resolve(rel)
        except PathOutsideWorkspace:
            message = "resolves outside the workspace; not read"
            raise ReadFailure(Diagnostic(rel, None, Code.SYMLINK_OUTSIDE, message)) from None
        raw = read_file(real, rel, self.config.max_file_bytes, inside=self._root_real)
        return decode_text(raw.data)[0]

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path of workspace path ``path``; PathOutsideWorkspace when it (or any
        symlink on the way) leads outside the workspace. Every read of a workspace path
        (preview, editor, watcher) goes through here."""
        return resolve_inside(self.root, path)

    # -- writes (the one door: every write goes through fileio.rewrite_memory) --------

    def _written(
        self, paths: Iterable[str], source: str, label: str, undo: str | None = None
    ) -> Delta | None:
        """Re-index what a write changed (when the index is built) and say what moved;
        with a history attached, the change is recorded under ``source`` and ``label``."""
        paths = list(paths)
        if not paths or not self.is_built:
            return None
        return self.apply(paths, source=source, label=label, undo=undo)

    def _write_roots(self) -> tuple[str, ...] | None:
        """Where memories may be written: the memory folders (None: any .md, --all-markdown)."""
        return None if self.config.all_markdown else tuple(self.config.memory_roots)

    def edit_tags(self, path: str, op: TagOp, expected: FileStamp | None = None) -> EditResult:
        """Apply a tag operation to memory ``path`` and re-index it.

        Raises EditError: ConflictError when the file changed since ``expected``,
        PathRefused outside the workspace, ReadOnlyFile for 0444 files,
        UnsafeEditError when the frontmatter cannot be edited safely, InvalidTag."""
        with self._write_lock:
            result = write_tag_edit(
                self.root, path, op, expected, self.config.tag_field, self._write_roots()
            )
            changed = [path] if result.changed else []
            return replace(result, delta=self._written(changed, "edit", f"tags of {path}"))

    def apply_fix(self, path: str, expected: FileStamp | None = None) -> EditResult:
        """The compatibility report's safe fix for memory ``path``, re-indexed."""
        with self._write_lock:
            result = write_safe_fix(
                self.root, path, expected, self.config.tag_field, self._write_roots()
            )
            changed = [path] if result.changed else []
            return replace(result, delta=self._written(changed, "edit", f"safe fix of {path}"))

    def merge(self, plan: MergePlan, *, data_dir: Path | None = None) -> MergeResult:
        """Write a planned tag merge (journaled first) and re-index the written files."""
        with self._write_lock:
            result = merge_files(plan, data_dir=data_dir)
            label = f"merge {', '.join(plan.sources)} into {plan.into}"
            result.delta = self._written(result.written, "merge", label, result.journal_id)
            return result

    def undo_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> UndoResult | None:
        """Undo ``entry`` (default: the newest merge with something to undo, an
        interrupted one included) and re-index; None when there is nothing to undo.
        Raises JournalCorrupt when a newer journal entry cannot be read."""
        with self._write_lock:
            if entry is None:
                entry = Journal(self.root, data_dir).last_undoable()
                if entry is None:
                    return None
            result = undo_files(entry, self.root, data_dir=data_dir, roots=self._write_roots())
            label = f"undo merge into {entry.get('into', '?')}"
            result.delta = self._written(result.restored, "undo", label)
            return result

    def resume_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> MergeResult | None:
        """Finish the interrupted merge ``entry`` (default: the newest pending one) and
        re-index; None when no merge was interrupted."""
        with self._write_lock:
            if entry is None:
                entry = Journal(self.root, data_dir).last_pending()
                if entry is None:
                    return None
            result = resume_files(
                entry, self.root, data_dir=data_dir, roots=self._write_roots()
            )
            label = f"resumed merge into {entry.get('into', '?')}"
            result.delta = self._written(result.written, "merge", label, result.journal_id)
            return result

    def tokenize_query(self, text: str) -> list[str]:
        return tokenize(text)

    def list_tags(
        self, order_by: OrderBy = "file_count", order: Order | None = None
    ) -> list[tuple[str, int]]:
        with self._lock:
            return self._tags.list_tags(order_by, order)

    def tags_of(self, path: str) -> tuple[str, ...]:
        return self._tags.tags_of(path)

    def files_with_tag(self, tag: str) -> frozenset[str]:
        with self._lock:
            return self._tags.files_with(tag)

    def neighbours(self, path: str, limit: int | None = None) -> Neighbours:
        with self._lock:
            outs = self._links.outlinks(path)
            ins = self._links.inlinks(path)
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

    def frontmatter_keys(self) -> frozenset[str]:
        """Every top-level frontmatter key used in the workspace (for `key:value` queries)."""
        with self._lock:
            if self._frontmatter_keys is None:
                keys: set[str] = set()
                for memory in self._memories.values():
                    keys.update(memory.frontmatter)
                self._frontmatter_keys = frozenset(keys)
            return self._frontmatter_keys

    def is_source(self, target: str) -> bool:
        """A link target that is an existing file of the workspace but not a memory."""
        return target not in self._memories and SourceChecker(self.root).exists(target)

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

    def plan_tag_fixes(
        self, paths: Iterable[str] | None = None
    ) -> tuple[list[PlannedFix], list[tuple[str, str]]]:
        """Dry run of the junk-tag fixes (all, or those of `paths`): plans with diffs, and
        the files that cannot be fixed with why."""
        fixes = self.tag_fixes()
        wanted = fixes.values() if paths is None else [fixes[p] for p in paths if p in fixes]
        return plan_fixes(self.root, wanted, self.config.tag_field, self._write_roots())

    def apply_tag_fixes(self, plans: Iterable[PlannedFix]) -> tuple[list[FixOutcome], Delta]:
        """Write planned fixes through `edit_tags` (each refused if its file changed since
        the plan) and return what each did and the merged re-index delta."""
        outcomes: list[FixOutcome] = []
        delta = Delta()
        for plan in plans:
            try:
                result = self.edit_tags(plan.path, SetTags(plan.fix.new), expected=plan.stamp)
            except EditError as exc:
                outcomes.append(FixOutcome(plan.path, False, str(exc)))
                continue
            except OSError as exc:
                outcomes.append(FixOutcome(plan.path, False, exc.strerror or str(exc)))
                continue
            outcomes.append(FixOutcome(plan.path, result.changed, None))
            if result.delta is not None:
                delta.added += result.delta.added
                delta.changed += result.delta.changed
                delta.removed += result.delta.removed
                delta.tags_moved |= result.delta.tags_moved
        return outcomes, delta

    def _read_text_or_none(self, path: str) -> str | None:
        try:
            return self.read_text(path)
        except (ReadFailure, PathOutsideWorkspace, OSError):
            return None

    def _neighbour(self, path: str, anchors: tuple[str, ...]) -> NeighbourLink:
        memory = self._memories.get(path)
        return NeighbourLink(
            path=path,
            name=memory.name if memory else None,
            description=memory.description if memory else None,
            anchors=anchors,
        )

    def diagnostics(self) -> list[Diagnostic]:
        """Every problem found, per file in path order (scan, read, parse, dangling links)."""
        with self._lock:
            found: list[Diagnostic] = list(self._scan_diagnostics)
            found.extend(self._failures.values())
            checker = SourceChecker(self.root)
            known = self._checks.preferred_spellings()
            for path in sorted(self._memories):
                memory = self._memories[path]
                found.extend(memory.diagnostics)
                found.extend(self._checks.diagnostics(path, checker, known))
            found.sort(key=lambda d: (d.path, d.line or 0))
            return found

    # -- search --------------------------------------------------------------

    def allowed_paths(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[frozenset[str] | None, TagFilterInfo | None, list[str]]:
        """Paths passing ``filters`` (None = no filter), the tag info, warnings.

        Cached per filter until the next change to the index: while a person types, the
        filters stay the same and only the query text moves.
        """
        with self._lock:
            cached = self._filter_cache.get(filters)
            if cached is None:
                if len(self._filter_cache) >= _FILTER_CACHE_SIZE:
                    # Typing dates makes many short-lived filters; keep only the recent ones.
                    del self._filter_cache[next(iter(self._filter_cache))]
                cached = self._filter_cache[filters] = self._compute_allowed(filters)
            return cached.allowed, cached.info, list(cached.warnings)

    def _allowed_mask(self, key_allowed: frozenset[str] | None) -> np.ndarray | None:
        if key_allowed is None:
            return None
        for cached in self._filter_cache.values():
            if cached.allowed is key_allowed:
                if cached.mask is None:
                    cached.mask = self._keyword.path_mask(key_allowed)
                return cached.mask
        return self._keyword.path_mask(key_allowed)

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
        with self._lock:
            allowed: set[str] | None = None
            info: TagFilterInfo | None = None
            if wanted or excluded:
                if wanted:
                    allowed = (
                        self._tags.files_all(wanted)
                        if filters.all_tags
                        else self._tags.files_any(wanted)
                    )
                else:
                    allowed = set(self._memories)
                if excluded:
                    allowed -= self._tags.files_any(excluded)
                info = TagFilterInfo(
                    tags=wanted,
                    mode="all" if filters.all_tags else "any",
                    exclude=excluded,
                    matched_paths=len(allowed),
                )
            if start or end:
                by_date = self._paths_in_range(start, end, include_undated=not filters.strict_dates)
                allowed = by_date if allowed is None else allowed & by_date
            if filters.paths or filters.path_prefixes or filters.meta:
                allowed = self._reme_filtered(filters, allowed)
            if filters.meta and not self.config.layout.include_frontmatter_in_metadata:
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
        layout = self.config.layout
        candidates = self._memories.keys() if allowed is None else allowed
        return {
            path
            for path in candidates
            if by_path.matches(path)
            and (memory := self._memories.get(path)) is not None
            and metadata_matches(
                filters.meta,
                memory.frontmatter,
                layout.include_frontmatter_in_metadata,
                layout.frontmatter_keys_in_metadata,
            )
        }

    def _paths_in_range(
        self, start: str | None, end: str | None, include_undated: bool
    ) -> set[str]:
        lo = bisect.bisect_left(self._dated, (start, "")) if start else 0
        hi = bisect.bisect_right(self._dated, (end, "\uffff")) if end else len(self._dated)
        paths = {path for _, path in self._dated[lo:hi]}
        if include_undated:
            paths |= self._undated
        return paths

    def search(self, query: SearchQuery) -> SearchResponse:
        text = (query.text or "").strip()
        if not text:
            raise SearchError("query cannot be empty")
        if query.limit <= 0:
            raise SearchError(f"limit must be positive, got {query.limit}")
        allowed, info, warnings = self.allowed_paths(query.filters)
        tokens = tokenize(text)
        candidates = candidate_count(query.limit)
        query_vec, vector_error = self._semantic.encode_query(text)
        if vector_error is not None:
            warnings.append(
                f"the vector search failed for this query ({vector_error}); keyword results only"
            )
        with self._lock:
            if allowed is not None and not allowed:
                keyword = []
            else:
                keyword = self._keyword.top_k(
                    tokens, candidates, allowed_mask=self._allowed_mask(allowed)
                )
            vector = (
                []
                if allowed is not None and not allowed
                else (self._semantic.top_k(query_vec, candidates, allowed))
            )
            semantic_warning = self._semantic.warning()
            if semantic_warning:
                warnings.append(semantic_warning)
            ranked = apply_cutoff(
                fuse(keyword, vector, query.vector_weight), query.min_score, query.limit
            )
            checker = SourceChecker(self.root)
            hits = [self._hit(r, tokens, checker) for r in ranked]
            links: dict[str, Neighbours] = {}
            if query.expand_links:
                for path in dict.fromkeys(h.path for h in hits):
                    links[path] = self.neighbours(path, limit=MAX_LINKS_PER_DIRECTION)
        return SearchResponse(
            query=text,
            hits=hits,
            tag_filter=info,
            links=links,
            counts={
                "keyword": len(keyword),
                "vector": len(vector),
                "returned": len(hits),
                "hybrid": bool(keyword) and bool(vector),
            },
            warnings=warnings,
            query_tokens=tokens,
            vector_error=vector_error,
        )

    def _hit(
        self, ranked: Ranked, tokens: Sequence[str], checker: SourceChecker
    ) -> SearchHit:
        path, start = ranked.key
        chunk = self._chunks[ranked.key]
        memory = self._memories[path]
        matched = self._keyword.terms_in(ranked.key, tokens)
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

    def match_dates(self, text: str, filters: Filters = NO_FILTERS) -> list[str | None]:
        """The date of every chunk whose words match ``text`` under ``filters`` (all of
        them, not a top k): how many matches there are, and when they were written."""
        allowed, _info, _warnings = self.allowed_paths(filters)
        if allowed is not None and not allowed:
            return []
        tokens = tokenize(text)
        with self._lock:
            keys = self._keyword.matching_keys(tokens, allowed_mask=self._allowed_mask(allowed))
            memories = self._memories
            return [m.date if (m := memories.get(path)) else None for path, _start in keys]

    def browse(self, filters: Filters = NO_FILTERS, *, limit: int = 200) -> list[Memory]:
        """Memories passing ``filters``, newest first (undated last, then by path)."""
        allowed, _info, _warnings = self.allowed_paths(filters)
        with self._lock:
            paths = self._memories.keys() if allowed is None else allowed
            memories = [self._memories[p] for p in paths if p in self._memories]
        memories.sort(key=lambda m: m.path)
        memories.sort(key=lambda m: m.date or "", reverse=True)
        return memories[:limit]

    # -- semantic search (the bulk lives in semantic.py) -----------------------

    def attach_model(self, embedder: Embedder | None) -> None:
        """Search with `embedder` too (None: BM25 only); chunks are embedded in the background,
        reusing the saved vectors of the same model."""
        with self._lock:
            self._semantic.attach(embedder, list(self._memories.values()))

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
            linked = {e.target for e in self._links.outlinks(path)}
            linked |= {e.source for e in self._links.inlinks(path)}
            found = self._semantic.similar(path, k, linked)
            return [
                SimilarMemory(p, m.name, m.description, score)
                for p, score in found
                if (m := self._memories.get(p)) is not None
            ]

    def _semantic_extras(self) -> dict[str, object]:
        state = self._semantic.export_state(lambda: (c.text for c in self._chunks.values()))
        return {} if state is None else {STATE_KEY: state}

    # -- equality with a rebuild (tests, store checks) -------------------------

    def fingerprint(self) -> dict[str, object]:
        """Everything derived from files, in comparable form."""
        with self._lock:
            return {
                "memories": {p: m.content_hash for p, m in self._memories.items()},
                "tags": self._tags.snapshot(),
                "links": self._links.snapshot(),
                "chunks": sorted(self._chunks),
                "keyword_docs": sorted(self._keyword.keys()),
                "dated": list(self._dated),
                "undated": sorted(self._undated),
                "failures": sorted(self._failures),
            }
