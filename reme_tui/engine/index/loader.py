"""Read, parse and tokenize many memory files: serially, or on every core for big scans.

Parsing is CPU-bound pure Python (YAML, mistletoe), so a cold open of a large workspace
uses a process pool. Which pool is safe depends on the caller:
- a single-threaded process forks one for the build (cheap, nothing of the caller re-run);
- a threaded one (the app builds from a worker thread) must not fork, since a lock held
  by another thread would stay locked in the child. The app therefore forks a *standby*
  pool (`fork_standby_pool`) before it starts any thread or takes the terminal, and a
  build in a thread uses that one. Without it, a thread's build stays serial unless
  REME_TUI_WORKERS asks for a pool, which is then spawned, and only when the main module
  is reme-tui's own entry point (spawned children re-import `__main__`, and an unguarded
  user script would run again). Measured in the app on 2 cores at 10,000 memories, a
  spawned pool (which imports everything again) reached "index ready" later than the
  serial build (about 41 s against 31 s under load);
- whenever a pool fails in any way, the rest of the build stays in this process.

Spawned pools need multiprocessing's resource tracker, which is handed `sys.stderr`'s file
descriptor when it starts. A full-screen app replaces `sys.stderr` with a capture object
whose `fileno()` is -1, and the tracker's start then fails ("bad value(s) in fds_to_keep"):
`start_pool_helpers()` starts it early, while stderr is still the real one. A forked pool
needs no tracker (its semaphores are unlinked at once).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace

from ..files import FoundFile
from ..parse import ReadFailure, content_hash, parse_memory, read_file, tokenize
from ..records import Diagnostic, Memory
from .standby import drop_standby_pool, fork_standby_pool, standby_pool

PARALLEL_MIN_FILES = 2000
BATCH_SIZE = 250
WORKERS_ENV = "REME_TUI_WORKERS"


@dataclass(frozen=True, slots=True)
class Loaded:
    """One file's outcome: its Memory and chunk tokens, or the reason it could not be read."""

    rel: str
    memory: Memory | None
    failure: Diagnostic | None
    tokens: tuple[list[str], ...] = ()


def load_one(item: FoundFile, tag_field: str, max_file_bytes: int) -> Loaded:
    try:
        raw = read_file(item.abs_path, item.rel, max_file_bytes, inside=item.inside)
    except ReadFailure as failure:
        return Loaded(item.rel, None, failure.diagnostic)
    memory = parse_memory(item.rel, raw, tag_field=tag_field)
    return Loaded(item.rel, memory, None, tuple(tokenize(c.text) for c in memory.chunks))


@dataclass(frozen=True, slots=True)
class Reread:
    """One file read again for an incremental update (done outside the index lock).

    ``memory`` is the file now: with ``tokens`` and ``data`` when its content changed, or
    the old record with only its stat moved (``content_changed`` False). ``failure`` says
    why it could not be read."""

    rel: str
    memory: Memory | None = None
    failure: Diagnostic | None = None
    tokens: tuple[list[str], ...] = ()
    data: bytes = b""
    content_changed: bool = True
    restat: tuple[int, int, int, int] | None = None  # size, mtime, inode, ctime (a pool's)


Stamp = tuple[str, int, int, int, int]  # content hash, size, mtime, inode, ctime


def stamp_of(memory: Memory | None) -> Stamp | None:
    if memory is None:
        return None
    return (memory.content_hash, memory.size, memory.mtime_ns, memory.ino, memory.ctime_ns)


def reread_one(
    item: FoundFile, old: Memory | None, tag_field: str, max_file_bytes: int, inside: str
) -> Reread | None:
    """The file as it is now, compared with its ``old`` record; None when nothing moved.
    An event means "maybe changed", so content is compared, not the stat."""
    return _with_old_record(old, _reread(item, stamp_of(old), tag_field, max_file_bytes, inside))


REREAD_POOL_MIN = 500  # fewer files are read here: a round trip costs more than it saves


def reread_many(
    items: Sequence[tuple[FoundFile, Memory | None]],
    tag_field: str,
    max_file_bytes: int,
    inside: str,
) -> list[Reread | None]:
    """`reread_one` for each (file, old record), in order; a big burst read in a thread
    goes to the standby pool (the old records stay here: only their stamps travel)."""

    def here() -> list[Reread | None]:
        # Every reread is held until the update lands: one string per distinct token
        # across them, each file's duplicates freed (and their room reused) at once.
        seen: dict[str, str] = {}
        rereads = []
        for item, old in items:
            reread = reread_one(item, old, tag_field, max_file_bytes, inside)
            if reread is not None:
                _one_string_per_token([reread.tokens], seen)
            rereads.append(reread)
        return rereads

    standby = standby_pool() if len(items) >= REREAD_POOL_MIN else None
    if standby is None or threading.current_thread() is threading.main_thread():
        return here()
    batches = [
        [(item, stamp_of(old)) for item, old in items[i : i + BATCH_SIZE]]
        for i in range(0, len(items), BATCH_SIZE)
    ]
    global standby_bursts
    standby_bursts += 1
    results: list[Reread | None] = []
    try:
        pending = [
            standby.executor.submit(_reread_batch, batch, tag_field, max_file_bytes, inside)
            for batch in batches
        ]
        for future in pending:
            results.extend(future.result())
    except Exception:
        drop_standby_pool()  # broken for good: this burst and later ones are read here
        return here()
    return [_with_old_record(old, reread) for (_, old), reread in zip(items, results, strict=True)]


