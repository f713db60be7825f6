"""A loader pool forked while the process still has one thread, for builds run later in one.

The app builds its index in a worker thread, and a threaded process must not fork (a lock
another thread holds would stay locked in the child forever), while a spawned pool imports
everything again and lost to a serial build. So the app forks this pool first thing, before
Textual starts a thread or takes the terminal; a build in a thread then parses on the other
cores and leaves this process's GIL to the screen.

The workers sit idle until a build needs them. They ignore SIGINT (a signal to the process
group is the app's to handle), write nothing to the terminal, and exit when the app does,
even when it is killed (they watch their parent).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

PARENT_CHECK_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class StandbyPool:
    executor: ProcessPoolExecutor
    workers: int


_standby: StandbyPool | None = None
_lock = threading.Lock()


def fork_standby_pool(workers: int) -> bool:
    """Fork ``workers`` loader processes now; True when the pool is ready (or already was).

    Only from a process with one thread (checked: False otherwise), and only where fork
    exists. Fewer than two workers is no pool at all."""
    global _standby
    with _lock:
        if _standby is not None:
            return True
        if workers < 2 or threading.active_count() != 1:
            return False
        if "fork" not in multiprocessing.get_all_start_methods():
            return False
        try:
            executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_standby_worker,
                initargs=(os.getpid(),),
            )
            # A fork pool forks every worker on its first submit, here in this thread.
            executor.submit(int)
        except Exception:
            return False
        _standby = StandbyPool(executor, workers)
        return True


def standby_pool() -> StandbyPool | None:
    """The forked pool, or None when none was forked (or it broke and was dropped)."""
    return _standby


def drop_standby_pool() -> None:
    """Stop the pool's workers (after a failure, or when the app ends); idempotent."""
    global _standby
    with _lock:
        pool, _standby = _standby, None
    if pool is not None:
        with contextlib.suppress(Exception):
            pool.executor.shutdown(wait=False, cancel_futures=True)


def _standby_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    """A worker blocked on its queue never learns that a killed parent is gone: poll."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
