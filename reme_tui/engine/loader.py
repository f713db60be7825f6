"""Read, parse and tokenize many memory files: serially, or on every core for big scans.

Parsing is CPU-bound pure Python (YAML, mistletoe), so a cold open of a large workspace
uses a process pool. Workers are spawned, not forked: the app builds its index from a
thread, and forking a threaded process can deadlock on locks held by other threads.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from .document import ReadFailure, parse_memory, read_file
from .model import Diagnostic, Memory
from .tokenize import tokenize
from .workspace import FoundFile

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
        raw = read_file(item.abs_path, item.rel, max_file_bytes)
    except ReadFailure as failure:
        return Loaded(item.rel, None, failure.diagnostic)
    memory = parse_memory(item.rel, raw, tag_field=tag_field)
    return Loaded(item.rel, memory, None, tuple(tokenize(c.text) for c in memory.chunks))


def _load_batch(batch: Sequence[FoundFile], tag_field: str, max_file_bytes: int) -> list[Loaded]:
    return [load_one(item, tag_field, max_file_bytes) for item in batch]


def worker_count(files: int) -> int:
    """How many processes to use for `files` files (1 = stay in this process)."""
    configured = os.environ.get(WORKERS_ENV)
    if configured:
        try:
            return max(1, int(configured))
        except ValueError:
            pass
    if files < PARALLEL_MIN_FILES:
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


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
    batches = [items[i : i + BATCH_SIZE] for i in range(0, total, BATCH_SIZE)]
    workers = worker_count(total)
    if workers == 1:
        results: Iterator[list[Loaded]] = (
            _load_batch(b, tag_field, max_file_bytes) for b in batches
        )
        yield from _report(results, total, progress, cancel)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_load_batch, b, tag_field, max_file_bytes) for b in batches]
        try:
            yield from _report((f.result() for f in futures), total, progress, cancel)
        finally:
            for future in futures:
                future.cancel()


def _report(
    results: Iterator[list[Loaded]],
    total: int,
    progress: Callable[[int, int], None] | None,
    cancel: threading.Event | None,
) -> Iterator[Loaded]:
    done = 0
    for batch in results:
        if cancel is not None and cancel.is_set():
            return
        yield from batch
        done += len(batch)
        if progress is not None:
            progress(done, total)
