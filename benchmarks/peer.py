"""reme-tui against the real ReMe (reme-ai 0.4.2.0), side by side in one run
(`make bench BENCH_ARGS=--peer`).

ReMe is installed on first use into its own venv under benchmarks/.workspaces/ (git-ignored,
removed by `make clean`) and driven through its Python API by `peer_reme.py`; reme-tui's
side (`peer_ours.py`, and the in-process rows here) does the same work the same way:

* cold index to first complete results: a fresh process per run, from before the library's
  import to the first search answer, no saved index on either side; runs alternate between
  the two so a change in machine load hits both. Wall time and CPU time (the process and
  its children) are both reported: on a shared machine CPU time is the steadier figure.
* query p50 over the same queries, without and with a tag filter (the two most used tags).
* edit-to-searchable: append a unique word to an existing memory and time until search
  finds it there, each side with its own real watcher running (ReMe: its background
  `index_update_loop` job as `reme start` runs it).

Ratios are ReMe / reme-tui, so above 1 means reme-tui is faster. Both sides must return the
same top results for the first query (checked, as sets: ReMe's tie order is not stable).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

from benchmarks.generate import COMMON, generate

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
REFERENCE = "reme-ai[as]==0.4.2.0"
REFERENCE_VENV = WORKSPACES / "reme-ai-0.4.2.0-venv"
PEER_SIZES = (2_000, 10_000)
QUERY_COUNT = 60
EDITS = 10


def reference_python() -> Path:
    """The python of the private ReMe venv, created and filled on first use."""
    python = REFERENCE_VENV / "bin" / "python"
    stamp = REFERENCE_VENV / ".installed"
    if stamp.exists() and python.exists():
        return python
    print(f"installing {REFERENCE} into {REFERENCE_VENV} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(REFERENCE_VENV)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", REFERENCE],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    stamp.write_text(REFERENCE)
    return python


def _run_json(argv: list[str], cwd: Path | None = None) -> dict[str, Any]:
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True, cwd=cwd)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _queries(seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    words = [*COMMON, "kalo", "mido", "rento", "sador"]
    return [" ".join(rng.sample(words, 2)) for _ in range(QUERY_COUNT)]


def cold_runs(root: Path, reme_python: Path, repeats: int) -> dict[str, Any]:
    """Alternating fresh-process cold runs of both sides."""
    args = json.dumps({"query": "budget plan"})
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for _ in range(repeats):
        ours.append(
            _run_json([sys.executable, str(HERE / "peer_ours.py"), "cold", str(root), args])
        )
        theirs.append(
            _run_json([str(reme_python), str(HERE / "peer_reme.py"), "cold", str(root), args])
        )
    same = all(
        set(o["first hits"]) == set(t["first hits"]) for o, t in zip(ours, theirs, strict=True)
    )
    return {
        "ours wall": statistics.median(r["cold to first results (s)"] for r in ours),
        "ours cpu": statistics.median(r["cpu (s)"] for r in ours),
        "reme wall": statistics.median(r["cold to first results (s)"] for r in theirs),
        "reme cpu": statistics.median(r["cpu (s)"] for r in theirs),
        "same first results": same,
    }


def _top_tags(root: Path, count: int = 2) -> list[str]:
    from reme_tui.engine import Engine

    return [tag for tag, _ in Engine.open(root).list_tags()[:count]]


def our_queries(root: Path, texts: list[str], tags: list[str]) -> dict[str, Any]:
    from reme_tui.engine import Engine
    from reme_tui.engine.search import Filters, SearchQuery

    engine = Engine.open(root)
    out: dict[str, Any] = {}
    for label, extra in (("no filter", Filters()), ("tag filter", Filters(tags=tuple(tags)))):
        times, hits = [], []
        for text in texts:
            start = time.perf_counter()
            response = engine.search(SearchQuery(text=text, filters=extra))
            times.append((time.perf_counter() - start) * 1000)
            hits.append([[h.path, h.score] for h in response.hits])
        out[label] = {"p50 (ms)": statistics.median(times), "hits": hits}
    return out


def _agreement(ours: list[list[list[Any]]], theirs: list[list[list[Any]]]) -> float:
    """Share of queries answered alike: the same scores in the same order (float32
    precision), and the same paths for every score that is not tied at the cut-off. ReMe
    orders equal scores by disk read order, so a group of equal scores is compared as a set,
    and a tie that straddles the last place may keep different members on each side."""

    def key(hits: list[list[Any]]) -> tuple[list[float], set[str]]:
        scores = [round(float(score), 5) for _, score in hits]
        last = scores[-1] if scores else None
        return scores, {path for path, score in hits if round(float(score), 5) != last}

    same = sum(1 for a, b in zip(ours, theirs, strict=True) if key(a) == key(b))
    return same / len(ours) if ours else 0.0


def our_edits(root: Path, targets: list[str]) -> list[float]:
    """The same edits as `peer_reme.edit_to_searchable`, with reme-tui's real watcher."""
    from benchmarks.live import _found, _watching, _write
    from reme_tui.engine import Engine

    engine = Engine.open(root)
    originals = {rel: (root / rel).read_bytes() for rel in targets}
    latencies: list[float] = []
    try:
        with _watching(engine) as watcher:
            watcher.arm(root / "digest")
            for i, rel in enumerate(targets):
                word = f"zqours{i}x{os.getpid()}"
                start = time.perf_counter()
                _write(root / rel, originals[rel].decode() + f"\nedited {word}\n")
                watcher.wait(lambda w=word, r=rel: _found(engine, w, r), f"{rel} searchable")
                latencies.append((time.perf_counter() - start) * 1000)
                time.sleep(0.05)
    finally:
        for rel, data in originals.items():
            (root / rel).write_bytes(data)
    return latencies


