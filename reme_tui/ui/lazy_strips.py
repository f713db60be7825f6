"""Textual's `Strip` (one line of a frame) with its seven little caches made on first use.

Textual gives every `Strip` seven `FIFOCache`s (crop, divide, style, filter, ...) when it
is created, a dict each. The compositor creates ~300 strips a frame (every widget line it
divides at the frame's cuts), and most are never cropped, styled or divided again: at
10,000 memories a keystroke's frame spent a third of its time making those caches
(367,688 `FIFOCache.__init__` in 183 frames, profiled), and their 4,000 dicts a frame
kept Python's collector busy (a young-generation pass every few hundred of them, a full
one of 35-90 ms every few seconds; issue 19). `Content` in the same Textual already makes
its divide cache lazily; this does the same for `Strip`.

`install` changes nothing unless `Strip` is exactly the shape this was written for (its
slots, and the caches and sizes a new strip gets), so a Textual release that changes
`Strip` keeps its own behaviour instead of a wrong patch.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

CACHE_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
PLAIN_SLOTS = {"_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}

_installed = False
EAGER_INIT = Strip.__init__  # Textual's own, kept for comparing with


def _lazy_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _cache_on_first_use(self: Strip, name: str) -> FIFOCache[object, object]:
    """Called for a slot not yet set: make the cache it names (any other name is missing)."""
    size = CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(name)
    cache: FIFOCache[object, object] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def strip_is_as_expected() -> bool:
    """Whether `Strip` has the slots and makes the caches (with these sizes) this expects."""
    if set(getattr(Strip, "__slots__", ())) != PLAIN_SLOTS | set(CACHE_SIZES):
        return False
    if "__getattr__" in vars(Strip) and not _installed:
        return False  # Strip has its own: nothing here knows what it does
    probe = Strip([])
    for name, size in CACHE_SIZES.items():
        cache = getattr(probe, name, None)
        if not isinstance(cache, FIFOCache) or len(cache):
            return False
        if getattr(cache, "_maxsize", None) != size:
            return False
    return all(hasattr(probe, name) for name in PLAIN_SLOTS)


def install() -> bool:
    """Make `Strip`'s caches lazily from now on; False (and nothing changed) when `Strip`
    is not the shape this was written for."""
    global _installed
    if _installed:
        return True
    if not strip_is_as_expected():
        return False
    Strip.__init__ = _lazy_init  # type: ignore[method-assign]
    Strip.__getattr__ = _cache_on_first_use  # type: ignore[attr-defined]
    _installed = True
    return True
