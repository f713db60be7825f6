"""Pausing Python's cyclic garbage collector while an index is built.

A build allocates hundreds of thousands of long-lived objects (records, chunks, postings)
and no reference cycles worth collecting; every few thousand allocations the collector
walks the young objects, and now and then all of them. Measured on the 2-core machine, a
warm open of 50,000 memories took 3.0 s with the collector on and 1.8 s paused (10,000:
0.46 -> 0.34 s). Pauses nest and may overlap across threads: the collector runs again
when the last one ends, if it was running before the first.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