def measure_peer(size: int, repeats: int = 3) -> dict[str, float]:
    """Every side-by-side row for one workspace size."""
    reme_python = reference_python()
    root = generate(WORKSPACES / f"ws-{size}", size)
    rows: dict[str, float] = {}
    cold = cold_runs(root, reme_python, repeats)
    rows["cold to first results, reme-tui (s)"] = cold["ours wall"]
    rows["cold to first results, ReMe (s)"] = cold["reme wall"]
    rows["cold to first results, ReMe / reme-tui"] = cold["reme wall"] / cold["ours wall"]
    rows["cold CPU time, reme-tui (s)"] = cold["ours cpu"]
    rows["cold CPU time, ReMe (s)"] = cold["reme cpu"]
    rows["cold CPU time, ReMe / reme-tui"] = cold["reme cpu"] / cold["ours cpu"]
    rows["cold first results equal (1 = yes)"] = float(cold["same first results"])

    texts, tags = _queries(), _top_tags(root)
    ours = our_queries(root, texts, tags)
    theirs = _run_json(
        [
            str(reme_python),
            str(HERE / "peer_reme.py"),
            "queries",
            str(root),
            json.dumps({"queries": texts, "tags": tags}),
        ]
    )
    for label in ("no filter", "tag filter"):
        mine, ref = ours[label]["p50 (ms)"], theirs[label]["p50 (ms)"]
        rows[f"query {label} p50, reme-tui (ms)"] = mine
        rows[f"query {label} p50, ReMe (ms)"] = ref
        rows[f"query {label} p50, ReMe / reme-tui"] = ref / mine if mine else 0.0
        rows[f"query {label}, same top-5 answers, ties as sets (share)"] = _agreement(
            ours[label]["hits"], theirs[label]["hits"]
        )

    paths = sorted(p.relative_to(root).as_posix() for p in (root / "daily").rglob("*.md"))
    targets = paths[:: max(1, len(paths) // EDITS)][:EDITS]
    mine_edit = statistics.median(our_edits(root, targets))
    ref_edit = statistics.median(
        _run_json(
            [
                str(reme_python),
                str(HERE / "peer_reme.py"),
                "edit",
                str(root),
                json.dumps({"targets": targets}),
            ]
        )["edit-to-searchable (ms)"]
    )
    rows["edit-to-searchable p50, reme-tui (ms)"] = mine_edit
    rows["edit-to-searchable p50, ReMe (ms)"] = ref_edit
    rows["edit-to-searchable, ReMe / reme-tui"] = ref_edit / mine_edit
    return rows
