"""Live-index figures for `make bench`: warm opens from the saved index, write-to-searchable
latency through the real watcher, and how long a burst of thousands of files takes to settle.

Every function leaves the workspace as it found it (files restored, burst folders removed),
so the generated workspaces stay reusable. The saved index lives in a private cache dir
under benchmarks/.workspaces (git-ignored), never the user's cache.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reme_tui.engine import Engine
from reme_tui.engine.files import watch_batches
from reme_tui.engine.index import IndexStore
from reme_tui.engine.search import SearchQuery

TRUST_WINDOW_S = 2.1  # files newer than this at save time are re-hashed by the next open
SETTLE_TIMEOUT_S = 120.0


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))]


def _store(root: Path, cache_dir: Path) -> IndexStore:
    return IndexStore(root, cache_dir=cache_dir)


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def _fresh_store(root: Path, cache_dir: Path) -> Engine:
    """Cold-build and save, making sure every file is old enough to be trusted by stat."""
    shutil.rmtree(cache_dir, ignore_errors=True)
    engine = Engine.open(root, store=_store(root, cache_dir))
    newest = max((root / p).stat().st_mtime for p in engine.paths())
    wait = TRUST_WINDOW_S - (time.time() - newest)
    if wait > 0:
        time.sleep(wait)
        engine.save()
    return engine


def warm_open(root: Path, cache_dir: Path, repeats: int = 3) -> dict[str, float]:
    """Open with the saved index present and nothing changed since it was saved."""
    _fresh_store(root, cache_dir)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        Engine.open(root, store=_store(root, cache_dir))
        times.append(time.perf_counter() - start)
    return {"warm open (s)": statistics.median(times)}


def warm_open_after_changes(
    root: Path, cache_dir: Path, fraction: float = 0.01, repeats: int = 3
) -> dict[str, float]:
    """Open with the saved index present after `fraction` of the files were edited."""
    engine = _fresh_store(root, cache_dir)
    paths = engine.paths()
    step = max(1, round(1 / fraction))
    originals: dict[Path, bytes] = {}
    times = []
    try:
        for rep in range(repeats):
            for rel in paths[rep::step]:
                path = root / rel
                originals.setdefault(path, path.read_bytes())
                _write(path, originals[path].decode("utf-8") + f"\nedited in rep {rep} budget\n")
            start = time.perf_counter()
            Engine.open(root, store=_store(root, cache_dir))
            times.append(time.perf_counter() - start)
    finally:
        for path, data in originals.items():
            path.write_bytes(data)
    return {f"warm open after {fraction:.0%} changed (s)": statistics.median(times)}


class _Watcher:
    """The real watcher in a background thread, applying every batch to the engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, name="bench-watcher", daemon=True)

    def _run(self) -> None:
        try:
            for batch in watch_batches(self.engine.root, stop_event=self.stop):
                self.engine.apply(batch)
        except BaseException as exc:
            self.errors.append(exc)

    def wait(self, done: object, what: str, poll_s: float = 0.005) -> None:
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while not done():  # type: ignore[operator]
            if self.errors:
                raise self.errors[0]
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            time.sleep(poll_s)

    def arm(self, folder: Path) -> None:
        """Touch a probe memory until the watcher indexes it, then remove it again."""
        probe = folder / "probe.md"
        rel = probe.relative_to(self.engine.root).as_posix()
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        count = 0
        while self.engine.memory(rel) is None:
            if self.errors:
                raise self.errors[0]
            if time.monotonic() > deadline:
                raise TimeoutError("the watcher never started")
            count += 1
            _write(probe, f"probe {count}\n")
            time.sleep(0.1)
        probe.unlink()
        self.wait(lambda: self.engine.memory(rel) is None, "the probe to go")


@contextmanager
def _watching(engine: Engine) -> Iterator[_Watcher]:
    watcher = _Watcher(engine)
    watcher.thread.start()
    try:
        yield watcher
    finally:
        watcher.stop.set()
        watcher.thread.join(timeout=10)


def _found(engine: Engine, word: str, rel: str) -> bool:
    return any(h.path == rel for h in engine.search(SearchQuery(text=word, limit=5)).hits)


