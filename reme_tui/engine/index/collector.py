"""Pausing Python's cyclic garbage collector while an index is built.

A build allocates hundreds of thousands of long-lived objects (records, chunks, postings)
and no reference cycles worth collecting; every few thousand allocations the collector
walks the young objects, and now and then all of them. Measured on the 2-core machine, a
warm open of 50,000 memories took 3.0 s with the collector on and 1.8 s paused (10,000:
0.46 -> 0.34 s). Pauses nest and may overlap across threads: the collector runs again
when the last one ends, if it was running before the first.

Paused, the build's objects are collected later in one go: the first full collection after
a 50k build took 0.4-0.5 s, and it fell on whatever ran next (the first search). A process
that is reme-tui's own (the console script) asks for `freeze_after_builds`: the built
objects are then moved out of the collector's sight (`gc.freeze`) as the pause ends, and
no collection ever walks them. A library user's process is left as it was: frozen objects
are never collected, which only the owner of a process may decide.

A burst of changes (a sync, a checkout, an agent rewriting thousands of memories) makes
objects like a small build, and with the collector on, full collections of 50-100 ms
each fell on the keys typed while 50,000 memories were open and 3,000 of them were
applied (issue 19). An update of `BURST_PATHS` or more paths pauses it too; smaller ones
(an agent's single write) leave it alone, so nothing that lives briefly is frozen often.
A watcher hands a burst over in batches of tens to hundreds of paths, so the paths of
the updates of the last `BURST_WINDOW_S` seconds count together (`BurstWindow`): at
50,000 memories, batches under the threshold still met full collections of 40-180 ms.

What is frozen is never collected, so the cycles made during a burst's pause are collected
first: the app's other threads go on while a burst is applied (each key typed meanwhile
makes a search, its hits and their rows), and at 50,000 memories each burst of 3,000
edits froze ~150,000 of their objects for good (issue 19). Everything made while paused is
in the youngest generation, so that collection walks only it (~10-15 ms for such a burst),
not the index. A build does not: its pause makes almost no cycles (34 objects after a
50k warm start), and walking what it made took ~0.25 s.
"""

from __future__ import annotations

import gc
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from .allocator import give_back

BURST_PATHS = 200
BURST_WINDOW_S = 2.0

_lock = threading.Lock()
_depth = 0
_was_enabled = False
_freeze = False
_collect = False


def freeze_after_builds(enabled: bool = True) -> None:
    """Freeze what each build made (for a process that is reme-tui's own)."""
    global _freeze
    _freeze = enabled


@contextmanager
def collector_paused(*, others_run: bool = False) -> Iterator[None]:
    """The collector paused until the last overlapping pause ends. ``others_run``: the
    process's other threads go on meanwhile (a burst applied beside the app's UI), so
    cycles they make are collected before anything is frozen (see the module docstring)."""
    global _depth, _was_enabled, _collect
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
        _collect = _collect or others_run
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                if _freeze:
                    if _collect:
                        gc.collect(0)
                    gc.freeze()
                _collect = False
                if _was_enabled:
                    gc.enable()
                give_back()  # what the pause's work freed (records it replaced)


def paused_for(paths: int) -> AbstractContextManager[None]:
    """`collector_paused` for an update of ``paths`` changed paths when it is a burst."""
    return collector_paused(others_run=True) if paths >= BURST_PATHS else nullcontext()


class BurstWindow:
    """The paths of one engine's recent updates: batches close together are one burst."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._recent: deque[tuple[float, int]] = deque()

    def paused_for(self, paths: int) -> AbstractContextManager[None]:
        """`paused_for` counting the updates of the last `BURST_WINDOW_S` seconds too."""
        now = self._clock()
        recent = self._recent
        while recent and now - recent[0][0] > BURST_WINDOW_S:
            recent.popleft()
        recent.append((now, paths))
        return paused_for(sum(count for _, count in recent))
