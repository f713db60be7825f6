"""The history's version store: content-addressed blobs, each compressed with zstandard
alone or against an earlier version of the same memory used as a raw-content dictionary
(chains one step deep, so any version costs at most two decompressions). Everything read
back is bounded and checked against its hash before it is returned."""

from __future__ import annotations

import sqlite3

import zstandard

from .entries import HistoryError, content_key

# A blob larger than the engine's file limit was not written by us.
MAX_BLOB_BYTES = 20 * 1024 * 1024 + 1
# A delta is kept only when clearly smaller than compressing the version alone.
_DELTA_RATIO = 0.6
_ZSTD_LEVEL = 3


def store_blob(conn: sqlite3.Connection, data: bytes, key: str, prev: str | None) -> None:
    if conn.execute("SELECT 1 FROM blobs WHERE hash=?", (key,)).fetchone():
        return
    plain = zstandard.ZstdCompressor(level=_ZSTD_LEVEL).compress(data)
    base, packed = None, plain
    keyframe = _keyframe_of(conn, prev) if prev else None
    if keyframe is not None:
        base_key, base_data = keyframe
        dictionary = zstandard.ZstdCompressionDict(
            base_data, dict_type=zstandard.DICT_TYPE_RAWCONTENT
        )
        delta = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, dict_data=dictionary).compress(data)
        if len(delta) < len(plain) * _DELTA_RATIO:
            base, packed = base_key, delta
    conn.execute(
        "INSERT INTO blobs(hash, base, raw_size, data) VALUES(?, ?, ?, ?)",
        (key, base, len(data), packed),
    )


def _keyframe_of(conn: sqlite3.Connection, key: str) -> tuple[str, bytes] | None:
    row = conn.execute("SELECT base FROM blobs WHERE hash=?", (key,)).fetchone()
    if row is None:
        return None
    base_key = row[0] if isinstance(row[0], str) else key
    try:
        return base_key, read_blob(conn, base_key)
    except HistoryError:
        return None


def read_blob(conn: sqlite3.Connection, key: str, depth: int = 0) -> bytes:
    row = conn.execute(
        "SELECT base, raw_size, length(data) FROM blobs WHERE hash=?", (key,)
    ).fetchone()
    if row is None:
        raise HistoryError(f"version {key[:12]} is not in the history")
    base, raw_size, packed_size = row
    if not isinstance(raw_size, int) or not 0 <= raw_size <= MAX_BLOB_BYTES:
        raise HistoryError(f"version {key[:12]} declares an impossible size")
    if not isinstance(packed_size, int) or packed_size > MAX_BLOB_BYTES + 1024:
        raise HistoryError(f"version {key[:12]} is oversized")
    (packed,) = conn.execute("SELECT data FROM blobs WHERE hash=?", (key,)).fetchone()
    if not isinstance(packed, bytes):
        raise HistoryError(f"version {key[:12]} is not a blob")
    try:
        if base is None:
            data = zstandard.ZstdDecompressor().decompress(packed, max_output_size=raw_size)
        else:
            if depth or not isinstance(base, str) or base == key:
                raise HistoryError(f"version {key[:12]} has a bad base")
            dictionary = zstandard.ZstdCompressionDict(
                read_blob(conn, base, depth + 1),
                dict_type=zstandard.DICT_TYPE_RAWCONTENT,
            )
            data = zstandard.ZstdDecompressor(dict_data=dictionary).decompress(
                packed, max_output_size=raw_size
            )
    except zstandard.ZstdError as error:
        raise HistoryError(f"version {key[:12]} cannot be decompressed: {error}") from None
    if len(data) != raw_size or content_key(data) != key:
        raise HistoryError(f"version {key[:12]} does not match its hash")
    return data


def blob_or_none(conn: sqlite3.Connection, key: str | None) -> bytes | None:
    if not key:
        return None
    try:
        return read_blob(conn, key)
    except HistoryError:
        return None
