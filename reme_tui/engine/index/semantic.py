"""Semantic search state of one engine: the model, chunk vectors and the embedding job.

`Semantic` owns an optional `Embedder`, the `VectorIndex` of live chunks and the
`EmbeddingCache` (vectors by chunk content hash, for one model identity). The engine tells it
which memories were indexed or dropped (under the engine lock); a background thread embeds
what the cache does not know yet, outside the lock, and publishes whole files at a time.

While embeddings are incomplete, the vector branch covers only the chunks already embedded
(every file is either fully embedded or absent from it), and `warning()` says how far along
the job is. A file that changed loses its vectors until they are recomputed: stale vectors
are never searched. Persisted state is the cache alone (`export_state`), keyed by model
identity; a warm start re-publishes every file from it without encoding anything.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..records import Memory
from .vectors import (
    Embedder,
    EmbeddingCache,
    Key,
    ModelUnavailable,
    VectorIndex,
    content_key,
    load_model,
)

ProgressCallback = Callable[[int, int], None]
BATCH_CHUNKS = 1024  # texts per encode call: the granularity of progress and of lock hand-off
STATE_KEY = "semantic"


@dataclass(frozen=True, slots=True)
class SimilarMemory:
    """A memory similar to another one (by its best chunk against the other's centroid)."""

    path: str
    name: str | None
    description: str | None
    similarity: float

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "description": self.description,
            "similarity": self.similarity,
        }


@dataclass(frozen=True, slots=True)
class SemanticStatus:
    """Where semantic search stands: state is off | failed | embedding | ready."""

    state: str
    model: str | None
    done: int
    total: int
    error: str | None = None

    @property
    def percent(self) -> int:
        return 100 if self.total <= 0 else int(100 * self.done / self.total)

    @property
    def search_mode(self) -> str:
        """ "bm25", "hybrid", or the mode with the reason it is degraded in parentheses."""
        if self.state == "off":
            return "bm25"
        if self.state == "failed":
            return "bm25 (model unavailable)"
        if self.state == "embedding":
            return f"hybrid (embeddings {self.percent}% ready)"
        return "hybrid"


def try_load_model(
    name_or_path: str, *, allow_download: bool = False
) -> tuple[Embedder | None, str | None]:
    """`load_model` that never raises: (embedder, None) or (None, a one-line reason)."""
    try:
        return load_model(name_or_path, allow_download=allow_download), None
    except ModelUnavailable as exc:
        return None, str(exc)


def _embeddable(memory: Memory) -> list[tuple[Key, str]]:
    return [((memory.path, c.start_line), c.text) for c in memory.chunks if c.text.strip()]


