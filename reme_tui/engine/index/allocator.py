"""The C allocator's settings for a process that holds a big index for hours (the app).

glibc's malloc serves a block of 128 KiB or more with a mapping of its own, returned to
the system when freed, but it raises that threshold to the size of each such block freed
(up to 32 MiB). The index's numpy temporaries (a search's scores, a save's or a fold's
posting arrays, a burst's batches) are such blocks, so after the first save they came
from the heap, and the holes they left stayed resident: at 50,000 memories a burst of
3,000 edits and two saves left a headless session ~100 MB above what it held (issue 19).
A fixed threshold keeps every big block a mapping of its own. Each thread that allocates
also gets a heap of its own (up to 8 per core), each keeping its own holes: the app's
threads (index, save, search, preview, watcher) share two.

What a burst or a save frees inside those heaps (records replaced, the save's buffers)
stays resident until the heap shrinks from its top, which a long-lived record above it
prevents; `give_back` (after a burst, a build and a save) returns the free pages inside
them (malloc_trim).

Linux with glibc only; elsewhere (macOS, musl) nothing is changed. Only a process that
asked for `tune_allocator` (the app) gives memory back: a library user's process is left
as it was.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

_M_MMAP_THRESHOLD = -3  # mallopt parameters, from glibc's malloc.h
_M_ARENA_MAX = -8
MMAP_THRESHOLD = 1024 * 1024
ARENA_MAX = 2


_trim: Callable[[int], int] | None = None  # glibc's malloc_trim, once tuned


def tune_allocator() -> bool:
    """Set the allocator up as the docstring says; True when it was (glibc)."""
    global _trim
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
        trim = libc.malloc_trim
        version = libc.gnu_get_libc_version  # only glibc has it: musl's mallopt is a stub
    except (OSError, AttributeError):
        return False
    del version
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    _trim = trim
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    threshold_set: bool = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    arenas_set: bool = mallopt(_M_ARENA_MAX, ARENA_MAX) == 1
    return threshold_set and arenas_set


def give_back() -> None:
    """Return the free memory inside the allocator's heaps to the system (a few ms at
    50,000 memories); nothing unless `tune_allocator` set the allocator up."""
    if _trim is not None:
        _trim(0)
