"""Print a table of medians at several workspace sizes (`make bench`).

Each size runs in its own subprocess, and peak RSS is taken in yet another one that does
nothing but open the workspace once, so it is the memory an open index costs. Workspaces are
generated once under benchmarks/.workspaces/ (git-ignored) and reused.

`--peer` adds a second table measured side by side with the real ReMe (see peer.py), at
2,000 and 10,000 memories (`--peer-sizes`); `--terminal` a third, the installed app in a
real pseudo-terminal (see terminal.py), at 10,000 and 50,000 (`--terminal-sizes`).
`--only peer` (or `terminal`, `engine`, `suggest`) runs just that table. The default run
ends with the tag-suggestion quality table (see tag_suggest.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.generate import COMMON, generate
from benchmarks.peer import PEER_SIZES, measure_peer
from benchmarks.tag_suggest import print_suggestion_table, suggestion_rows
from benchmarks.terminal import TERMINAL_SIZES, terminal_rows

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
DEFAULT_SIZES = (1_000, 10_000, 50_000)
UI_MAX_SIZE = 10_000  # the app rows build the index in-app (cold): skipped at 50k


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def measure(size: int) -> dict[str, float]:
    """All engine figures for one workspace size (run inside a fresh process)."""
    from reme_tui.engine import Engine
    from reme_tui.engine.search import Filters, SearchQuery

    root = generate(WORKSPACES / f"ws-{size}", size)
    # The app rows record a change history: keep it out of the user's data directory.
    os.environ["XDG_DATA_HOME"] = str(WORKSPACES / f"data-{size}")
    rows: dict[str, float] = {}
    opens = []
    engine = None
    for _ in range(1 if size >= 50_000 else 3):
        start = time.perf_counter()
        engine = Engine.open(root)
        opens.append(time.perf_counter() - start)
    assert engine is not None
    rows["memories"] = engine.memory_count
    rows["chunks"] = engine.chunk_count
    rows["cold open (s)"] = statistics.median(opens)

    rng = random.Random(1)
    words = [w for w in COMMON] + ["kalo", "mido", "rento", "sador"]
    queries = [" ".join(rng.sample(words, 2)) for _ in range(200)]
    top_tags = [tag for tag, _ in engine.list_tags()[:5]]
    for label, extra in (
        ("no filter", {}),
        ("tag filter", {"filters": Filters(tags=tuple(top_tags[:2]))}),
        ("date filter", {"filters": Filters(since="2024-06-01", until="2024-12-31")}),
    ):
        times = [
            timed(lambda q=q, x=extra: engine.search(SearchQuery(text=q, **x))) for q in queries
        ]
        rows[f"query {label} p50 (ms)"] = statistics.median(times)
        rows[f"query {label} p95 (ms)"] = percentile(times, 95)

    target = sorted(engine.paths())[size // 2]
    path = root / target
    original = path.read_text(encoding="utf-8")
    update_times = []
    for i in range(30):
        path.write_text(original + f"\nupdate {i} budget\n", encoding="utf-8")
        update_times.append(timed(lambda: engine.apply([target])))
    path.write_text(original, encoding="utf-8")
    engine.apply([target])
    rows["one-file update (ms)"] = statistics.median(update_times)
    from reme_tui.engine.tags import detect_duplicates

    rows["tag-dupe detection (ms)"] = timed(lambda: detect_duplicates(engine))
    rows.update(rank_bm25_ratio(engine, queries[:20], rows["query no filter p50 (ms)"]))
    from benchmarks.live import live_rows

    rows.update(live_rows(root, WORKSPACES / f"cache-{size}"))
    rows.update(hybrid_rows(engine, queries, top_tags[:2]))
    if size <= UI_MAX_SIZE:
        from benchmarks.ui import ui_rows

        rows.update(ui_rows(root))
        from benchmarks.history import history_rows

        rows.update(history_rows(root, size))
        from benchmarks.mcp_server import mcp_rows

        rows.update(mcp_rows(root, size))
    return rows


def hybrid_rows(engine, queries: list[str], tags: list[str]) -> dict[str, float]:
    """Semantic search with a synthetic model of potion-base-8M's shape (29,528 words, 256-d)
    whose vocabulary covers the workspace's words: embedding every chunk, hybrid queries."""
    import tempfile

    from benchmarks.bench_vectors import synthetic_model
    from reme_tui.engine.index import load_model
    from reme_tui.engine.search import Filters, SearchQuery

    with tempfile.TemporaryDirectory() as tmp:
        words = sorted({w for q in queries for w in q.split()} | _workspace_words(engine))
        embedder = load_model(str(synthetic_model(Path(tmp), 29_528, 256, words=words)))
    start = time.perf_counter()
    engine.attach_model(embedder)
    engine.wait_for_embeddings()
    rows = {"embed all chunks (s)": time.perf_counter() - start}
    for label, extra in (("no filter", {}), ("tag filter", {"filters": Filters(tags=tuple(tags))})):
        times = [
            timed(lambda q=q, x=extra: engine.search(SearchQuery(text=q, **x))) for q in queries
        ]
        rows[f"hybrid query {label} p50 (ms)"] = statistics.median(times)
    return rows


def _workspace_words(engine, sample: int = 2_000) -> set[str]:
    from reme_tui.engine.parse import tokenize

    words: set[str] = set()
    for path in engine.paths()[:sample]:
        for chunk in engine.memory(path).chunks:
            words.update(tokenize(chunk.text))
    return words


