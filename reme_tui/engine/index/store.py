"""Persisted index for warm starts: plain data, versioned, checksummed, atomic, rebuildable.

One entry per workspace under the user's cache directory (never inside the workspace).
The files remain the truth: anything wrong with an entry (missing, truncated, corrupted,
another version, another configuration, another owner) means it is discarded and the
index rebuilt.

The entry is data, never code: a header (magic, version, SHA-256 of the payload) and a
msgpack payload decoded by msgspec into the typed records (``Memory``, ``Chunk``...),
with numpy arrays as raw bytes of a whitelisted dtype (numbers and fixed-width text; no
object arrays, nothing unpickled). A crafted file can at worst be rejected or describe a
wrong index of the same workspace. It is read only when it is a regular file owned by us
and writable by nobody else, without blocking, up to ``MAX_INDEX_BYTES``; the cache
directories are 0700 and the file 0600.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import functools
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import platformdirs

from .. import textpack
from ..dates import iso_value
from ..files import ensure_private_dir, read_regular, workspace_key
from ..records import Memory
from .sharing import StringPool, one_copy

# 3: chunk texts packed (`textpack`), not text.
STORE_VERSION = 3
_MAGIC = b"REMETUI-INDEX\n"
_DIGEST_BYTES = 32
_HEADER_BYTES = len(_MAGIC) + 4 + _DIGEST_BYTES
MAX_INDEX_BYTES = 4 * 1024**3
_NDARRAY_EXT = 1
# YAML dates and datetimes in frontmatter values: msgpack alone would hand them back as ISO
# text (naive) or UTC timestamps (aware), and ReMe prints them with str() (day-index pages).
_DATE_EXT = 2
_DATETIME_EXT = 3
_PAIRS_EXT = 4  # a mapping with a date among its keys (an extension is not hashable)
# numpy dtypes an entry may hold: bool, integers, floats and fixed-width text.
_DTYPE = re.compile(r"^[<>|=]?(b1|[iu][1248]|f[248]|U\d{1,6})$")


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
    # The pool the memories were made to share with as they were decoded (None: they were
    # not); the index keeps using it for the memories that come later.
    strings: StringPool | None = None


class _Payload(msgspec.Struct, array_like=True):
    config_key: str
    saved_at_ns: int
    memories: list[Memory]
    keyword_state: dict[str, Any]
    extras: dict[str, Any]


class _RawPayload(msgspec.Struct, array_like=True):
    """`_Payload` as read: each memory left encoded, decoded one at a time (see `_loads`)."""

    config_key: str
    saved_at_ns: int
    memories: list[msgspec.Raw]
    keyword_state: dict[str, Any]
    extras: dict[str, Any]


# The code that shapes stored records, by module name (a path would silently stop counting
# when its file moves: a missing module here is an error, tests/engine/test_store.py checks
# that every entry exists).
FINGERPRINTED_MODULES = (
    "reme_tui.engine.codes",
    "reme_tui.engine.records",
    "reme_tui.engine.files.workspace",
    "reme_tui.engine.index.keyword",
    "reme_tui.engine.index.store",
    "reme_tui.engine.parse.blocks",
    "reme_tui.engine.parse.chunking",
    "reme_tui.engine.parse.document",
    "reme_tui.engine.parse.fast_blocks",
    "reme_tui.engine.parse.frontmatter.bounded",
    "reme_tui.engine.parse.frontmatter.split",
    "reme_tui.engine.parse.mistletoe_speedup",
    "reme_tui.engine.parse.tokens",
    "reme_tui.engine.parse.wikilinks",
    "reme_tui.engine.tags.index",
    "reme_tui.engine.textpack",
)
FINGERPRINTED_DATA = (("reme_tui.engine", "data/reme_stopwords.txt"),)


def fingerprinted_sources() -> list[tuple[str, Traversable]]:
    """Each fingerprinted module's source file (and data file), by name."""
    sources: list[tuple[str, Traversable]] = []
    for name in FINGERPRINTED_MODULES:
        package, _, leaf = name.rpartition(".")
        sources.append((name, resources.files(package) / f"{leaf}.py"))
    for package, relative in FINGERPRINTED_DATA:
        sources.append((f"{package}:{relative}", resources.files(package).joinpath(relative)))
    return sources


