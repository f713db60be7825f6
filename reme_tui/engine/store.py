"""Persisted index for warm starts: versioned, checksummed, atomic, rebuildable.

One entry per workspace under the user's cache directory (never inside the workspace).
The files remain the truth: anything wrong with an entry (missing, truncated, corrupted,
another version, another configuration) means it is discarded and the index rebuilt.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import io
import os
import pickle
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from .records import Chunk, Diagnostic, Link, Memory

STORE_VERSION = 1
_MAGIC = b"REMETUI-INDEX\n"
_DIGEST_BYTES = 32


class StoreInvalid(Exception):
    """The stored entry cannot be used; the message says why (shown as a one-line notice)."""


@dataclass(slots=True)
class Snapshot:
    """What a warm start needs: parsed records, the keyword index state, when it was saved."""

    config_key: str
    memories: list[Memory]
    keyword_state: dict[str, Any]
    saved_at_ns: int
    extras: dict[str, Any]


_PARSER_MODULES = (
    "chunking.py",
    "document.py",
    "keyword.py",
    "links.py",
    "records.py",
    "store.py",
    "tags.py",
    "tokenize.py",
    "workspace.py",
    "data/reme_stopwords.txt",
)


@functools.cache
def code_fingerprint() -> str:
    """Digest of the code that shapes stored records: any change to it invalidates entries."""
    digest = hashlib.sha256()
    package = Path(__file__).parent
    for name in _PARSER_MODULES:
        with contextlib.suppress(OSError):
            digest.update(name.encode() + b"\0" + (package / name).read_bytes())
    return digest.hexdigest()[:16]


# Frozen slotted dataclasses pickle through a generic `__setstate__` that looks up
# `fields()` for every object: most of a warm start's decode time. Pickling them as
# `cls(*values)` instead decodes several times faster, and the payload stays plain pickle.
_FAST_CLASSES = (Memory, Chunk, Link, Diagnostic)
_FIELD_NAMES = {cls: tuple(f.name for f in fields(cls)) for cls in _FAST_CLASSES}


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: object) -> Any:
        names = _FIELD_NAMES.get(type(obj))
        if names is None:
            return NotImplemented
        return type(obj), tuple(getattr(obj, name) for name in names)


def _dumps(snapshot: Snapshot) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(snapshot)
    return buffer.getvalue()


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/reme-tui` (or the platform's equivalent)."""
    return Path(platformdirs.user_cache_dir("reme-tui", appauthor=False))


def workspace_key(root: Path) -> str:
    real = os.path.realpath(root)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:24]


class IndexStore:
    """The persisted index of one workspace."""

    def __init__(self, root: Path, cache_dir: Path | None = None) -> None:
        self.root = root
        base = cache_dir or default_cache_dir()
        self.directory = base / "indexes" / workspace_key(root)
        self.path = self.directory / "index.bin"
        self._lock_path = self.directory / "index.lock"

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def load(self, config_key: str) -> Snapshot:
        """The stored snapshot; raises StoreInvalid with a reason when unusable."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise StoreInvalid("no saved index yet") from None
        except OSError as exc:
            raise StoreInvalid(f"saved index unreadable ({exc.strerror})") from None
        header = len(_MAGIC) + 4 + _DIGEST_BYTES
        if len(data) < header or not data.startswith(_MAGIC):
            raise StoreInvalid("saved index is truncated or not an index file")
        version = int.from_bytes(data[len(_MAGIC) : len(_MAGIC) + 4], "big")
        if version != STORE_VERSION:
            raise StoreInvalid(f"saved index is version {version}, expected {STORE_VERSION}")
        digest = data[len(_MAGIC) + 4 : header]
        payload = data[header:]
        if hashlib.sha256(payload).digest() != digest:
            raise StoreInvalid("saved index failed its checksum (truncated or corrupted)")
        try:
            snapshot = pickle.loads(payload)  # our own checksummed cache file
        except Exception as exc:  # unpickling garbage can raise nearly anything
            raise StoreInvalid(f"saved index could not be decoded ({type(exc).__name__})") from None
        if not isinstance(snapshot, Snapshot):
            raise StoreInvalid("saved index has an unexpected layout")
        if snapshot.config_key != config_key:
            raise StoreInvalid("saved index was built with other settings")
        return snapshot

    def save(self, snapshot: Snapshot) -> bool:
        """Atomically replace the entry; False when another process holds the write lock."""
        self.directory.mkdir(parents=True, exist_ok=True)
        payload = _dumps(snapshot)
        blob = io.BytesIO()
        blob.write(_MAGIC)
        blob.write(STORE_VERSION.to_bytes(4, "big"))
        blob.write(hashlib.sha256(payload).digest())
        blob.write(payload)
        with self._write_lock() as acquired:
            if not acquired:
                return False
            fd, tmp = tempfile.mkstemp(prefix=".index-", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(blob.getbuffer())
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                raise
        return True

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[bool]:
        handle = open(self._lock_path, "a+b")  # noqa: SIM115 - held for the block
        try:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        finally:
            handle.close()


def now_ns() -> int:
    return time.time_ns()
