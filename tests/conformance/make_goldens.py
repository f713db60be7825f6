"""Record the reference's answers for the conformance cases into ``goldens.json``.

Needs a throw-away venv with the reference installed; it is NOT run in CI::

    python3.11 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install "reme-ai[as]==0.4.2.0"
    /tmp/refvenv/bin/python tests/conformance/make_goldens.py

How the reference is driven (no LLM, no embeddings, no server):

* the application config is ReMe's own ``default`` config (``resolve_app_config``), whose
  ``file_store`` has ``embedding_store: ""`` (keyword-only BM25) and ``tag_index:
  default`` (``memory_tags``, 3 per file, 64 characters);
* every job is replaced by three ``base`` jobs: ``index_once`` (the first step of
  ``index_update_loop``: ``init_changes_step`` on the file store over ``daily_dir`` and
  ``digest_dir`` with suffix ``md``, dispatching ``update_index_step`` -- the same scan
  and indexing the background watcher does at start-up, without the watcher), and
  ReMe's own ``search`` (``search_step``, vector_weight 0.7, candidate multiplier 5,
  link expansion 10 per direction) and ``list_tags`` jobs, unchanged;
* ``ReMe(**config)`` is started, ``index_once`` runs once, then each case runs
  ``search`` (query, tags, start_date, end_date, strict_date_filter, limit, min_score)
  or ``list_tags`` (order_by, order, page_size 1000) and the response's
  ``metadata["results"]``, ``["link_expansion"]``, ``["counts"]``, ``["tag_filter"]``,
  ``success`` and the error ``answer`` are recorded.

Chunk texts are stored as a SHA-256 digest to keep the file small.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from workspaces import CASES, WORKSPACES, materialize  # noqa: E402

REFERENCE_VERSION = "0.4.2.0"
OUTPUT = HERE / "goldens.json"


def _app_config(workspace: Path, metadata_on: bool | None = None) -> dict[str, Any]:
    """ReMe's `default` config with the index loop's first step as a one-shot job;
    `metadata_on` sets the chunker's `include_frontmatter_in_metadata` when given."""
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
    init_step = dict(loop["steps"][0])
    assert init_step["backend"] == "init_changes_step", init_step
    if metadata_on is not None:
        markdown = config["components"]["file_chunker"]["markdown"]
        markdown["include_frontmatter_in_metadata"] = metadata_on
    assert config["components"]["file_store"]["default"]["embedding_store"] == "", "embeddings on"
    config["jobs"] = {
        "index_once": {
            "backend": "base",
            "watch_dirs": loop["watch_dirs"],
            "watch_suffixes": loop["watch_suffixes"],
            "steps": [init_step],
        },
        "search": jobs["search"],
        "list_tags": jobs["list_tags"],
    }
    return config


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _search_kwargs(case: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"query": case["query"]}
    if case.get("tags"):
        kwargs["tags"] = list(case["tags"])
    if case.get("since"):
        kwargs["start_date"] = case["since"]
    if case.get("until"):
        kwargs["end_date"] = case["until"]
    if case.get("strict"):
        kwargs["strict_date_filter"] = True
    if case.get("limit") is not None:
        kwargs["limit"] = case["limit"]
    if case.get("min_score") is not None:
        kwargs["min_score"] = case["min_score"]
    return kwargs


def _canonical_tie_order(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort runs of equal scores by (path, start line): the reference leaves their order
    undefined (it varies between runs), so this keeps the goldens stable."""
    out: list[dict[str, Any]] = []
    group: list[dict[str, Any]] = []
    for result in [*results, None]:
        if result is not None and (not group or abs(result["score"] - group[0]["score"]) <= 1e-9):
            group.append(result)
            continue
        out += sorted(group, key=lambda r: (r["path"], r["start_line"]))
        group = [result] if result is not None else []
    return out


def _record_search(response: Any) -> dict[str, Any]:
    meta = response.metadata
    out: dict[str, Any] = {"success": bool(response.success)}
    if not response.success:
        out["error"] = str(response.answer)
        return out
    out["results"] = [
        {
            "path": r["path"],
            "start_line": r["start_line"],
            "end_line": r["end_line"],
            "score": r["scores"]["score"],
            "keyword": r["scores"].get("keyword"),
            "vector": r["scores"].get("vector"),
            "text_sha256": _digest(r["text"]),
            "text_len": len(r["text"]),
        }
        for r in meta.get("results", [])
    ]
    out["results"] = _canonical_tie_order(out["results"])
    expansion = meta.get("link_expansion", {})
    out["link_expansion"] = {path: expansion[path] for path in sorted(expansion)}
    out["counts"] = meta.get("counts")
    out["tag_filter"] = meta.get("tag_filter")
    return out


async def _add_boundary_ties(app: Any, kwargs: dict[str, Any], answer: dict[str, Any]) -> None:
    """When the limit cut the ranking, record every chunk tied with the last result.

    Equal scores have no defined order in the reference, so which of them survive the
    cut is arbitrary: a correct engine may return any of them. The pool comes from the
    same search with the largest limit (scores do not depend on the limit).
    """
    results = answer.get("results") or []
    if not results or answer["counts"]["returned"] >= answer["counts"]["keyword"]:
        return
    wide = _record_search(await app.run_job("search", **{**kwargs, "limit": 200}))
    last = results[-1]["score"]
    pool = [r for r in wide["results"] if abs(r["score"] - last) <= 1e-9]
    if len(pool) > sum(1 for r in results if abs(r["score"] - last) <= 1e-9):
        answer["boundary_ties"] = [[r["path"], r["start_line"], r["end_line"]] for r in pool]


async def _run_workspace(name: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    answers: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix=f"reme-golden-{name}-") as tmp:
        root = materialize(WORKSPACES[name], Path(tmp))
        app = ReMe(**_app_config(root))
        await app.start()
        try:
            indexed = await app.run_job("index_once")
            assert indexed.success, indexed
            for case in cases:
                if case["kind"] == "list_tags":
                    params: dict[str, Any] = {"order_by": case["order_by"], "page_size": 1000}
                    if case["order"] is not None:
                        params["order"] = case["order"]
                    response = await app.run_job("list_tags", **params)
                    listing = response.answer
                    answers[case["id"]] = {
                        "total_tags": listing["total_tags"],
                        "items": [[tag, count] for tag, count in listing["items"]],
                    }
                else:
                    kwargs = _search_kwargs(case)
                    answer = _record_search(await app.run_job("search", **kwargs))
                    await _add_boundary_ties(app, kwargs, answer)
                    answers[case["id"]] = answer
        finally:
            await app.close()
    return answers


async def _main() -> None:
    logging.disable(logging.WARNING)
    import reme  # type: ignore[import-not-found]

    version = getattr(reme, "__version__", "?")
    if version != REFERENCE_VERSION:
        raise SystemExit(f"need reme-ai {REFERENCE_VERSION}, found {version}")
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    answers: dict[str, Any] = {}
    for name in WORKSPACES:
        answers.update(await _run_workspace(name, [c for c in CASES if c["workspace"] == name]))
    document = {
        "reference": f"reme-ai {REFERENCE_VERSION}",
        "generator": "tests/conformance/make_goldens.py",
        "cases": {case_id: answers[case_id] for case_id in ids},
    }
    OUTPUT.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(ids)} cases to {OUTPUT} ({OUTPUT.stat().st_size} bytes)")


if __name__ == "__main__":
    asyncio.run(_main())