class Semantic:
    """Vectors of one engine's chunks. Mutators are called with `lock` held by the engine."""

    def __init__(self, lock: threading.RLock) -> None:
        self._lock = lock
        self.embedder: Embedder | None = None
        self.error: str | None = None
        self.model_name: str | None = None
        self._index: VectorIndex | None = None
        self._cache: EmbeddingCache | None = None
        self._stored: Mapping[str, Any] | None = None  # persisted cache awaiting its model
        self._pending: dict[str, list[tuple[Key, str]]] = {}
        self._pending_chunks = 0
        self._generation = 0  # bumped whenever the index is reset or the model changes
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self._stopping = False  # set once by stop(): the embedding thread ends for good
        self._listeners: list[ProgressCallback] = []
        self.on_complete: Callable[[], object] | None = None
        self.encoded_texts = 0  # texts sent to the model (tests and diagnostics)

    # -- model -------------------------------------------------------------------------

    def attach(self, embedder: Embedder | None, memories: Iterable[Memory]) -> None:
        """Use `embedder` (None: back to BM25-only) and queue every memory for embedding."""
        with self._lock:
            self._generation += 1
            self.embedder = embedder
            self.error = None
            self.model_name = embedder.info.name if embedder else None
            self._pending.clear()
            self._pending_chunks = 0
            if embedder is None:
                if self._cache is not None:
                    self._stored = self._cache.export_state()
                self._index = self._cache = None
                self._idle.set()
                return
            self._index = VectorIndex(embedder.dim)
            self._cache = self._adopt_cache(embedder)
            for memory in memories:
                self.add(memory)
            if not self._pending:
                self._idle.set()
            self._ensure_thread()

    def fail(self, model: str, error: str) -> None:
        """Record that `model` could not be loaded (search stays BM25-only, visibly)."""
        with self._lock:
            self.attach(None, ())
            self.model_name, self.error = model, error

    def _adopt_cache(self, embedder: Embedder) -> EmbeddingCache:
        identity, dim = embedder.info.identity, embedder.dim
        if self._cache is not None:
            self._cache.switch_model(identity, dim)
            return self._cache
        stored, self._stored = self._stored, None
        if stored is not None and stored.get("identity") == identity:
            try:
                cache = EmbeddingCache.from_state(stored)
            except (ValueError, KeyError, TypeError):
                cache = None
            if cache is not None and cache.dim == dim:
                return cache
        return EmbeddingCache(identity, dim)

    # -- index maintenance (engine lock held) -----------------------------------------------

    def reset(self) -> None:
        """Forget every chunk vector (the cache stays): the engine is re-indexing."""
        self._generation += 1
        self._pending.clear()
        self._pending_chunks = 0
        self._idle.set()
        if self.embedder is not None:
            self._index = VectorIndex(self.embedder.dim)

    def add(self, memory: Memory) -> None:
        """`memory` was (re)indexed: drop its old vectors and queue its chunks."""
        if self.embedder is None or self._index is None:
            return
        self.remove(memory.path)
        chunks = _embeddable(memory)
        if chunks:
            self._pending[memory.path] = chunks
            self._pending_chunks += len(chunks)
            self._idle.clear()
            self._wake.set()

    def remove(self, path: str) -> None:
        if self._index is None:
            return
        self._index.remove_path(path)
        dropped = self._pending.pop(path, None)
        if dropped is not None:
            self._pending_chunks -= len(dropped)
            if not self._pending:
                self._idle.set()

    # -- background job ------------------------------------------------------------------

    def stop(self, timeout: float | None = None) -> bool:
        """End the embedding thread after the batch in hand; True once it has ended.

        What is embedded stays usable; what is pending is not embedded by this engine.
        """
        with self._lock:
            self._stopping = True
            self._wake.set()
            thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def _ensure_thread(self) -> None:
        if self._stopping:
            return
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="reme-embed", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._stopping:
                return
            try:
                encoded = self._drain()
                if encoded and self.on_complete is not None:
                    self.on_complete()  # persist before anyone waiting is told we are done
            except Exception as exc:  # a model that breaks mid-way: degrade, never crash
                self._broken(exc)
                continue
            with self._lock:
                if self._stopping:
                    return
                if not self._pending:
                    self._wake.clear()
                    self._idle.set()

    def _drain(self) -> bool:
        """Embed until nothing is pending; True when the model encoded anything."""
        encoded_any = False
        while True:
            with self._lock:
                if self._stopping:
                    return encoded_any
                if not self._pending or self.embedder is None or self._cache is None:
                    return encoded_any
                generation, embedder, cache = self._generation, self.embedder, self._cache
                batch = self._take_batch()
                keys = [content_key(text) for _, chunks in batch for _, text in chunks]
                texts = [text for _, chunks in batch for _, text in chunks]
                todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in cache}
            vectors = embedder.encode(list(todo.values())) if todo else None
            with self._lock:
                if todo:
                    self.encoded_texts += len(todo)
                    encoded_any = True
                if generation != self._generation or self._cache is not cache:
                    continue  # reset or model switch while encoding: the queue was rebuilt
                if vectors is not None:
                    cache.put_many(list(todo), vectors)
                self._publish(batch, cache)
            self._notify()

    def _take_batch(self) -> list[tuple[str, list[tuple[Key, str]]]]:
        batch: list[tuple[str, list[tuple[Key, str]]]] = []
        size = 0
        for path, chunks in self._pending.items():
            batch.append((path, chunks))
            size += len(chunks)
            if size >= BATCH_CHUNKS:
                break
        return batch

    def _publish(
        self, batch: list[tuple[str, list[tuple[Key, str]]]], cache: EmbeddingCache
    ) -> None:
        """Move files whose chunks are unchanged since the batch was taken into the index."""
        assert self._index is not None
        for path, chunks in batch:
            if self._pending.get(path) is not chunks:
                continue  # changed or removed meanwhile: its newer version is still queued
            vectors, found = cache.get_many([content_key(text) for _, text in chunks])
            if not found.all():
                continue
            del self._pending[path]
            self._pending_chunks -= len(chunks)
            self._index.set_path(path, [key for key, _ in chunks], vectors)

    def _broken(self, exc: Exception) -> None:
        with self._lock:
            name = self.model_name or "model"
            self.attach(None, ())
            self.model_name = name
            self.error = f"model {name!r} failed while embedding: {type(exc).__name__}: {exc}"
            self._wake.clear()
        self._notify()

    def _notify(self) -> None:
        status = self.status()
        for listener in list(self._listeners):
            listener(status.done, status.total)

    def add_listener(self, callback: ProgressCallback) -> None:
        """Called (from the embedding thread) with (chunks embedded, chunks in total)."""
        self._listeners.append(callback)

    def remove_listener(self, callback: ProgressCallback) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until nothing is pending; False on timeout."""
        return self._idle.wait(timeout)

    # -- queries -------------------------------------------------------------------------

    def status(self) -> SemanticStatus:
        with self._lock:
            if self.embedder is None or self._index is None:
                state = "failed" if self.error else "off"
                return SemanticStatus(state, self.model_name, 0, 0, self.error)
            done = len(self._index)
            total = done + self._pending_chunks
            state = "embedding" if self._pending else "ready"
            return SemanticStatus(state, self.model_name, done, total)

    def encode_query(self, text: str) -> tuple[np.ndarray | None, str | None]:
        """(query vector, why the model failed on it); both None when semantic search is off.

        Encoding runs outside the lock (it is thread-safe). A model that raises leaves the
        keyword branch to answer alone, and the caller says so.
        """
        embedder = self.embedder
        if embedder is None:
            return None, None
        try:
            return embedder.encode([text])[0], None
        except Exception as exc:  # any failure of a third-party model: reported, not raised
            return None, f"{type(exc).__name__}: {exc}"

    def top_k(
        self, query_vec: np.ndarray | None, k: int, allowed: Collection[str] | None
    ) -> list[tuple[Key, float]]:
        """The vector branch (engine lock held): raw cosine, best first, within `allowed`."""
        if query_vec is None or self._index is None or len(query_vec) != self._index.dim:
            return []
        return self._index.top_k(query_vec, k, allowed)

    def similar(self, path: str, k: int, exclude: Collection[str]) -> list[tuple[str, float]]:
        if self._index is None:
            return []
        return self._index.similar_to_path(path, k, exclude)

    def warning(self) -> str | None:
        status = self.status()
        if status.state == "embedding":
            return (
                f"embeddings {status.percent}% ready ({status.done}/{status.total} chunks): "
                "the vector branch covers only embedded memories"
            )
        return None

    # -- persistence ---------------------------------------------------------------------

    def export_state(self, live_texts: Callable[[], Iterable[str]]) -> dict[str, Any] | None:
        """The cache of the current model (only live chunk texts), else what was loaded."""
        with self._lock:
            if self._cache is None:
                return dict(self._stored) if self._stored is not None else None
            keep = {content_key(text) for text in live_texts()}
            self._cache.retain(keep)
            return self._cache.export_state()

    def restore_state(self, state: Mapping[str, Any] | None) -> None:
        """Keep a persisted cache; it is used when (and if) a model of its identity attaches."""
        with self._lock:
            if not isinstance(state, Mapping):
                return
            if self._cache is not None and self.embedder is not None:
                if state.get("identity") == self._cache.identity and len(self._cache) == 0:
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        self._cache = EmbeddingCache.from_state(state)
                return
            self._stored = state