def _reread_batch(
    batch: Sequence[tuple[FoundFile, Stamp | None]],
    tag_field: str,
    max_file_bytes: int,
    inside: str,
) -> list[Reread | None]:
    rereads = [_reread(item, stamp, tag_field, max_file_bytes, inside) for item, stamp in batch]
    _one_string_per_token(r.tokens for r in rereads if r is not None)
    return rereads


def _reread(
    item: FoundFile, old: Stamp | None, tag_field: str, max_file_bytes: int, inside: str
) -> Reread | None:
    try:
        raw = read_file(item.abs_path, item.rel, max_file_bytes, inside=inside)
    except ReadFailure as failure:
        return Reread(item.rel, failure=failure.diagnostic)
    if old is not None and old[0] == content_hash(raw.data):
        stat = (raw.size, raw.mtime_ns, raw.ino, raw.ctime_ns)
        if old[1:] == stat:
            return None
        return Reread(item.rel, content_changed=False, restat=stat)
    memory = parse_memory(item.rel, raw, tag_field=tag_field)
    return Reread(
        item.rel, memory, tokens=tuple(tokenize(c.text) for c in memory.chunks), data=raw.data
    )


def _with_old_record(old: Memory | None, reread: Reread | None) -> Reread | None:
    """A stat-only change carries the old record with the new stat."""
    if reread is None or reread.restat is None or old is None:
        return reread
    size, mtime_ns, ino, ctime_ns = reread.restat
    moved = replace(old, size=size, mtime_ns=mtime_ns, ino=ino, ctime_ns=ctime_ns)
    return replace(reread, memory=moved, restat=None)


def _load_batch(batch: Sequence[FoundFile], tag_field: str, max_file_bytes: int) -> list[Loaded]:
    loaded = [load_one(item, tag_field, max_file_bytes) for item in batch]
    _one_string_per_token(one.tokens for one in loaded)
    return loaded


def _one_string_per_token(
    token_lists: Iterable[Sequence[list[str]]], seen: dict[str, str] | None = None
) -> None:
    """Make equal tokens across a worker's batch one string object, so its pickle holds
    each distinct token once. Each occurrence used to arrive as a string of its own (~25
    million at 50,000 memories), unpickled among the memory records that stay and freed
    a batch later: the holes kept a cold build ~130 MB above a warm start (issue 19)."""
    one = ({} if seen is None else seen).setdefault
    for lists in token_lists:
        for tokens in lists:
            tokens[:] = [one(token, token) for token in tokens]


def worker_count(files: int, *, in_thread: bool | None = None) -> int:
    """How many processes to use for `files` files (1 = stay in this process); `in_thread`
    (default: whether this is not the main thread) keeps a build beside a UI serial."""
    configured = os.environ.get(WORKERS_ENV)
    if configured:
        try:
            return max(1, int(configured))
        except ValueError:
            pass  # reported by worker_setting_problem; choose as if unset
    if in_thread is None:
        in_thread = threading.current_thread() is not threading.main_thread()
    if files < PARALLEL_MIN_FILES or in_thread:
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


def worker_setting_problem() -> str | None:
    """What is wrong with ``$REME_TUI_WORKERS`` (None when it is unset or a positive number)."""
    configured = os.environ.get(WORKERS_ENV)
    if not configured:
        return None
    try:
        value = int(configured)
    except ValueError:
        return f"{WORKERS_ENV}={configured!r} is not a number; choosing the worker count myself"
    if value < 1:
        return f"{WORKERS_ENV}={configured!r} is below 1; indexing in one process"
    return None


def start_pool_helpers() -> None:
    """Start multiprocessing's resource tracker now if a spawned pool may be needed later.

    Call it from the main thread before anything replaces `sys.stderr` (the app does, before
    it takes over the terminal). Failing here only means the build may end up serial.
    """
    if worker_count(PARALLEL_MIN_FILES, in_thread=True) == 1:
        return
    from multiprocessing import resource_tracker

    with contextlib.suppress(Exception):
        resource_tracker.ensure_running()


def fork_pool_for_threads() -> bool:
    """Fork the standby pool a later build in a thread will use (see `standby`), sized as
    a headless build's pool; call it from the main thread before any other starts."""
    return fork_standby_pool(worker_count(PARALLEL_MIN_FILES, in_thread=False))


