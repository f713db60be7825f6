"""The reme-tui side of `make bench BENCH_ARGS=--peer`, shaped like `peer_reme.py` so the two
are timed the same way: `cold` is one fresh process from before `import reme_tui` to the
first complete search answer, with no saved index (nothing read, nothing written).
Prints one JSON object.
"""

from __future__ import annotations

import time

_PROCESS_START = time.perf_counter()

import json  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the parallel build's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def cold(workspace: Path, query: str) -> dict[str, Any]:
    from reme_tui.engine import Engine
    from reme_tui.engine.search import SearchQuery

    engine = Engine.open(workspace)
    hits = [h.path for h in engine.search(SearchQuery(text=query)).hits]
    seconds = time.perf_counter() - _PROCESS_START
    return {"cold to first results (s)": seconds, "cpu (s)": cpu_seconds(), "first hits": hits}


def main() -> int:
    mode, workspace = sys.argv[1], Path(sys.argv[2])
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    if mode != "cold":
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(cold(workspace, args["query"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
