"""MCP figures for `make bench`: `reme-tui mcp` driven by the SDK's own stdio client, as an
agent runs it: start to first answer from the saved index (warm), and a tool call's p50
once the server is up (search and list_tags). The saved index and the change history live
under benchmarks/.workspaces (git-ignored), never the user's directories.

`python -m benchmarks.mcp_server SIZE` prints the rows for one generated workspace.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from benchmarks.generate import COMMON, generate

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
CALLS = 200
STARTS = 3


def _params(root: Path, size: int) -> StdioServerParameters:
    env = dict(os.environ)
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[name] = str(WORKSPACES / f"mcp-{size}" / name.lower())
    return StdioServerParameters(
        command=sys.executable, args=["-m", "reme_tui", "mcp", str(root)], env=env
    )


def _p50(values: list[float]) -> float:
    return statistics.median(values)


def _children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


async def _start_to_first_answer(params: StdioServerParameters) -> tuple[float, float]:
    """(wall ms to the first answer, the server's own CPU ms for the whole run: start,
    that answer and its exit, read from the reaped child's rusage)."""
    cpu_before = _children_cpu_ms()
    start = time.perf_counter()
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            result = await session.call_tool("search", {"query": "project budget"})
            assert not result.is_error
            wall = (time.perf_counter() - start) * 1000
    return wall, _children_cpu_ms() - cpu_before


async def _calls(params: StdioServerParameters, queries: list[str]) -> dict[str, float]:
    rows: dict[str, float] = {}
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for label, name, make in (
                ("search", "search", lambda q: {"query": q}),
                ("list_tags", "list_tags", lambda q: {}),
            ):
                times = []
                for query in queries:
                    args: dict[str, Any] = make(query)
                    start = time.perf_counter()
                    result = await session.call_tool(name, args)
                    times.append((time.perf_counter() - start) * 1000)
                    assert not result.is_error
                rows[f"mcp {label} call p50 (ms)"] = _p50(times)
    return rows


def mcp_rows(root: Path, size: int) -> dict[str, float]:
    params = _params(root, size)
    rng = random.Random(3)
    queries = [" ".join(rng.sample(list(COMMON), 2)) for _ in range(CALLS)]
    anyio.run(_start_to_first_answer, params)  # writes the saved index: later starts are warm
    starts = [anyio.run(_start_to_first_answer, params) for _ in range(STARTS)]
    rows = {
        "mcp start to first answer warm (ms)": _p50([wall for wall, _ in starts]),
        "mcp server CPU, warm start + one answer + exit (ms)": _p50([cpu for _, cpu in starts]),
    }
    rows.update(anyio.run(_calls, params, queries))
    return rows


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    workspace = generate(WORKSPACES / f"ws-{size}", size)
    print(json.dumps(mcp_rows(workspace, size), indent=2))
