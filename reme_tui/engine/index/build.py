"""Building the index: every file from scratch (cold), or the saved index plus what moved
(warm), and putting a planned update in a slice at a time."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..files import FoundFile
from ..records import Delta, Diagnostic, DocKey, Memory
from .keyword import KeywordIndex
from .loader import load_all
from .sharing import StringPool, one_copy
from .state import IndexState, Update
from .store import Snapshot
from .updates import Planner, Scope

ProgressCallback = Callable[[int, int], None]
T = TypeVar("T")

# Items (files put into the index, memories checked for diagnostics) per hold of the index
# lock in `in_slices`: a search typed during a burst of thousands of changed files waits
# for one slice, not the burst. Measured at 10k memories, a 3,000-file burst: a search
# waited up to 4.9 s with the lock held throughout, 27-40 ms in slices (`make bench`).
APPLY_SLICE = 32
# ... and a slice ends sooner once it has held the lock this long: at 50,000 memories, with
# the screen and a diagnostics pass sharing the GIL, 32 files held it 50-120 ms (issue 19).
APPLY_SLICE_S = 0.010
# Postings are counted batch by batch so each file's token lists are dropped as soon as
# they are counted (holding them all roughly doubled peak memory).
_POSTINGS_BATCH = 512
# A saved record is trusted without reading its file only when the file's stat is older
# than the save by this much: a write in the same clock tick as the save is hashed.
TRUST_MARGIN_NS = 2_000_000_000


def let_readers_in() -> None:
    """Between slices: give up the GIL so a search waiting for the index lock takes it
    (a lock released and at once re-taken by the same thread is seldom handed over)."""
    time.sleep(0)


def in_slices(lock: threading.RLock, items: Sequence[T], work: Callable[[T], object]) -> None:
    """``work`` on every item in order, holding ``lock`` a slice at a time (at most
    APPLY_SLICE items and about APPLY_SLICE_S seconds), readers let in between."""
    done = 0
    while done < len(items):
        if done:
            let_readers_in()
        with lock:
            deadline = time.perf_counter() + APPLY_SLICE_S
            for item in items[done : done + APPLY_SLICE]:
                work(item)
                done += 1
                if time.perf_counter() >= deadline:
                    break


def commit(state: IndexState, update: Update, delta: Delta, lock: threading.RLock) -> None:
    """Put a planned update into the index, a slice at a time under ``lock``."""
    in_slices(lock, state.steps(update), lambda step: state.apply_step(step, delta))


@dataclass(slots=True)
class ColdBuild:
    """Every file parsed, postings counted: ready for `IndexState.install`."""

    keyword: KeywordIndex
    memories: list[Memory]
    failures: dict[str, Diagnostic]
    strings: StringPool  # what the memories were made to share with as they came


def cold_build(
    found: Sequence[FoundFile],
    scope: Scope,
    progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> ColdBuild | None:
    """Read and parse every found file (on every core for big scans); None if cancelled."""
    memories: list[Memory] = []
    failures: dict[str, Diagnostic] = {}
    keyword = KeywordIndex()
    pending: list[tuple[DocKey, list[str]]] = []
    # Each memory shares its repeated strings as it comes (a pickle from a worker holds
    # its own copies): the copies freed are reused by the next ones, where sharing them
    # all at the end left holes that kept the resident memory up (issue 19).
    pool, path_of = StringPool(), one_copy(item.rel for item in found)
    for loaded in load_all(
        found,
        tag_field=scope.tag_field,
        max_file_bytes=scope.max_file_bytes,
        progress=progress,
        cancel=cancel,
    ):
        if loaded.memory is not None:
            pool.share(loaded.memory, path_of)
            memories.append(loaded.memory)
            pending.extend(
                ((c.path, c.start_line), chunk_tokens)
                for c, chunk_tokens in zip(loaded.memory.chunks, loaded.tokens, strict=True)
            )
            if len(pending) >= _POSTINGS_BATCH:
                keyword.add_many(pending)
                pending = []
        elif loaded.failure is not None:
            failures[loaded.rel] = loaded.failure
    if cancel is not None and cancel.is_set():
        return None
    keyword.add_many(pending)
    return ColdBuild(keyword, memories, failures, pool)


def _stat_matches(path: str | Path, memory: Memory, trust_before_ns: int) -> bool:
    """Whether a warm start may trust the saved record without reading the file: same
    size, mtime, inode and ctime, and not changed in the seconds before the save."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (
        (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
        == (memory.size, memory.mtime_ns, memory.ino, memory.ctime_ns)
        and st.st_mtime_ns < trust_before_ns
        and st.st_ctime_ns < trust_before_ns
    )


def untrusted(
    found: Sequence[FoundFile],
    memories: dict[str, Memory],
    saved_at_ns: int,
    progress: ProgressCallback | None,
) -> Iterator[FoundFile]:
    """The found files a warm start must read again: new ones, and those whose stat moved
    (or is too recent to trust)."""
    trust_before = saved_at_ns - TRUST_MARGIN_NS
    total = len(found)
    for done, item in enumerate(found, 1):
        old = memories.get(item.rel)
        if old is None or not _stat_matches(item.abs_path, old, trust_before):
            yield item
        if progress is not None and done % 200 == 0:
            progress(done, total)


def build_cold(
    state: IndexState,
    planner: Planner,
    lock: threading.RLock,
    progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> None:
    """Every file from scratch into ``state`` (left as it was when cancelled)."""
    found, scan_diagnostics = planner.scan_all()
    built = cold_build(found, planner.scope, progress, cancel)
    if built is None:
        return
    with lock:
        state.install(
            built.keyword, built.memories, built.failures, scan_diagnostics, built.strings
        )
        state.built = True
    if progress is not None and not found:
        progress(0, 0)


def build_warm(
    state: IndexState,
    planner: Planner,
    snapshot: Snapshot,
    locks: tuple[threading.Lock, threading.RLock],
    progress: ProgressCallback | None,
    before_scan: Callable[[], None] | None = None,
) -> bool:
    """The saved index into ``state``, then what changed on disk since it was saved (only
    files whose stat moved are read). True when the saved index is now behind the files.
    Raises StoreInvalid (state left empty) when the snapshot does not hold together.

    The saved index answers queries as soon as it is restored (``state.built``), before
    the workspace is scanned: ``before_scan`` is called then. The check for changes since
    runs under the apply lock, so an update (a watcher batch, a write) waits for it."""
    apply_lock, lock = locks
    delta = Delta()
    with apply_lock:
        with lock:
            state.restore(snapshot)
            state.built = True
        if before_scan is not None:
            before_scan()
        with lock:  # what the restore deferred: updates and most views need it
            state.keyword.prepare_updates()
            state.links.prepare()
        found, scan_diagnostics = planner.scan_all()
        with lock:
            state.scan_diagnostics = scan_diagnostics
        on_disk = {item.rel for item in found}
        update = Update(forget=[p for p in state.memories if p not in on_disk])
        planner.plan_rereads(
            list(untrusted(found, state.memories, snapshot.saved_at_ns, progress)), update
        )
        commit(state, update, delta, lock)
    if progress is not None:
        progress(len(found), len(found))
    return not delta.is_empty or state.stat_only_changes
