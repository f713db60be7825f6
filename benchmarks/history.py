"""The change history's targets (issue 15), for `make bench` or alone:

``python -m benchmarks.history [--memories 10000]``

* recording on the live path: ``Engine.apply`` of one changed file with and without a
  history attached (the difference is what recording costs), and ``record`` alone;
* a 5,000-file burst applied the way the app does it (``asyncio.to_thread``) while a
  10 ms ticker runs on the event loop: the burst's time and the loop's longest stall;
* 10 versions of every memory (agent-like edits: a tag renamed, a line appended, a
  paragraph rewritten): the history's size against the same texts compressed;
* the Changes view opened on a history of 10,000 entries, in the headless app: from the
  key press to the timeline filled.

The history lives in a temporary data directory; the workspace is restored afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import zstandard

from benchmarks.generate import generate

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
BURST = 5_000
VERSIONS = 10


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def live_path_rows(root: Path, data: Path) -> dict[str, float]:
    from reme_tui.engine import Engine
    from reme_tui.engine.history import ChangeHistory, Observed

    engine = Engine.open(root)
    targets = sorted(engine.paths())[:: max(1, engine.memory_count // 30)][:30]
    originals = {t: (root / t).read_bytes() for t in targets}

    def rounds(label: str) -> list[float]:
        times = []
        for i, target in enumerate(targets):
            (root / target).write_bytes(originals[target] + f"\n{label} {i} budget\n".encode())
            start = time.perf_counter()
            engine.apply([target])
            times.append(_ms(start))
        return times

    try:
        without = rounds("plain")
        history = ChangeHistory(data / "live.sqlite3")
        engine.attach_history(history)
        engine.sync_history()  # the baseline
        inside: list[float] = []
        record = history.record

        def timed_record(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return record(*args, **kwargs)  # type: ignore[arg-type]
            finally:
                inside.append(_ms(start))

        history.record = timed_record  # type: ignore[method-assign]
        with_history = rounds("recorded")
        history.record = record  # type: ignore[method-assign]
        record_only = []
        for i, target in enumerate(targets):
            observed = Observed(target, originals[target] + f"\nalone {i}\n".encode())
            start = time.perf_counter()
            history.record([observed])
            record_only.append(_ms(start))
    finally:
        for target, data_bytes in originals.items():
            (root / target).write_bytes(data_bytes)
    return {
        "history: apply 1 file, no history (ms)": statistics.median(without),
        "history: apply 1 file, recorded (ms)": statistics.median(with_history),
        "history: recording inside apply, per file p50 (ms)": statistics.median(inside),
        "history: recording inside apply, per file max (ms)": max(inside),
        "history: record() alone p50 (ms)": statistics.median(record_only),
        "history: record() alone max (ms)": max(record_only),
    }


def burst_rows(root: Path, data: Path) -> dict[str, float]:
    from reme_tui.engine import Engine
    from reme_tui.engine.history import ChangeHistory, Observed

    engine = Engine.open(root)
    gc.freeze()  # as the app does once its index is built
    engine.attach_history(ChangeHistory(data / "burst.sqlite3"))
    engine.sync_history()
    targets = sorted(engine.paths())[:BURST]
    originals = {t: (root / t).read_bytes() for t in targets}
    for t in targets:
        (root / t).write_bytes(originals[t].replace(b"memory_tags: [", b"memory_tags: [burst, ", 1))

    async def run(work: Callable[[], object]) -> tuple[float, float]:
        stalls: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            last = time.perf_counter()
            while not done.is_set():
                await asyncio.sleep(0.01)
                now = time.perf_counter()
                stalls.append((now - last) * 1000 - 10)
                last = now

        tick = asyncio.create_task(ticker())
        start = time.perf_counter()
        await asyncio.to_thread(work)
        total = time.perf_counter() - start
        done.set()
        await tick
        return total, max(stalls)

    history = engine.history
    assert history is not None
    record = history.record
    spent: list[float] = []

    def timed_record(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return record(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            spent.append(time.perf_counter() - start)

    history.record = timed_record  # type: ignore[method-assign]
    try:
        total, stall = asyncio.run(run(lambda: engine.apply(targets)))
        recorded = len(engine.last_record.entries)
        observed = [Observed(t, originals[t] + b"\nagain\n") for t in targets]
        record_total, record_stall = asyncio.run(run(lambda: record(observed)))
    finally:
        gc.unfreeze()
        for t, data_bytes in originals.items():
            (root / t).write_bytes(data_bytes)
    return {
        "history: burst files": recorded,
        "history: burst applied+recorded, as the app does (s)": total,
        "history: of which recording (s)": sum(spent),
        "history: event loop longest stall, apply+record (ms)": stall,
        "history: burst recorded alone (s)": record_total,
        "history: recording alone per file (ms)": record_total * 1000 / len(targets),
        "history: event loop longest stall, record alone (ms)": record_stall,
    }


def _version(text: str, n: int, rng: random.Random) -> str:
    """An agent-like edit of one memory, the n-th since the first."""
    kind = n % 3
    if kind == 0:
        return text.replace("memory_tags: [", f"memory_tags: [topic_{rng.randrange(50)}, ", 1)
    if kind == 1:
        return text + f"\nFollow-up {n}: the agent noted item {rng.randrange(999)}.\n"
    paragraphs = text.split("\n\n")
    index = rng.randrange(1, len(paragraphs)) if len(paragraphs) > 1 else 0
    words = paragraphs[index].split()
    rng.shuffle(words)
    paragraphs[index] = " ".join(words)
    return "\n\n".join(paragraphs)


def size_rows(root: Path, data: Path, count: int) -> dict[str, float]:
    from reme_tui.engine.history import ChangeHistory, Observed

    rng = random.Random(3)
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))[:count]
    texts = {p: (root / p).read_text(encoding="utf-8") for p in paths}
    history = ChangeHistory(data / "size.sqlite3")
    history.record_baseline(Observed(p, t.encode()) for p, t in texts.items())
    compressor = zstandard.ZstdCompressor(level=3)
    raw = sum(len(t.encode()) for t in texts.values())
    each_alone = sum(len(compressor.compress(t.encode())) for t in texts.values())
    current_alone = each_alone
    start = time.perf_counter()
    for n in range(1, VERSIONS):
        for offset in range(0, len(paths), 1000):
            batch = []
            for p in paths[offset : offset + 1000]:
                texts[p] = _version(texts[p], n, rng)
                batch.append(Observed(p, texts[p].encode()))
            history.record(batch)
        raw += sum(len(t.encode()) for t in texts.values())
        each_alone += sum(len(compressor.compress(t.encode())) for t in texts.values())
    elapsed = time.perf_counter() - start
    with history._lock:  # a checkpoint so the size is the database, not a WAL backlog
        history._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = history.size_bytes()
    return {
        "history: memories × versions": len(paths) * VERSIONS,
        "history: text of all versions (MB)": raw / 1e6,
        "history: all versions zstd-compressed one by one (MB)": each_alone / 1e6,
        "history: one version compressed (MB)": current_alone / 1e6,
        "history: database size (MB)": size / 1e6,
        "history: size / versions compressed": size / each_alone,
        "history: size / one version compressed": size / current_alone,
        "history: recording 9 versions, per file (ms)": elapsed * 1000 / (len(paths) * 9),
    }


def view_rows(root: Path, data: Path) -> dict[str, float]:
    """Open the Changes view on 10,000 entries in the headless app."""
    from reme_tui.config import HistorySettings, Settings
    from reme_tui.engine import Engine
    from reme_tui.engine.history import ChangeHistory, Observed
    from reme_tui.ui.app import make_app
    from reme_tui.ui.options import AppOptions
    from reme_tui.ui.screens.changes import ChangesScreen

    history = ChangeHistory(data / "view.sqlite3")
    history.record_baseline([])
    for batch in range(10):
        history.record(
            [
                Observed(f"daily/2026-01-{1 + i % 28:02d}/m{i}.md", f"v{batch} {i}\n".encode())
                for i in range(1000)
            ],
            time_ns=time.time_ns() - (10 - batch) * 3_600_000_000_000,
        )
    engine = Engine.open(root)
    engine.attach_history(history)
    settings = Settings(history=HistorySettings(enabled=True))
    opens: list[float] = []

    async def drive() -> None:
        options = AppOptions(watch=False, build=False, persist_theme=False)
        app = make_app(root, settings, options, engine=engine)
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.pause(0.3)
            for _ in range(5):
                start = time.perf_counter()
                app.action_changes()  # what `c` and the palette command run
                for _ in range(5000):
                    if isinstance(app.screen, ChangesScreen) and app.screen.loaded:
                        break
                    await asyncio.sleep(0.002)
                await pilot.pause()
                opens.append(_ms(start))
                await pilot.press("escape")
                await pilot.pause(0.2)

    asyncio.run(drive())
    return {
        "history: Changes view entries": history.stats().entries,
        "history: open Changes view, first time (ms)": opens[0],
        "history: open Changes view again p50 (ms)": statistics.median(opens[1:]),
    }


def history_rows(root: Path, count: int) -> dict[str, float]:
    rows: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        os.environ["XDG_DATA_HOME"] = str(data / "xdg")
        rows.update(live_path_rows(root, data))
        rows.update(burst_rows(root, data))
        rows.update(size_rows(root, data, count))
        rows.update(view_rows(root, data))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args(argv)
    root = generate(WORKSPACES / f"ws-{args.memories}", args.memories)
    rows = history_rows(root, args.memories)
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