def write_to_searchable(root: Path, cache_dir: Path, writes: int = 50) -> dict[str, float]:
    """Milliseconds from a file write to `search` finding its unique word, with the real
    watcher applying batches. Alternates new files and edits of existing memories."""
    engine = Engine.open(root, store=_store(root, cache_dir))
    root = engine.root
    folder = root / "digest" / "bench-live"
    folder.mkdir(parents=True, exist_ok=True)
    existing = engine.paths()[:: max(1, engine.memory_count // writes)][:writes]
    originals: dict[Path, bytes] = {}
    latencies: list[float] = []
    try:
        with _watching(engine) as watcher:
            watcher.arm(folder)
            for i in range(writes):
                word = f"zqlive{i}x{os.getpid()}"
                if i % 2 == 0:
                    path = folder / f"w{i}.md"
                    text = f"---\nmemory_tags: [live]\n---\nfresh {word} budget\n"
                else:
                    path = root / existing[i % len(existing)]
                    originals.setdefault(path, path.read_bytes())
                    text = originals[path].decode("utf-8") + f"\nedited {word}\n"
                rel = path.relative_to(root).as_posix()
                start = time.perf_counter()
                _write(path, text)
                watcher.wait(lambda w=word, r=rel: _found(engine, w, r), f"{rel} searchable")
                latencies.append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)  # independent writes, not one burst
            shutil.rmtree(folder)
            for path, data in originals.items():
                path.write_bytes(data)
            watcher.wait(
                lambda: not any(p.startswith("digest/bench-live/") for p in engine.paths()),
                "cleanup",
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        for path, data in originals.items():
            path.write_bytes(data)
    return {
        "write-to-searchable p50 (ms)": statistics.median(latencies),
        "write-to-searchable p95 (ms)": _percentile(latencies, 95),
    }


def burst_settle(root: Path, cache_dir: Path, files: int = 5_000) -> dict[str, float]:
    """Seconds from the first write of a burst (new folders of new memories, as a
    checkout writes them) until the index holds every file; then checks it equals a
    rebuild (untimed)."""
    engine = Engine.open(root, store=_store(root, cache_dir))
    root = engine.root
    base = engine.memory_count
    burst = root / "daily" / "bench-burst"
    per_folder = 100
    try:
        with _watching(engine) as watcher:
            watcher.arm(root / "digest")
            start = time.perf_counter()
            for f in range(files // per_folder):
                folder = burst / f"part{f:03d}"
                folder.mkdir(parents=True)
                for i in range(per_folder):
                    _write(
                        folder / f"n{i}.md",
                        f"---\nmemory_tags: [burst{i % 7}]\n---\nburst note {f}x{i} budget\n",
                    )
            watcher.wait(lambda: engine.memory_count == base + files, "the burst", poll_s=0.02)
            settled = time.perf_counter() - start
            equal = engine.fingerprint() == Engine.open(root).fingerprint()
            shutil.rmtree(burst)
            watcher.wait(lambda: engine.memory_count == base, "the burst's removal", poll_s=0.02)
    finally:
        shutil.rmtree(burst, ignore_errors=True)
    return {
        f"{files:,}-file burst settled (s)": settled,
        "burst index == rebuild": float(equal),
    }


def search_during_burst(root: Path, files: int = 3_000) -> dict[str, float]:
    """A burst of `files` edited memories (all of them in a smaller workspace) applied as
    the app applies a watcher batch (one `apply` in a thread, the collector frozen after
    the build) while the event loop asks a search every 20 ms, also in a thread: how long
    a search waits for its answer. Before batches went in by slices it waited for the
    whole burst (4.9 s for 3,000 files at 10k)."""
    engine = Engine.open(root)
    gc.freeze()
    targets = sorted(engine.paths())[:files]
    originals = {t: (root / t).read_bytes() for t in targets}
    query = SearchQuery(text="budget vendor")

    async def burst() -> tuple[float, list[float]]:
        waits: list[float] = []
        applying = asyncio.create_task(asyncio.to_thread(engine.apply, targets))
        start = time.perf_counter()
        while not applying.done():
            asked = time.perf_counter()
            await asyncio.to_thread(engine.search, query)
            waits.append((time.perf_counter() - asked) * 1000)
            await asyncio.sleep(0.02)
        await applying
        return time.perf_counter() - start, waits

    try:
        for t in targets:
            (root / t).write_bytes(originals[t].replace(b"\n\n", b"\n\nburst line\n\n", 1))
        took, waits = asyncio.run(burst())
    finally:
        gc.unfreeze()
        for t, data in originals.items():
            (root / t).write_bytes(data)
    return {
        "edit burst (3,000 files or all) applied (s)": took,
        "search during the burst: wait p50 (ms)": statistics.median(waits),
        "search during the burst: wait max (ms)": max(waits),
    }


def live_rows(root: Path, cache_dir: Path) -> dict[str, float]:
    """Every live-index figure for one workspace."""
    rows: dict[str, float] = {}
    rows.update(warm_open(root, cache_dir))
    rows.update(warm_open_after_changes(root, cache_dir))
    rows.update(write_to_searchable(root, cache_dir))
    rows.update(burst_settle(root, cache_dir))
    rows.update(search_during_burst(root))
    shutil.rmtree(cache_dir, ignore_errors=True)
    return rows
