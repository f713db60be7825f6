"""The ReMe side of `make bench BENCH_ARGS=--peer`: run by the python of the private venv
that holds reme-ai 0.4.2.0 (never imports reme_tui). Prints one JSON object.

ReMe is driven through its own Python API exactly as `reme start` would run it, minus the
LLM jobs (search needs none): its `default` application config (BM25 keyword search, tag
index on), with the jobs replaced by

* `index_once`: the first step of `index_update_loop` (`init_changes_step` over daily/ and
  digest/, dispatching `update_index_step`), i.e. the scan and indexing it does at start;
* ReMe's own `search` job, unchanged;
* for edit-to-searchable, the unchanged `index_update_loop` background job itself (its
  watcher: forced polling, 5 s poll delay, 1 s quiet step), started as `reme start` does.

`cold` times one fresh process from before `import reme` to the first complete search
answer, with ReMe's own saved index (the workspace's metadata/ dir) removed first.
"""

from __future__ import annotations

import time

_PROCESS_START = time.perf_counter()

import asyncio  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

REFERENCE_VERSION = "0.4.2.0"
METADATA_DIR = "metadata"
EDIT_TIMEOUT_S = 60.0
START_TIMEOUT_S = 1800.0  # the loop's first scan indexes the whole workspace first


def _app_config(workspace: Path, *, with_loop: bool) -> dict[str, Any]:
    from reme.config import resolve_app_config  # type: ignore[import-not-found]

    config: dict[str, Any] = resolve_app_config(
        log_config=False,
        workspace_dir=str(workspace),
        enable_logo=False,
        log_to_console=False,
        log_to_file=False,
    )
    jobs = config["jobs"]
    loop = jobs["index_update_loop"]
    assert config["components"]["file_store"]["default"]["embedding_store"] == "", "embeddings on"
    config["jobs"] = {
        "index_once": {
            "backend": "base",
            "watch_dirs": loop["watch_dirs"],
            "watch_suffixes": loop["watch_suffixes"],
            "steps": [dict(loop["steps"][0])],
        },
        "search": jobs["search"],
    }
    if with_loop:
        config["jobs"]["index_update_loop"] = loop
    return config


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _paths(response: Any) -> list[str]:
    assert response.success, response.answer
    return [r["path"] for r in response.metadata.get("results", [])]


async def _run_search(app: Any, query: str, tags: list[str] | None = None) -> Any:
    kwargs: dict[str, Any] = {"query": query}
    if tags:
        kwargs["tags"] = tags
    response = await app.run_job("search", **kwargs)
    assert response.success, response.answer
    return response


async def _search(app: Any, query: str, tags: list[str] | None = None) -> list[str]:
    return _paths(await _run_search(app, query, tags))


async def _scored(app: Any, query: str, tags: list[str] | None = None) -> list[list[Any]]:
    """[path, score] per hit, to compare answers with ties as sets."""
    results = (await _run_search(app, query, tags)).metadata.get("results", [])
    return [[r["path"], r["scores"]["score"]] for r in results]


async def cold(workspace: Path, query: str) -> dict[str, Any]:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    app = ReMe(**_app_config(workspace, with_loop=False))
    await app.start()
    try:
        indexed = await app.run_job("index_once")
        assert indexed.success, indexed
        hits = await _search(app, query)
        seconds = time.perf_counter() - _PROCESS_START
    finally:
        await app.close()
    return {"cold to first results (s)": seconds, "cpu (s)": cpu_seconds(), "first hits": hits}


async def queries(workspace: Path, texts: list[str], tags: list[str]) -> dict[str, Any]:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    app = ReMe(**_app_config(workspace, with_loop=False))
    await app.start()
    try:
        assert (await app.run_job("index_once")).success
        out: dict[str, Any] = {}
        for label, extra in (("no filter", None), ("tag filter", tags)):
            times, hits = [], []
            for text in texts:
                start = time.perf_counter()
                hits.append(await _scored(app, text, extra))
                times.append((time.perf_counter() - start) * 1000)
            out[label] = {"p50 (ms)": statistics.median(times), "hits": hits}
    finally:
        await app.close()
    return out


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


async def edit_to_searchable(workspace: Path, targets: list[str]) -> dict[str, Any]:
    """Append a unique word to each target in turn; time until `search` finds it there,
    with ReMe's own background index_update_loop applying the change."""
    from reme.reme import ReMe  # type: ignore[import-not-found]

    app = ReMe(**_app_config(workspace, with_loop=True))
    await app.start()  # starts index_update_loop in the background, as `reme start` does
    originals = {rel: (workspace / rel).read_bytes() for rel in targets}
    latencies: list[float] = []
    try:
        probe = f"zqpeerarm{os.getpid()}"
        _write(workspace / targets[0], originals[targets[0]].decode() + f"\n{probe}\n")
        await _wait_found(app, probe, targets[0], START_TIMEOUT_S)  # first scan done
        _write(workspace / targets[0], originals[targets[0]].decode())
        for i, rel in enumerate(targets):
            word = f"zqpeer{i}x{os.getpid()}"
            start = time.perf_counter()
            _write(workspace / rel, originals[rel].decode() + f"\nedited {word}\n")
            await _wait_found(app, word, rel)
            latencies.append((time.perf_counter() - start) * 1000)
    finally:
        for rel, data in originals.items():
            (workspace / rel).write_bytes(data)
        await app.close()
    return {"edit-to-searchable (ms)": latencies}


async def _wait_found(
    app: Any, word: str, rel: str, timeout: float = EDIT_TIMEOUT_S, poll_s: float = 0.02
) -> None:
    deadline = time.monotonic() + timeout
    while rel not in await _search(app, word):
        if time.monotonic() > deadline:
            raise TimeoutError(f"ReMe never found {word} in {rel}")
        await asyncio.sleep(poll_s)


def main() -> int:
    mode, workspace = sys.argv[1], Path(sys.argv[2])
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    logging.disable(logging.WARNING)
    shutil.rmtree(workspace / METADATA_DIR, ignore_errors=True)
    before = {p.name for p in workspace.iterdir()}
    try:
        if mode == "cold":
            result = asyncio.run(cold(workspace, args["query"]))
        elif mode == "queries":
            result = asyncio.run(queries(workspace, args["queries"], args["tags"]))
        elif mode == "edit":
            result = asyncio.run(edit_to_searchable(workspace, args["targets"]))
        elif mode == "version":
            from importlib import metadata

            result = {"version": metadata.version("reme-ai")}
        else:
            raise SystemExit(f"unknown mode {mode}")
    finally:
        # ReMe creates its other folders (session/, resource/, ...) at start: leave the
        # generated workspace as it was for the other rows.
        for extra in {p.name for p in workspace.iterdir()} - before:
            shutil.rmtree(workspace / extra, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
