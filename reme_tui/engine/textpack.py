"""A chunk's text as the index keeps it: UTF-8 bytes, zstd-compressed when that pays.

Every chunk's text stays in memory for the life of the index (search hits, snippets,
suggestions), and as ``str`` it was the largest part of the app's memory: 140 MB of 430
at 50,000 memories (issue 19). Few texts are read at any time (a page of hits, one
memory's suggestions), so they are kept packed and unpacked when read: zstd at level 1
packs the bench's prose 2.5x, a 3 KB text in ~17 µs and back in ~9 µs.

A packed text is one tag byte and the payload: ``RAW`` + UTF-8 (short texts, where a
frame's header would cost more than it saves), or ``ZSTD`` + one zstd frame that records
its content size. Packed texts come back from the saved index, which is hostile input:
`check` rejects a tag or a frame size that `pack` cannot have made, so such a file is
rebuilt; a frame whose body is damaged behind a valid header (only a crafted file whose
checksum still matches) unpacks to the empty string instead of raising in a reader.
"""

from __future__ import annotations

import threading

import zstandard

RAW = 0
ZSTD = 1
# Texts of fewer UTF-8 bytes than this are kept raw: a frame's own ~10 bytes and the
# compressor's call would eat what a short text saves.
PACK_MIN_BYTES = 128
_LEVEL = 1
# The largest text a frame may claim to hold: a chunk is at most its file (20 MB by
# default) with its headings repeated; a hostile frame claiming more is not allocated.
MAX_TEXT_BYTES = 1 << 28

_local = threading.local()  # zstd contexts are not thread-safe: one pair per thread


def _compressor() -> zstandard.ZstdCompressor:
    made: zstandard.ZstdCompressor | None = getattr(_local, "compressor", None)
    if made is None:
        made = _local.compressor = zstandard.ZstdCompressor(level=_LEVEL, write_checksum=False)
    return made


def _decompressor() -> zstandard.ZstdDecompressor:
    made: zstandard.ZstdDecompressor | None = getattr(_local, "decompressor", None)
    if made is None:
        made = _local.decompressor = zstandard.ZstdDecompressor()
    return made


def pack(text: str) -> bytes:
    """``text`` packed (`unpack` gives it back exactly, lone surrogates included)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) >= PACK_MIN_BYTES:
        frame = _compressor().compress(data)
        if len(frame) < len(data):
            return bytes((ZSTD,)) + frame
    return bytes((RAW,)) + data


def unpack(packed: bytes) -> str:
    """The text `pack` packed (the empty string for a damaged frame, see the docstring)."""
    if not packed:
        return ""
    view = memoryview(packed)[1:]
    if packed[0] == ZSTD:
        try:
            if not 0 <= zstandard.frame_content_size(view) <= MAX_TEXT_BYTES:
                return ""
            data = _decompressor().decompress(view)
        except zstandard.ZstdError:
            return ""
    elif packed[0] == RAW:
        data = bytes(view)
    else:
        return ""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace")


def check(packed: bytes) -> bool:
    """Whether ``packed`` has the shape `pack` gives (a tag it writes; a frame that says
    how big its text is, within `MAX_TEXT_BYTES`): what a saved index is checked for."""
    if not packed:
        return False
    if packed[0] == RAW:
        return True
    if packed[0] != ZSTD:
        return False
    try:
        size = zstandard.frame_content_size(memoryview(packed)[1:])
    except zstandard.ZstdError:
        return False
    return 0 <= size <= MAX_TEXT_BYTES
