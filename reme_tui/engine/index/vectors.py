"""Optional model2vec embeddings and exact vector search over chunk embeddings.

Three pieces, each usable alone:

- `load_model` / `Embedder`: a model2vec static model from a local directory or the local
  Hugging Face cache (downloading only when explicitly allowed). Every failure is a
  `ModelUnavailable` with a readable message, so the caller can fall back to BM25-only.
- `VectorIndex`: one contiguous float32 matrix of L2-normalised chunk vectors keyed by
  ``(path, start_line)``; a query is one matrix-vector product plus a partial selection.
- `EmbeddingCache`: vectors keyed by chunk content hash for one model identity, exportable as
  plain numpy arrays for the persistent store.

Scores follow the reference (reme-ai 0.4.2.0, ``LocalFileStore.vector_search``): the raw cosine
similarity between query and chunk embedding, no threshold (zero and negative similarities are
returned too), best first, at most ``k``. Deliberate differences: ties are broken by key
(path, then start line) instead of insertion order; candidates are preselected in float32 and
rescored in float64 so equal vectors always get bit-equal scores; and a query vector of norm zero
(a model2vec query made only of unknown tokens) returns no hits instead of ``k`` arbitrary chunks
scored 0.

Why this module is long (~740 lines): the three pieces above are small each, but they
share the on-disk and in-memory layout of a vector (float32 rows, unit-normalized, keyed
by chunk content) and are tested together (``tests/engine/test_vectors.py``); the
sections below keep them apart inside the file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

Key = tuple[str, int]
_K = TypeVar("_K", Key, str)

_IDENTITY_TAG = b"reme-tui/model2vec/v1"
_STATE_VERSION = 1
# float32 matrix-vector error on unit vectors is ~1e-7; rows within this margin of the k-th
# are rescored exactly (float64) before the final cut.
_APPROX_MARGIN = 1e-4
# (embeddings, config, tokenizer) relative paths, in model2vec's own lookup order.
_LAYOUTS: tuple[tuple[str, str, str], ...] = (
    ("model.safetensors", "config.json", "tokenizer.json"),
    ("model.safetensors", "config_sentence_transformers.json", "tokenizer.json"),
    (
        "0_StaticEmbedding/model.safetensors",
        "config_sentence_transformers.json",
        "0_StaticEmbedding/tokenizer.json",
    ),
)
_HUB_PATTERNS = sorted({p for layout in _LAYOUTS for p in layout} | {"README.md"})


# --------------------------------------------------------------------------- model loading


class ModelUnavailable(Exception):
    """No usable embedding model: the message says what was tried and why it failed."""


# model2vec (with huggingface_hub, tokenizers, safetensors: most of the install) is the
# optional extra `reme-tui[semantic]`; without it every way of asking for a model says so.
MISSING_EXTRA = (
    "semantic search needs model2vec, which is not installed: "
    "pip install 'reme-tui[semantic]' (pipx: pipx inject reme-tui model2vec; "
    "uv: uv tool install 'reme-tui[semantic]')"
)


def semantic_installed() -> bool:
    """Whether the `semantic` extra (model2vec) can be imported, without importing it."""
    try:
        return importlib.util.find_spec("model2vec") is not None
    except (ImportError, ValueError):  # a None or broken entry in sys.modules
        return False


@dataclass(frozen=True)
class ModelInfo:
    """What was loaded: `identity` is a content hash of the model files (the cache key)."""

    name: str
    identity: str
    dim: int
    source: str  # "directory" | "cache" | "download"


class Embedder:
    """A loaded model2vec `StaticModel` producing L2-normalised float32 rows.

    Texts are embedded whole (``max_length=None``: no 512-token truncation, a static model's
    mean pooling is cheap) and without model2vec's multiprocessing (safe in a worker thread).
    """

    def __init__(self, model: Any, info: ModelInfo, *, max_length: int | None = None) -> None:
        self._model = model
        self.info = info
        self._max_length = max_length

    @property
    def dim(self) -> int:
        return self.info.dim

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` as a float32 ``(n, dim)`` matrix; rows of unknown-only text stay zero."""
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        raw = self._model.encode(
            list(texts),
            max_length=self._max_length,
            use_multiprocessing=False,
            show_progress_bar=False,
        )
        return normalize_rows(np.asarray(raw, dtype=np.float32).reshape(len(texts), self.dim))


