"""The index state: every index derived from the files, kept consistent with each other.

One memory goes in (`index`) or out (`unindex`) of all of them at once: the memories and
their chunks, BM25 postings, the tag index, the link graph, the date list, and the
semantic vectors. Not locked itself: the Engine holds its lock around every change and
every read that needs a consistent view. ``generation`` moves on every change, so caches
built over the state (the search filters, the frontmatter keys) know when to drop.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..parse import tokenize
from ..records import Chunk, Delta, Diagnostic, DocKey, Memory
from ..tags import TagIndex
from .key_tally import KeyTally
from .keyword import KeywordIndex
from .link_graph import LinkGraph
from .loader import Reread
from .semantic import STATE_KEY, Semantic
from .sharing import StringPool, paths_in, share_all
from .store import Snapshot, StoreInvalid


@dataclass(slots=True)
class Update:
    """What one change of the workspace will do, worked out (files read and parsed) before
    the index is touched: the files read again, then the known paths to drop."""

    rereads: dict[str, Reread | None] = field(default_factory=dict)
    forget: list[str] = field(default_factory=list)


# Touched paths kept before the log starts over (a reader then rebuilds what it derives).
TOUCHED_LIMIT = 1 << 16


class IndexState:
    """Memories, chunks, keyword postings, tags, links, dates and vectors, together."""

    def __init__(self, semantic: Semantic) -> None:
        self.semantic = semantic
        self.memories: dict[str, Memory] = {}
        self.failures: dict[str, Diagnostic] = {}
        self.scan_diagnostics: list[Diagnostic] = []
        self.chunk_count = 0  # a memory's chunks are its own (`chunk` finds one by key)
        self.keyword = KeywordIndex()
        self.tags = TagIndex()
        self.links = LinkGraph()
        self.dated: list[tuple[str, str]] = []  # sorted (date, path)
        self.undated: set[str] = set()
        self.generation = 0
        self.built = False  # a build has filled it (the app shows the screen before)
        # A file whose stat moved but whose bytes did not: the saved index is behind.
        self.stat_only_changes = False
        self._frontmatter_keys: tuple[int, frozenset[str]] | None = None
        self._strings = StringPool()  # equal strings of the records held once
        # The paths indexed or taken out, in order, since `touched_epoch` began: tables
        # derived from the memories (the match count's dates) catch up from where they
        # last read instead of walking every memory again after each change (issue 19).
        self.touched: list[str] = []
        self.touched_epoch = 0
        self._key_tally = KeyTally()

    def reset(self) -> None:
        self.generation += 1
        self._restart_touched()
        self.memories.clear()
        self.chunk_count = 0
        self.keyword = KeywordIndex()
        self.tags = TagIndex()
        self.links = LinkGraph()
        self.dated = []
        self.undated = set()
        self._strings.clear()
        self.semantic.reset()

    # -- one memory in, one memory out ---------------------------------------

    def index(
        self,
        memory: Memory,
        *,
        keyword: bool = True,
        links: bool = True,
        tokens: Sequence[list[str]] | None = None,
        shared: bool = False,
    ) -> set[str]:
        """Put ``memory`` into every index; returns the tags whose file counts moved.
        ``shared``: its strings are already the pooled ones (`share_all`)."""
        self.generation += 1
        if not shared:
            self._strings.share(memory, paths_in(self.memories))
        path = memory.path
        self._touch(path)
        self.memories[path] = memory
        self.chunk_count += len(memory.chunks)
        if keyword:
            if tokens is None:
                tokens = [tokenize(c.text) for c in memory.chunks]
            self.keyword.replace_path(
                path,
                [((path, c.start_line), t) for c, t in zip(memory.chunks, tokens, strict=True)],
            )
        if links:
            self.links.set_file(path, memory.links)
        if memory.date is None:
            self.undated.add(path)
        else:
            bisect.insort(self.dated, (memory.date, path))
        self.semantic.add(memory)
        return self.tags.set_file(path, memory.tags)

    def unindex(self, path: str) -> set[str]:
        """Take the memory at ``path`` out of every index; returns the tags that moved."""
        self.generation += 1
        memory = self.memories.pop(path)
        self._touch(path)
        self.chunk_count -= len(memory.chunks)
        self.keyword.remove_path(path)
        self.semantic.remove(path)
        self.links.remove_file(path)
        if memory.date is None:
            self.undated.discard(path)
        else:
            index = bisect.bisect_left(self.dated, (memory.date, path))
            if index < len(self.dated) and self.dated[index] == (memory.date, path):
                del self.dated[index]
        return self.tags.remove_file(path)

    def put(self, reread: Reread, delta: Delta) -> None:
        """One file read again, into the index."""
        rel = reread.rel
        if reread.memory is None:
            assert reread.failure is not None
            self.forget(rel, delta)
            self.failures[rel] = reread.failure
            return
        self.failures.pop(rel, None)
        if not reread.content_changed:
            self.memories[rel] = reread.memory
            self.stat_only_changes = True
            return
        # Shared while the old version is still in: the new one keeps the path others link by.
        self._strings.share(reread.memory, paths_in(self.memories))
        old = self.memories.get(rel)
        if old is not None:
            delta.tags_moved |= self.unindex(rel)
        delta.tags_moved |= self.index(reread.memory, tokens=reread.tokens, shared=True)
        (delta.changed if old is not None else delta.added).append(rel)

    def forget(self, rel: str, delta: Delta) -> None:
        self.failures.pop(rel, None)
        if rel in self.memories:
            delta.tags_moved |= self.unindex(rel)
            delta.removed.append(rel)

    def steps(self, update: Update) -> list[Reread | str]:
        """An update as steps for `apply_step`: the files read again, then those to drop."""
        steps: list[Reread | str] = [r for r in update.rereads.values() if r is not None]
        steps += update.forget
        return steps

    def apply_step(self, step: Reread | str, delta: Delta) -> None:
        if isinstance(step, str):
            self.forget(step, delta)
        else:
            self.put(step, delta)

    def _touch(self, path: str) -> None:
        if len(self.touched) >= TOUCHED_LIMIT:
            self._restart_touched()  # readers start over from the whole state
        self.touched.append(path)

    def _restart_touched(self) -> None:
        self.touched = []
        self.touched_epoch += 1

    def touched_bookmark(self) -> tuple[int, int]:
        """Where the touched log is now: hand it to `touched_since` later."""
        return self.touched_epoch, len(self.touched)

    def touched_since(self, bookmark: tuple[int, int] | None) -> list[str] | None:
        """The paths indexed or taken out since ``bookmark`` (repeats kept), or None when
        the log started over since then (or there is no bookmark): a reader that derives
        a table from the memories then works it out from all of them again."""
        if bookmark is None:
            return None
        epoch, read = bookmark
        if epoch != self.touched_epoch or read > len(self.touched):
            return None
        return self.touched[read:]

    # -- whole states: a cold build's result, a saved index -------------------

    def install(
        self,
        keyword: KeywordIndex,
        memories: Sequence[Memory],
        failures: dict[str, Diagnostic],
        scan_diagnostics: list[Diagnostic],
        strings: StringPool | None = None,
    ) -> None:
        """Replace everything with a cold build's result (postings already counted).
        ``strings``: the pool its memories were made to share with as they came."""
        self.reset()
        self.keyword = keyword
        self.scan_diagnostics = scan_diagnostics
        self.failures = failures
        if strings is None:
            share_all(self._strings, list(memories))  # links to memories indexed later too
        else:
            self._strings = strings
        for memory in memories:
            self.index(memory, keyword=False, shared=True)

    def restore(self, snapshot: Snapshot) -> None:
        """Load a saved index; StoreInvalid (nothing kept) when its parts do not fit
        together: the file is hostile input even when its checksum matches."""
        # The snapshot lets go of what it held as it goes in: the index takes its posting
        # arrays without copying them, and a snapshot kept through the warm start's
        # rereads would hold them and the memories they replace.
        memories, snapshot.memories = snapshot.memories, []
        keyword_state, snapshot.keyword_state = snapshot.keyword_state, {}
        try:
            self.semantic.restore_state(snapshot.extras.get(STATE_KEY))
            self.reset()
            if snapshot.strings is None:
                by_path = share_all(self._strings, memories)
            else:  # shared as they were decoded
                self._strings, by_path = snapshot.strings, {m.path: m for m in memories}
            if len(by_path) != len(memories):
                raise ValueError("a memory appears twice")
            if isinstance(paths := keyword_state.get("paths"), list):
                keyword_state["paths"] = [
                    m.path if isinstance(p, str) and (m := by_path.get(p)) else p for p in paths
                ]
            self.keyword = KeywordIndex.from_state(keyword_state)
            del keyword_state
            self.memories.update(by_path)  # the same dict: others hold it
            del by_path
            # What `index` does one memory at a time, for all of them at once (a 50k warm
            # start spent 0.3 s in the per-memory calls).
            self.links.load([(m.path, m.links) for m in memories])
            self.chunk_count = sum(len(m.chunks) for m in memories)
            self.tags.load((m.path, m.tags) for m in memories)
            self.dated = sorted((m.date, m.path) for m in memories if m.date is not None)
            self.undated = {m.path for m in memories if m.date is None}
            for memory in memories:
                self.semantic.add(memory)
            self.generation += 1
            # A chunk without tokens (only stopwords) has no keyword entry: subset, not equal.
            indexed = self.keyword.keys()
            if not all(self.chunk(key) is not None for key in indexed):
                raise ValueError("keyword index names chunks that do not exist")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            self.reset()
            raise StoreInvalid(f"saved index is inconsistent ({exc})") from None

    # -- reads ----------------------------------------------------------------

    def chunk(self, key: DocKey) -> Chunk | None:
        """The chunk ``key`` names (a dict of every chunk by key was ~5 MB at 50,000
        memories, issue 19): its memory's, found by start line (they ascend)."""
        memory = self.memories.get(key[0])
        if memory is None:
            return None
        chunks = memory.chunks
        at = bisect.bisect_left(chunks, key[1], key=_start_line)
        return chunks[at] if at < len(chunks) and chunks[at].start_line == key[1] else None

    def paths_in_range(self, start: str | None, end: str | None, include_undated: bool) -> set[str]:
        lo = bisect.bisect_left(self.dated, (start, "")) if start else 0
        hi = bisect.bisect_right(self.dated, (end, "\uffff")) if end else len(self.dated)
        paths = {path for _, path in self.dated[lo:hi]}
        if include_undated:
            paths |= self.undated
        return paths

    @property
    def known_frontmatter_keys(self) -> frozenset[str] | None:
        """The keys `frontmatter_keys` last worked out (None before the first time)."""
        cached = self._frontmatter_keys
        return None if cached is None else cached[1]

    def frontmatter_keys(self) -> frozenset[str]:
        """Every top-level frontmatter key in the workspace (cached until the next change).

        Caught up from the paths touched since the last call, as the match count's dates
        are: worked out again from every memory it held the lock 90 ms at 50,000 memories
        after each batch of a burst (issue 19)."""
        cached = self._frontmatter_keys
        if cached is not None and cached[0] == self.generation:
            return cached[1]
        tally = self._key_tally
        touched = self.touched_since(tally.bookmark)
        if touched is None:
            tally.restart(self.memories)
        else:
            tally.catch_up(touched, self.memories)
        tally.bookmark = self.touched_bookmark()
        cached = self._frontmatter_keys = (self.generation, tally.keys())
        return cached[1]

    def snapshot(self, config_key: str, saved_at_ns: int) -> Snapshot:
        """Everything a warm start needs, as plain data (the caller holds the lock)."""
        return self.snapshot_later(config_key, saved_at_ns)()

    def snapshot_later(self, config_key: str, saved_at_ns: int) -> Callable[[], Snapshot]:
        """`snapshot` in two steps: the state as it is now is captured (the caller holds
        the lock), and the snapshot of it is made when the result is called, which needs
        no lock: the keyword postings are the costly part (`KeywordIndex.export_later`)."""
        memories = list(self.memories.values())
        semantic = self.semantic.export_state(lambda: (c.text for m in memories for c in m.chunks))
        keyword_state = self.keyword.export_later()
        return lambda: Snapshot(
            config_key=config_key,
            memories=memories,
            keyword_state=keyword_state(),
            saved_at_ns=saved_at_ns,
            extras={} if semantic is None else {STATE_KEY: semantic},
        )

    def fingerprint(self) -> dict[str, object]:
        """Everything derived from files, in comparable form (equality with a rebuild)."""
        return {
            "memories": {p: m.content_hash for p, m in self.memories.items()},
            "tags": self.tags.snapshot(),
            "links": self.links.snapshot(),
            "chunks": sorted(
                (m.path, c.start_line) for m in self.memories.values() for c in m.chunks
            ),
            "keyword_docs": sorted(self.keyword.keys()),
            "dated": list(self.dated),
            "undated": sorted(self.undated),
            "failures": sorted(self.failures),
        }


def _start_line(chunk: Chunk) -> int:
    return chunk.start_line