def open_once_rss(size: int) -> dict[str, float]:
    """Peak resident memory of a process that opens the workspace once (cold)."""
    from reme_tui.engine import Engine

    engine = Engine.open(generate(WORKSPACES / f"ws-{size}", size))
    assert engine.memory_count == size
    return {"peak RSS, one open (MB)": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def rank_bm25_ratio(engine, queries: list[str], ours_ms: float) -> dict[str, float]:
    """rank-bm25's BM25Okapi query time on the same chunk tokens, and the ratio to ours."""
    from rank_bm25 import BM25Okapi

    from reme_tui.engine.parse import tokenize

    corpus = [tokenize(chunk.text) for p in engine.paths() for chunk in engine.memory(p).chunks]
    bm25 = BM25Okapi(corpus)
    times = [timed(lambda q=q: bm25.get_scores(tokenize(q))) for q in queries]
    ref = statistics.median(times)
    return {"rank-bm25 query p50 (ms)": ref, "rank-bm25 / ours": ref / ours_ms if ours_ms else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--peer", action="store_true", help="add rows measured beside ReMe")
    parser.add_argument("--peer-sizes", default=",".join(map(str, PEER_SIZES)))
    parser.add_argument("--repeats", type=int, default=3, help="runs per median (peer rows)")
    parser.add_argument("--terminal", action="store_true", help="add the real-terminal app rows")
    parser.add_argument("--terminal-sizes", default=",".join(map(str, TERMINAL_SIZES)))
    parser.add_argument(
        "--only",
        choices=("engine", "peer", "terminal", "suggest"),
        help="run one table only (engine: the default one)",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--one-peer", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--one-terminal", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rss", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss:
        print(json.dumps(open_once_rss(args.rss)))
        return 0
    if args.one:
        print(json.dumps(measure(args.one)))
        return 0
    if args.one_peer:
        print(json.dumps(measure_peer(args.one_peer, args.repeats)))
        return 0
    if args.one_terminal:
        root = generate(WORKSPACES / f"ws-{args.one_terminal}", args.one_terminal)
        print(json.dumps(terminal_rows(root, args.one_terminal, args.repeats)))
        return 0
    print(load_note(), file=sys.stderr)
    if args.only in (None, "engine"):
        print_table(engine_results(_sizes(args.sizes)))
    if args.only == "peer" or (args.peer and args.only is None):
        print()
        print_table(each_size("--one-peer", _sizes(args.peer_sizes), args.repeats, "beside ReMe"))
    if args.only == "terminal" or (args.terminal and args.only is None):
        print()
        sizes = _sizes(args.terminal_sizes)
        print_table(each_size("--one-terminal", sizes, args.repeats, "in a real terminal"))
    if args.only in (None, "suggest"):
        print()
        print_suggestion_table(suggestion_rows())
    print(load_note())
    return 0


def _sizes(text: str) -> list[int]:
    return [int(s) for s in text.split(",") if s]


def load_note() -> str:
    """How busy the machine was: the figures mean little without it."""
    one, five, _ = os.getloadavg()
    return f"machine: {os.cpu_count()} cores, load average {one:.1f} (1 min) {five:.1f} (5 min)"


def each_size(flag: str, sizes: list[int], repeats: int, what: str) -> dict[int, dict[str, float]]:
    """One subprocess per size, running `benchmarks.run <flag> SIZE`."""
    results: dict[int, dict[str, float]] = {}
    for size in sizes:
        print(f"measuring {size} memories {what} ...", file=sys.stderr, flush=True)
        out = subprocess.run(
            [
                *(sys.executable, "-m", "benchmarks.run", flag, str(size)),
                *("--repeats", str(repeats)),
            ],
            check=True,
            stdout=subprocess.PIPE,  # stderr passes through: progress and failures show
            text=True,
        )
        results[size] = json.loads(out.stdout.strip().splitlines()[-1])
        # A later size can still fail after minutes: keep this one's figures visible.
        print(json.dumps({size: results[size]}), file=sys.stderr, flush=True)
    return results


def engine_results(sizes: list[int]) -> dict[int, dict[str, float]]:
    results: dict[int, dict[str, float]] = {}
    for size in sizes:
        print(f"measuring {size} memories ...", file=sys.stderr, flush=True)
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.run", "--one", str(size)],
            check=True,
            capture_output=True,
            text=True,
        )
        results[size] = json.loads(out.stdout.strip().splitlines()[-1])
        rss = subprocess.run(
            [sys.executable, "-m", "benchmarks.run", "--rss", str(size)],
            check=True,
            capture_output=True,
            text=True,
        )
        results[size].update(json.loads(rss.stdout.strip().splitlines()[-1]))
    return results


def print_table(results: dict[int, dict[str, float]]) -> None:
    sizes = list(results)
    metrics = list(dict.fromkeys(k for r in results.values() for k in r))
    header = "| metric | " + " | ".join(f"{s:,} memories" for s in sizes) + " |"
    print(header)
    print("|" + "---|" * (len(sizes) + 1))
    for metric in metrics:
        cells = [format_value(results[s].get(metric)) for s in sizes]
        print(f"| {metric} | " + " | ".join(cells) + " |")


def format_value(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 100 or float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


if __name__ == "__main__":
    sys.exit(main())