def load_model(
    name_or_path: str, *, allow_download: bool = False, cache_dir: Path | None = None
) -> Embedder:
    """Load a model2vec model from a directory, or a model id from the local HF cache.

    The network is only used when `allow_download` is true; `cache_dir` overrides the Hugging
    Face hub cache directory. Raises `ModelUnavailable` for every kind of failure.
    """
    spec = name_or_path.strip()
    if not spec:
        raise ModelUnavailable("no embedding model configured (empty model name)")
    if not semantic_installed():
        raise ModelUnavailable(MISSING_EXTRA)
    path = Path(spec).expanduser()
    if path.exists():
        return _load_directory(path.resolve(), name=str(path.resolve()), source="directory")
    if _looks_like_path(spec):
        raise ModelUnavailable(f"model directory {spec!r} does not exist")
    folder, source = _resolve_model_id(spec, allow_download=allow_download, cache_dir=cache_dir)
    return _load_directory(folder, name=spec, source=source)


def _looks_like_path(spec: str) -> bool:
    if spec.startswith(("/", ".", "~")) or "\\" in spec:
        return True
    return spec.count("/") > 1 or (os.sep != "/" and os.sep in spec)


def _load_directory(folder: Path, *, name: str, source: str) -> Embedder:
    try:
        files = _model_files(folder, name)
        identity = _identity(files)
    except OSError as exc:
        raise ModelUnavailable(f"{_describe(name, folder)} could not be read: {exc}") from exc
    try:
        from model2vec import StaticModel

        model = StaticModel.from_pretrained(folder, force_download=False)
        dim = int(model.dim)
    except Exception as exc:  # model2vec/safetensors/tokenizers raise many unrelated types
        raise ModelUnavailable(
            f"{_describe(name, folder)} could not be loaded: {_short_error(exc)}"
        ) from exc
    return Embedder(model, ModelInfo(name=name, identity=identity, dim=dim, source=source))


def _describe(name: str, folder: Path) -> str:
    return f"model directory {str(folder)!r}" if name == str(folder) else f"model {name!r}"


def _model_files(folder: Path, name: str) -> tuple[Path, Path, Path]:
    if not folder.is_dir():
        raise ModelUnavailable(f"model path {str(folder)!r} is not a directory")
    for layout in _LAYOUTS:
        files = tuple(folder / rel for rel in layout)
        if all(f.is_file() for f in files):
            return files[0], files[1], files[2]
    present = sorted(p.name for p in folder.iterdir())[:10]
    raise ModelUnavailable(
        f"{_describe(name, folder)} is not a model2vec model: {str(folder)!r} needs "
        "model.safetensors, config.json and tokenizer.json (or a sentence-transformers "
        f"StaticEmbedding layout); it has {present or 'no files'}"
    )


def _identity(files: Sequence[Path]) -> str:
    digest = hashlib.sha256(_IDENTITY_TAG)
    for role, file in zip(("embeddings", "config", "tokenizer"), files, strict=True):
        with file.open("rb") as fh:
            inner = hashlib.file_digest(fh, "sha256").digest()
        digest.update(role.encode() + b"\0" + inner)
    return digest.hexdigest()


def _resolve_model_id(
    model_id: str, *, allow_download: bool, cache_dir: Path | None
) -> tuple[Path, str]:
    cached, why = _cached_snapshot(model_id, cache_dir)
    if cached is not None:
        return cached, "cache"
    if not allow_download:
        raise ModelUnavailable(
            f"model {model_id!r} was not found: it is not a directory, and {why} in the local "
            f"Hugging Face cache ({_cache_location(cache_dir)}). Downloading is off: allow "
            "downloads, or pass the path of a model directory"
        )
    return _download(model_id, cache_dir), "download"