def load_all(
    items: Sequence[FoundFile],
    *,
    tag_field: str,
    max_file_bytes: int,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[Loaded]:
    """Loaded records in the order of `items`; stops early when `cancel` is set."""
    total = len(items)
    standby = standby_pool() if total >= PARALLEL_MIN_FILES else None
    if standby is not None and threading.current_thread() is not threading.main_thread():
        global standby_builds
        standby_builds += 1
        yield from _load_in_pool(
            standby.executor,
            standby.workers,
            items,
            tag_field,
            max_file_bytes,
            progress,
            cancel,
            on_failure=drop_standby_pool,  # broken for good: later builds stay here
        )
        return
    workers = worker_count(total)
    method = start_method() if workers > 1 else None
    if method is None:
        yield from _load_serially(items, tag_field, max_file_bytes, progress, cancel)
        return
    try:
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_quiet_worker if method == "spawn" else None,
        )
    except Exception:
        yield from _load_serially(items, tag_field, max_file_bytes, progress, cancel)
        return
    try:
        yield from _load_in_pool(pool, workers, items, tag_field, max_file_bytes, progress, cancel)
    except BaseException:  # Ctrl-C, SIGTERM (a KeyboardInterrupt), or the caller stopped early
        _abandon(pool)
        raise
    pool.shutdown()


def _abandon(pool: ProcessPoolExecutor) -> None:
    """Stop the pool without waiting for the batches in flight: a Ctrl-C or SIGTERM during
    a 10,000-file build otherwise waited seconds for them. The executor has no public way
    to stop its workers; without the attribute they finish their batch and exit."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        with contextlib.suppress(Exception):
            process.terminate()


standby_builds = 0  # builds whose parsing the standby pool did (what tests check)
standby_bursts = 0  # bursts of changes it read


def _load_in_pool(
    pool: ProcessPoolExecutor,
    workers: int,
    items: Sequence[FoundFile],
    tag_field: str,
    max_file_bytes: int,
    progress: Callable[[int, int], None] | None,
    cancel: threading.Event | None,
    on_failure: Callable[[], None] | None = None,
) -> Iterator[Loaded]:
    delivered = 0
    try:
        results = _bounded_map(pool, _batches(items), workers * 2, tag_field, max_file_bytes)
        for loaded in _report(results, len(items), progress, cancel):
            yield loaded
            delivered += 1
    except Exception:
        # Any pool failure (it cannot start, a worker dies, ...): a serial build of
        # whatever the pool did not deliver is always correct.
        if on_failure is not None:
            on_failure()
        yield from _load_serially(
            items[delivered:], tag_field, max_file_bytes, progress, cancel, len(items), delivered
        )


def _batches(items: Sequence[FoundFile]) -> list[Sequence[FoundFile]]:
    return [items[i : i + BATCH_SIZE] for i in range(0, len(items), BATCH_SIZE)]


def _load_serially(
    items: Sequence[FoundFile],
    tag_field: str,
    max_file_bytes: int,
    progress: Callable[[int, int], None] | None,
    cancel: threading.Event | None,
    total: int | None = None,
    already_done: int = 0,
) -> Iterator[Loaded]:
    results = (_load_batch(b, tag_field, max_file_bytes) for b in _batches(items))
    yield from _report(
        results, len(items) if total is None else total, progress, cancel, already_done
    )


def _quiet_worker() -> None:
    """Spawned workers inherit the terminal as stdout/stderr: keep them off the app's screen."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def _bounded_map(
    pool: ProcessPoolExecutor,
    batches: list[Sequence[FoundFile]],
    window: int,
    tag_field: str,
    max_file_bytes: int,
) -> Iterator[list[Loaded]]:
    """Results in order with at most `window` batches in flight, so finished batches do not
    pile up in memory while earlier ones are being indexed."""
    pending: deque[Future[list[Loaded]]] = deque()
    queued = iter(batches)
    try:
        for batch in queued:
            pending.append(pool.submit(_load_batch, batch, tag_field, max_file_bytes))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def start_method() -> str | None:
    """ "fork", "spawn", or None (stay serial); see the module docstring for why."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    main_file = os.path.basename(getattr(main, "__file__", "") or "")
    if (spec is not None and spec.name == "reme_tui.__main__") or main_file == "reme-tui":
        return "spawn"
    return None


def _report(
    results: Iterator[list[Loaded]],
    total: int,
    progress: Callable[[int, int], None] | None,
    cancel: threading.Event | None,
    already_done: int = 0,
) -> Iterator[Loaded]:
    done = already_done
    for batch in results:
        if cancel is not None and cancel.is_set():
            return
        yield from batch
        done += len(batch)
        if progress is not None:
            progress(done, total)