@functools.cache
def code_fingerprint() -> str:
    """Digest of the code that shapes stored records: any change to it invalidates entries."""
    digest = hashlib.sha256()
    for name, source in fingerprinted_sources():
        digest.update(name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def _encode_array(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        return msgspec.msgpack.Ext(_NDARRAY_EXT, b"".join(_array_parts(obj)[1:]))
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"cannot store {type(obj).__name__}")


def _array_parts(obj: np.ndarray) -> tuple[bytes, bytes, memoryview]:
    """An array as a msgpack extension: its header, the head of its body (dtype and
    shape), and its data, a view of the array's own memory (not copied)."""
    array = np.ascontiguousarray(obj)
    if not _DTYPE.match(array.dtype.str):
        raise TypeError(f"cannot store a numpy array of dtype {array.dtype}")
    head = msgspec.msgpack.encode([array.dtype.str, list(array.shape)])
    head = len(head).to_bytes(4, "big") + head
    data = array.reshape(-1).view(np.uint8).data
    return _ext_header(_NDARRAY_EXT, len(head) + data.nbytes), head, data


_FIXEXT = {1: 0xD4, 2: 0xD5, 4: 0xD6, 8: 0xD7, 16: 0xD8}


def _ext_header(code: int, length: int) -> bytes:
    """The msgpack header of an extension of ``length`` bytes, as msgspec writes it."""
    if length in _FIXEXT:
        return bytes((_FIXEXT[length], code))
    if length < 1 << 8:
        return bytes((0xC7, length, code))
    if length < 1 << 16:
        return b"\xc8" + length.to_bytes(2, "big") + bytes((code,))
    return b"\xc9" + length.to_bytes(4, "big") + bytes((code,))


def _container_header(length: int, fix: int, marker16: int) -> bytes:
    """The msgpack header of a map or array of ``length`` entries, as msgspec writes it:
    the ``fix`` form under 16, else ``marker16`` and 2 bytes, or the next marker and 4."""
    if length < 16:
        return bytes([fix | length])
    if length < 1 << 16:
        return bytes([marker16]) + length.to_bytes(2, "big")
    return bytes([marker16 + 1]) + length.to_bytes(4, "big")


def _map_header(length: int) -> bytes:
    return _container_header(length, 0x80, 0xDE)


def _encoded_state(value: Any) -> Iterator[bytes | memoryview]:
    """``value``'s encoding in parts, each numpy array in it (at any depth of dicts) as
    views of its own memory: encoded whole, a 34 MB posting array was copied three times
    (its bytes, the extension's body, the encoder's buffer) on top of the live index."""
    if isinstance(value, dict):
        yield _map_header(len(value))
        for key, item in value.items():
            yield _ENCODER.encode(key)
            yield from _encoded_state(item)
    elif isinstance(value, np.ndarray):
        yield from _array_parts(value)
    else:
        yield _ENCODER.encode(value)


def _tag_dates(value: Any) -> Any:
    """``value`` with every date and datetime (keys too) as an extension of its own."""
    if isinstance(value, dt.datetime):
        return msgspec.msgpack.Ext(_DATETIME_EXT, value.isoformat().encode())
    if isinstance(value, dt.date):
        return msgspec.msgpack.Ext(_DATE_EXT, value.isoformat().encode())
    if isinstance(value, dict):
        if any(isinstance(k, dt.date) for k in value):
            pairs = [[_tag_dates(k), _tag_dates(v)] for k, v in value.items()]
            return msgspec.msgpack.Ext(_PAIRS_EXT, msgspec.msgpack.encode(pairs))
        return {k: _tag_dates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tag_dates(v) for v in value]
    return value


def _has_dates(value: Any) -> bool:
    if isinstance(value, dt.date):
        return True
    if isinstance(value, dict):
        return any(_has_dates(k) or _has_dates(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_dates(v) for v in value)
    return False


def _decode_ext(code: int, data: memoryview) -> Any:
    if code in (_DATE_EXT, _DATETIME_EXT):
        try:
            return iso_value(bytes(data).decode("ascii"), with_time=code == _DATETIME_EXT)
        except (UnicodeDecodeError, ValueError):
            raise ValueError("saved index holds a malformed date") from None
    if code == _PAIRS_EXT:
        pairs = msgspec.msgpack.decode(data, type=list[tuple[Any, Any]], ext_hook=_decode_ext)
        return dict(pairs)  # TypeError on an unhashable key: the entry is rebuilt
    return _decode_array(code, data)


def _decode_array(code: int, data: memoryview) -> np.ndarray:
    if code != _NDARRAY_EXT or len(data) < 4:
        raise ValueError("unknown extension in saved index")
    size = int.from_bytes(data[:4], "big")
    head = msgspec.msgpack.decode(data[4 : 4 + size], type=tuple[str, list[int]])
    dtype_text, shape = head
    if not _DTYPE.match(dtype_text) or len(shape) > 4 or any(n < 0 for n in shape):
        raise ValueError("saved index holds an array of an unexpected type")
    dtype = np.dtype(dtype_text)
    body = data[4 + size :]
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if count * dtype.itemsize != len(body):
        raise ValueError("saved index holds an array of the wrong size")
    return np.frombuffer(body, dtype=dtype).reshape(shape).copy()


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_encode_array)
_DECODER = msgspec.msgpack.Decoder(_RawPayload, ext_hook=_decode_ext)
_MEMORY_DECODER = msgspec.msgpack.Decoder(Memory, ext_hook=_decode_ext)


# File names that are not UTF-8 reach us as str with lone surrogates (surrogateescape),
# which msgpack cannot hold. Such a path is stored as this marker + the hex of its bytes;
# a real path never contains NUL, so the marker cannot be mistaken for one.
_ESCAPED = "\x00x:"


def _escape(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _ESCAPED + text.encode("utf-8", "surrogateescape").hex()
    return text


def _unescape(text: str) -> str:
    if not text.startswith(_ESCAPED):
        return text
    try:
        return bytes.fromhex(text[len(_ESCAPED) :]).decode("utf-8", "surrogateescape")
    except ValueError:
        raise ValueError("saved index holds a malformed path") from None


def _escape_memory(memory: Memory) -> Memory:
    if _has_dates(memory.frontmatter):
        memory = replace(memory, frontmatter=_tag_dates(memory.frontmatter))
    if _escape(memory.path) is memory.path and all(
        _escape(d.message) is d.message for d in memory.diagnostics
    ):
        return memory
    return _map_paths(memory, _escape)


def _map_paths(memory: Memory, fix: Callable[[str], str]) -> Memory:
    return replace(
        memory,
        path=fix(memory.path),
        chunks=tuple(replace(c, path=fix(c.path)) for c in memory.chunks),
        diagnostics=tuple(
            replace(d, path=fix(d.path), message=fix(d.message)) for d in memory.diagnostics
        ),
    )


def _dumps(snapshot: Snapshot) -> bytes:
    return b"".join(_encoded_parts(snapshot))


# A streamed save writes the memories in parts of about this many bytes.
_SAVE_PART_BYTES = 1 << 20


def _array_header(length: int) -> bytes:
    return _container_header(length, 0x90, 0xDC)


def _encoded_parts(snapshot: Snapshot) -> Iterator[bytes | memoryview]:
    """The payload (`_Payload`, array-like) in parts whose concatenation is its encoding:
    a save streams them to the file instead of holding the whole payload (~256 MB at
    50,000 memories, on top of the live index: the app's peak, issue 19)."""
    keyword = dict(snapshot.keyword_state)
    if "paths" in keyword:
        keyword["paths"] = [_escape(path) for path in keyword["paths"]]
    yield _array_header(len(_Payload.__struct_fields__))
    yield _ENCODER.encode(snapshot.config_key)
    yield _ENCODER.encode(snapshot.saved_at_ns)
    yield _array_header(len(snapshot.memories))
    part = bytearray()
    for memory in snapshot.memories:
        _ENCODER.encode_into(_escape_memory(memory), part, -1)  # appended
        if len(part) >= _SAVE_PART_BYTES:
            yield bytes(part)
            part = bytearray()
    yield bytes(part)
    yield from _encoded_state(keyword)
    yield from _encoded_state(snapshot.extras)


def _loads(payload: bytes | memoryview) -> Snapshot:
    """The snapshot in ``payload``. Its memories are decoded one at a time and made to
    share their repeated strings at once (`sharing`), so the copies freed are reused by the
    next memory's: shared after decoding them all, the holes the copies left kept half of
    their ~74 MB resident (issue 19, 50,000 memories)."""
    decoded = _DECODER.decode(payload)
    keyword = decoded.keyword_state
    paths = keyword.get("paths")
    if isinstance(paths, list):
        paths = keyword["paths"] = [_unescape(p) if isinstance(p, str) else p for p in paths]
    path_of = one_copy(p for p in (paths if isinstance(paths, list) else ()) if isinstance(p, str))
    pool = StringPool()
    raw = decoded.memories
    memories: list[Memory] = []
    for index in range(len(raw)):
        memory = _MEMORY_DECODER.decode(raw[index])
        raw[index] = _NO_MEMORY  # its view of the payload is not needed again
        if memory.path.startswith(_ESCAPED):
            memory = _map_paths(memory, _unescape)
        if not all(textpack.check(chunk.packed) for chunk in memory.chunks):
            raise ValueError("saved index holds a malformed chunk text")
        pool.share(memory, path_of)
        memories.append(memory)
    return Snapshot(
        decoded.config_key, memories, keyword, decoded.saved_at_ns, decoded.extras, pool
    )


_NO_MEMORY = msgspec.Raw(b"")


_TEMP_PREFIX = ".index-"


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/reme-tui` (or the platform's equivalent)."""
    return Path(platformdirs.user_cache_dir("reme-tui", appauthor=False))


class IndexStore:
    """The persisted index of one workspace."""

    def __init__(self, root: Path, cache_dir: Path | None = None) -> None:
        self.root = root
        self.base = cache_dir or default_cache_dir()
        self.directory = self.base / "indexes" / workspace_key(root)
        self.path = self.directory / "index.bin"
        self._lock_path = self.directory / "index.lock"

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _read(self) -> bytes:
        try:
            data, st = read_regular(self.path, MAX_INDEX_BYTES)
        except FileNotFoundError:
            raise StoreInvalid("no saved index yet") from None
        except OSError as exc:
            raise StoreInvalid(f"saved index unusable ({exc.strerror or exc})") from None
        if st.st_uid != os.geteuid():
            raise StoreInvalid("saved index is owned by another user; ignored")
        if stat.S_IMODE(st.st_mode) & 0o022:
            raise StoreInvalid("saved index is writable by other users; ignored")
        return data

    def load(self, config_key: str) -> Snapshot:
        """The stored snapshot; raises StoreInvalid with a reason when unusable."""
        data = self._read()
        if len(data) < _HEADER_BYTES or not data.startswith(_MAGIC):
            raise StoreInvalid("saved index is truncated or not an index file")
        version = int.from_bytes(data[len(_MAGIC) : len(_MAGIC) + 4], "big")
        if version != STORE_VERSION:
            raise StoreInvalid(f"saved index is version {version}, expected {STORE_VERSION}")
        payload = memoryview(data)[_HEADER_BYTES:]
        if hashlib.sha256(payload).digest() != data[len(_MAGIC) + 4 : _HEADER_BYTES]:
            raise StoreInvalid("saved index failed its checksum (truncated or corrupted)")
        try:
            snapshot = _loads(payload)
        except (msgspec.DecodeError, ValueError, TypeError, RecursionError) as exc:
            reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
            raise StoreInvalid(f"saved index has an unexpected layout ({reason})") from None
        if snapshot.config_key != config_key:
            raise StoreInvalid("saved index was built with other settings")
        return snapshot

    def save(self, snapshot: Snapshot) -> bool:
        """Atomically replace the entry; False when another process holds the write lock."""
        ensure_private_dir(self.directory, base=self.base)
        with self._write_lock() as acquired:
            if not acquired:
                return False
            self._remove_killed_saves()
            fd, tmp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=self.directory)  # 0600
            try:
                with os.fdopen(fd, "wb") as handle:
                    # The payload streams out in parts; its digest goes into the header
                    # last (the file is renamed into place only once complete).
                    handle.write(_MAGIC + STORE_VERSION.to_bytes(4, "big") + bytes(_DIGEST_BYTES))
                    digest = hashlib.sha256()
                    for part in _encoded_parts(snapshot):
                        digest.update(part)
                        handle.write(part)
                    handle.seek(len(_MAGIC) + 4)
                    handle.write(digest.digest())
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                raise
        return True

    def _remove_killed_saves(self) -> None:
        """Temp files of saves killed before their rename (kill -9: up to the index's size
        each). Only called under the write lock, so none of them is a save under way."""
        with contextlib.suppress(OSError), os.scandir(self.directory) as entries:
            for entry in entries:
                if not entry.name.startswith(_TEMP_PREFIX):
                    continue
                with contextlib.suppress(OSError):
                    st = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                        os.unlink(entry.path)

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[bool]:
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(self._lock_path, flags, 0o600)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a symlink planted as the lock: not ours to use
                yield False
                return
            raise
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                yield False
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def now_ns() -> int:
    return time.time_ns()