def _cached_snapshot(model_id: str, cache_dir: Path | None) -> tuple[Path | None, str]:
    """The cached snapshot folder of `model_id` (never touches the network), or why not."""
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError

        folder = Path(
            snapshot_download(
                model_id, cache_dir=cache_dir, local_files_only=True, allow_patterns=_HUB_PATTERNS
            )
        )
    except HFValidationError:
        return None, "it is not a valid model id (owner/name), so there is no copy"
    except LocalEntryNotFoundError:
        return None, "there is no copy of it"
    except Exception as exc:
        return None, f"its copy is unusable ({_short_error(exc)})"
    if not any(all((folder / rel).is_file() for rel in lay) for lay in _LAYOUTS):
        return None, f"its copy ({folder}) has no model2vec files"
    return folder, ""


def _download(model_id: str, cache_dir: Path | None) -> Path:
    try:
        from huggingface_hub import snapshot_download

        with _quiet_progress():
            folder = snapshot_download(model_id, cache_dir=cache_dir, allow_patterns=_HUB_PATTERNS)
    except Exception as exc:
        raise ModelUnavailable(
            f"model {model_id!r} could not be downloaded from the Hugging Face hub: "
            f"{_short_error(exc)}"
        ) from exc
    return Path(folder)


@contextmanager
def _quiet_progress() -> Iterator[None]:
    """Keep hub progress bars off the terminal (headless output is for machines)."""
    from huggingface_hub.utils.tqdm import (
        are_progress_bars_disabled,
        disable_progress_bars,
        enable_progress_bars,
    )

    was_disabled = are_progress_bars_disabled()
    disable_progress_bars()
    try:
        yield
    finally:
        if not was_disabled:
            enable_progress_bars()


def _cache_location(cache_dir: Path | None) -> str:
    if cache_dir is not None:
        return str(cache_dir)
    try:
        from huggingface_hub import constants

        return str(constants.HF_HUB_CACHE)
    except Exception:  # pragma: no cover - hub missing entirely
        return "default cache"


def _short_error(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --------------------------------------------------------------------------- helpers


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Return a float32 copy with unit-length rows; all-zero rows stay zero."""
    arr = np.asarray(vectors, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {arr.shape}")
    norms = np.sqrt((arr * arr).sum(axis=1))
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(arr / norms[:, None], dtype=np.float32)


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Like `normalize_rows`, but rows already of unit length (or zero) keep their exact bits."""
    out = np.array(vectors, dtype=np.float32, order="C")
    norms = np.sqrt(np.einsum("ij,ij->i", out, out))
    off = (norms > 0) & (np.abs(norms - 1.0) > 1e-5)
    if off.any():
        out[off] = normalize_rows(out[off])
    return out


def content_key(text: str) -> str:
    """Cache key of a chunk's text: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_vectors(vectors: np.ndarray, rows: int, dim: int) -> np.ndarray:
    arr = np.asarray(vectors)
    if arr.shape != (rows, dim):
        raise ValueError(f"expected vectors of shape {(rows, dim)}, got {arr.shape}")
    if rows and not np.isfinite(arr).all():
        raise ValueError("vectors contain NaN or infinity")
    return arr


# --------------------------------------------------------------------------- vector index


class VectorIndex:
    """Exact cosine search over chunk vectors; not thread-safe (one writer, no concurrent reads).

    Rows live in one C-contiguous float32 matrix; freed rows are reused and the matrix is
    compacted when more than half of it is free, so a query touches at most ~2x the live rows.
    """

    _MIN_CAPACITY = 64
    _COMPACT_MIN_FREE = 1024

    def __init__(self, dim: int) -> None:
        if dim <= 0:
            raise ValueError(f"dimension must be positive, got {dim}")
        self.dim = dim
        self._clear(self._MIN_CAPACITY)

    def _clear(self, capacity: int) -> None:
        self._matrix = np.zeros((capacity, self.dim), dtype=np.float32)
        self._row_pid = np.full(capacity, -1, dtype=np.int64)  # -1 = free row
        self._row_line = np.zeros(capacity, dtype=np.int64)
        self._used = 0  # rows [0, _used) have been handed out
        self._free_rows: list[int] = []
        self._path_rows: dict[str, np.ndarray] = {}
        self._path_ids: dict[str, int] = {}
        self._id_paths: list[str | None] = []
        self._free_ids: list[int] = []
        self._live = 0

    # -- mutation -----------------------------------------------------------------------

    def set_path(self, path: str, keys: Sequence[Key], vectors: np.ndarray) -> None:
        """Replace every chunk of `path` by `keys` (``(path, start_line)``) and their vectors."""
        lines = self._check_keys(path, keys)
        arr = _check_vectors(vectors, len(keys), self.dim)
        self.remove_path(path)
        if not keys:
            return
        rows = self._allocate(len(keys))
        pid = self._path_id(path)
        self._matrix[rows] = normalize_rows(arr)
        self._row_pid[rows] = pid
        self._row_line[rows] = lines
        self._path_rows[path] = rows
        self._live += len(rows)

    def remove_path(self, path: str) -> int:
        """Drop every chunk of `path`; returns how many were dropped."""
        rows = self._path_rows.pop(path, None)
        if rows is None:
            return 0
        pid = self._path_ids.pop(path)
        self._id_paths[pid] = None
        self._free_ids.append(pid)
        self._matrix[rows] = 0.0
        self._row_pid[rows] = -1
        self._free_rows.extend(rows.tolist())
        self._live -= len(rows)
        self._maybe_compact()
        return len(rows)

    def _check_keys(self, path: str, keys: Sequence[Key]) -> np.ndarray:
        lines = []
        for key_path, line in keys:
            if key_path != path:
                raise ValueError(f"key {(key_path, line)!r} does not belong to {path!r}")
            lines.append(int(line))
        if len(set(lines)) != len(lines):
            raise ValueError(f"duplicate start lines for {path!r}")
        return np.asarray(lines, dtype=np.int64)

    def _path_id(self, path: str) -> int:
        if self._free_ids:
            pid = self._free_ids.pop()
            self._id_paths[pid] = path
        else:
            pid = len(self._id_paths)
            self._id_paths.append(path)
        self._path_ids[path] = pid
        return pid

    def _allocate(self, count: int) -> np.ndarray:
        reused = [self._free_rows.pop() for _ in range(min(count, len(self._free_rows)))]
        fresh = count - len(reused)
        self._reserve(self._used + fresh)
        new = np.arange(self._used, self._used + fresh, dtype=np.int64)
        self._used += fresh
        return np.sort(np.concatenate([np.asarray(reused, dtype=np.int64), new]))

    def _reserve(self, rows: int) -> None:
        capacity = len(self._row_pid)
        if rows <= capacity:
            return
        new_cap = max(rows, capacity * 2)
        matrix = np.zeros((new_cap, self.dim), dtype=np.float32)
        matrix[: self._used] = self._matrix[: self._used]
        pids = np.full(new_cap, -1, dtype=np.int64)
        pids[: self._used] = self._row_pid[: self._used]
        lines = np.zeros(new_cap, dtype=np.int64)
        lines[: self._used] = self._row_line[: self._used]
        self._matrix, self._row_pid, self._row_line = matrix, pids, lines

    def _maybe_compact(self) -> None:
        free = len(self._free_rows)
        if self._live == 0:
            self._clear(self._MIN_CAPACITY)
        elif free >= self._COMPACT_MIN_FREE and free > self._live:
            self._load(*self._export_arrays())

    # -- queries ------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._live

    def __contains__(self, path: object) -> bool:
        return path in self._path_rows

    def paths(self) -> list[str]:
        """Indexed paths, sorted."""
        return sorted(self._path_rows)

    def keys_for(self, path: str) -> list[Key]:
        """The chunk keys of `path`, by start line."""
        rows = self._path_rows.get(path)
        if rows is None:
            return []
        return sorted((path, int(line)) for line in self._row_line[rows])

    def top_k(
        self,
        query_vec: np.ndarray,
        k: int,
        allowed_paths: Collection[str] | None = None,
    ) -> list[tuple[Key, float]]:
        """The `k` chunks most cosine-similar to `query_vec`, best first, ties by key.

        `allowed_paths` restricts the candidates (``None`` = every chunk). Like the reference,
        no similarity threshold is applied; a zero query vector gives no hits.
        """
        query = self._unit_query(query_vec)
        if query is None or k <= 0 or self._live == 0:
            return []
        rows = self._candidate_rows(allowed_paths)
        if len(rows) == 0:
            return []
        chosen = rows[_near_top(self._approx_scores(query, rows), k)]
        exact = self._exact_scores(query, chosen)
        pairs = zip(chosen.tolist(), exact.tolist(), strict=True)
        hits = [(self._key(row), score) for row, score in pairs]
        return _rank(hits, k)

    def similar_to_path(
        self,
        path: str,
        k: int,
        exclude: Collection[str] = (),
        *,
        min_similarity: float = 0.0,
    ) -> list[tuple[str, float]]:
        """Other paths most similar to `path`, each scored by its best chunk.

        The query is the normalised mean of `path`'s chunk vectors; only similarities strictly
        above `min_similarity` are kept. Ties by path.
        """
        own = self._path_rows.get(path)
        if own is None or k <= 0:
            return []
        query = self._unit_query(self._centroid(own))
        if query is None:
            return []
        rows = self._candidate_rows(None)
        approx = self._approx_scores(query, rows)
        blocked = [self._path_ids[p] for p in {path, *exclude} if p in self._path_ids]
        approx[np.isin(self._row_pid[rows], blocked)] = -np.inf
        pids = self._near_top_paths(approx, self._row_pid[rows], k)
        hits = [self._best_of_path(query, pid) for pid in pids]
        return _rank([hit for hit in hits if hit[1] > min_similarity], k)

    def _near_top_paths(self, approx: np.ndarray, pids: np.ndarray, k: int) -> list[int]:
        """Path ids whose best approximate score is among the `k` best (plus float ties).

        Walks rows best-first in growing prefixes, so a query costs one partial sort
        of a few hundred rows unless a handful of paths own most of the best chunks.
        """
        n = len(approx)
        m = min(n, 8 * k)
        while True:
            top = np.argpartition(-approx, m - 1)[:m] if m < n else np.arange(n)
            top = top[np.argsort(-approx[top], kind="stable")]
            top = top[np.isfinite(approx[top])]
            _, first = np.unique(pids[top], return_index=True)
            first.sort()
            if len(first) >= k:
                floor = approx[top[first[k - 1]]] - _APPROX_MARGIN
                if m == n or approx[top[-1]] < floor:
                    return [int(pids[top[i]]) for i in first if approx[top[i]] >= floor]
            elif m == n:
                return [int(pids[top[i]]) for i in first]
            m = min(n, m * 4)

    def _centroid(self, rows: np.ndarray) -> np.ndarray:
        ordered = rows[np.argsort(self._row_line[rows], kind="stable")]
        return self._matrix[ordered].astype(np.float64).mean(axis=0)

    def _best_of_path(self, query: np.ndarray, pid: int) -> tuple[str, float]:
        path = self._id_paths[pid] or ""
        return path, float(self._exact_scores(query, self._path_rows[path]).max())

    def _unit_query(self, query_vec: np.ndarray) -> np.ndarray | None:
        """The query as a float64 unit vector, or None if it has no direction."""
        query = np.asarray(query_vec, dtype=np.float64).reshape(-1)
        if query.shape != (self.dim,):
            raise ValueError(f"query has dimension {query.shape[0]}, index has {self.dim}")
        norm = math.sqrt(float((query * query).sum()))
        if not math.isfinite(norm) or norm == 0.0:
            return None
        return query / norm

    def _candidate_rows(self, allowed_paths: Collection[str] | None) -> np.ndarray:
        """Sorted row numbers of the live chunks of `allowed_paths` (all live chunks for None)."""
        if allowed_paths is None:
            if not self._free_rows:
                return np.arange(self._used, dtype=np.int64)
            return np.flatnonzero(self._row_pid[: self._used] >= 0)
        get = self._path_ids.get
        ids = np.fromiter((get(p, -1) for p in allowed_paths), dtype=np.int64)
        allowed = np.zeros(len(self._id_paths) + 1, dtype=bool)  # last slot: free rows (-1)
        allowed[ids[ids >= 0]] = True
        return np.flatnonzero(allowed[self._row_pid[: self._used]])

    def _approx_scores(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """float32 similarities of `rows`: one matrix-vector product (gathered rows if few).

        numpy's own einsum kernel is used rather than BLAS sgemv: it is single-threaded and
        memory-bound, and measured 2-3x faster than a multi-threaded sgemv on a busy 2-core box.
        """
        q32 = query.astype(np.float32)
        if len(rows) * 3 < self._used:
            return np.einsum("ij,j->i", self._matrix[rows], q32)
        full = np.einsum("ij,j->i", self._matrix[: self._used], q32)
        return full if len(rows) == self._used else full[rows]  # sorted + unique: all rows

    def _exact_scores(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """float64 similarities that depend only on the stored row (not on its position)."""
        exact = (self._matrix[rows].astype(np.float64) * query).sum(axis=1)
        return np.clip(exact, -1.0, 1.0)

    def _key(self, row: int) -> Key:
        return (self._id_paths[int(self._row_pid[row])] or "", int(self._row_line[row]))

    # -- persistence --------------------------------------------------------------------

    def export_state(self) -> dict[str, Any]:
        """Plain numpy arrays (no pickling needed) describing every live chunk."""
        paths, path_index, lines, vectors = self._export_arrays()
        return {
            "version": _STATE_VERSION,
            "dim": self.dim,
            "paths": np.asarray(paths, dtype=str),
            "path_index": path_index,
            "start_lines": lines,
            "vectors": vectors,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> VectorIndex:
        """Rebuild an index from `export_state` output; raises ValueError if inconsistent."""
        if int(state.get("version", -1)) != _STATE_VERSION:
            raise ValueError(f"unsupported vector index state version {state.get('version')!r}")
        index = cls(int(state["dim"]))
        paths = [str(p) for p in np.asarray(state["paths"]).tolist()]
        path_index = np.asarray(state["path_index"], dtype=np.int64)
        lines = np.asarray(state["start_lines"], dtype=np.int64)
        vectors = _check_vectors(state["vectors"], len(path_index), index.dim)
        if len(lines) != len(path_index) or len(set(paths)) != len(paths):
            raise ValueError("inconsistent vector index state")
        if len(path_index) and (path_index.min() < 0 or path_index.max() >= len(paths)):
            raise ValueError("vector index state refers to unknown paths")
        index._load(paths, path_index, lines, _unit_rows(vectors))
        return index

    def _export_arrays(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        paths = sorted(self._path_rows)
        rows = [self._path_rows[p] for p in paths]
        all_rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        path_index = np.repeat(np.arange(len(paths), dtype=np.int64), [len(r) for r in rows])
        return paths, path_index, self._row_line[all_rows], self._matrix[all_rows]

    def _load(
        self, paths: list[str], path_index: np.ndarray, lines: np.ndarray, vectors: np.ndarray
    ) -> None:
        n = len(path_index)
        self._clear(max(self._MIN_CAPACITY, n))
        self._matrix[:n] = vectors
        self._row_pid[:n] = path_index
        self._row_line[:n] = lines
        self._used = self._live = n
        self._id_paths = list(paths)
        self._path_ids = {p: i for i, p in enumerate(paths)}
        if n == 0:
            if paths:
                raise ValueError("vector index state lists paths without chunks")
            return
        order = np.lexsort((lines, path_index))
        same_path = path_index[order][1:] == path_index[order][:-1]
        if (same_path & (lines[order][1:] == lines[order][:-1])).any():
            raise ValueError("duplicate chunk keys in vector index state")
        counts = np.bincount(path_index, minlength=len(paths))
        if len(counts) and counts.min() == 0:
            raise ValueError("vector index state lists a path without chunks")
        for p, rows in zip(paths, np.split(order, np.cumsum(counts)[:-1]), strict=True):
            self._path_rows[p] = rows


def _near_top(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the `k` best approximate scores plus all within float32 error of the k-th."""
    n = len(scores)
    if k >= n:
        return np.arange(n)
    kth = np.partition(scores, n - k)[n - k]
    return np.flatnonzero(scores >= kth - _APPROX_MARGIN)


def _rank(hits: list[tuple[_K, float]], k: int) -> list[tuple[_K, float]]:
    """Best first with ties by key; keep `k`."""
    hits.sort(key=lambda item: (-item[1], item[0]))
    return hits[:k]


# --------------------------------------------------------------------------- embedding cache


class EmbeddingCache:
    """Chunk vectors keyed by `content_key(text)`, valid for one model identity only."""

    def __init__(self, identity: str, dim: int) -> None:
        self.identity = identity
        self.dim = dim
        self._rows: dict[str, int] = {}
        self._vectors = np.zeros((0, dim), dtype=np.float32)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def switch_model(self, identity: str, dim: int) -> bool:
        """Bind the cache to a model; returns True if that emptied it (identity changed)."""
        if identity == self.identity and dim == self.dim:
            return False
        self.identity, self.dim = identity, dim
        self.clear()
        return True

    def clear(self) -> None:
        self._rows = {}
        self._vectors = np.zeros((0, self.dim), dtype=np.float32)

    def get_many(self, keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors, found)``: a float32 ``(n, dim)`` matrix (zero rows for misses) and a mask."""
        rows = np.fromiter((self._rows.get(k, -1) for k in keys), dtype=np.int64, count=len(keys))
        found = rows >= 0
        out = np.zeros((len(keys), self.dim), dtype=np.float32)
        out[found] = self._vectors[rows[found]]
        return out, found

    def put_many(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        """Store (or overwrite) one vector per key."""
        arr = _check_vectors(vectors, len(keys), self.dim).astype(np.float32, copy=False)
        fresh: dict[str, int] = {}
        for i, key in enumerate(keys):
            row = self._rows.get(key)
            if row is None:
                fresh[key] = i
            else:
                self._vectors[row] = arr[i]
        if fresh:
            start = len(self._rows)
            self._reserve(start + len(fresh))
            self._vectors[start : start + len(fresh)] = arr[list(fresh.values())]
            self._rows.update({k: start + j for j, k in enumerate(fresh)})

    def _reserve(self, rows: int) -> None:
        if rows > len(self._vectors):
            grown = np.zeros((max(rows, 2 * len(self._vectors), 64), self.dim), dtype=np.float32)
            grown[: len(self._rows)] = self._vectors[: len(self._rows)]
            self._vectors = grown

    def retain(self, keys: Collection[str]) -> int:
        """Forget every entry whose key is not in `keys`; returns how many were dropped."""
        keep = [k for k in self._rows if k in keys]
        dropped = len(self._rows) - len(keep)
        if dropped:
            rows = np.fromiter((self._rows[k] for k in keep), dtype=np.int64, count=len(keep))
            self._vectors = self._vectors[rows]
            self._rows = {k: i for i, k in enumerate(keep)}
        return dropped

    def encode_cached(self, embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
        """Vectors for `texts`, encoding (and caching) only the texts not seen before."""
        if embedder.info.identity != self.identity or embedder.dim != self.dim:
            raise ValueError("embedding cache belongs to a different model; call switch_model")
        keys = [content_key(t) for t in texts]
        vectors, found = self.get_many(keys)
        missing = np.flatnonzero(~found)
        if len(missing):
            todo: dict[str, str] = {}
            for i in missing.tolist():
                todo.setdefault(keys[i], texts[i])
            self.put_many(list(todo), embedder.encode(list(todo.values())))
            vectors[missing], _ = self.get_many([keys[i] for i in missing.tolist()])
        return vectors

    def export_state(self) -> dict[str, Any]:
        """Plain numpy arrays (no pickling needed) for the persistent store."""
        keys = list(self._rows)
        rows = np.fromiter((self._rows[k] for k in keys), dtype=np.int64, count=len(keys))
        return {
            "version": _STATE_VERSION,
            "identity": self.identity,
            "dim": self.dim,
            "keys": np.asarray(keys, dtype=str),
            "vectors": self._vectors[rows],
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> EmbeddingCache:
        """Rebuild a cache from `export_state` output; raises ValueError if inconsistent."""
        if int(state.get("version", -1)) != _STATE_VERSION:
            raise ValueError(f"unsupported embedding cache state version {state.get('version')!r}")
        cache = cls(str(state["identity"]), int(state["dim"]))
        keys = [str(k) for k in np.asarray(state["keys"]).tolist()]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate keys in embedding cache state")
        cache.put_many(keys, np.asarray(state["vectors"], dtype=np.float32))
        return cache
