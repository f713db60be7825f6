"""Record reme-ai's answers for the search-filter cases of ``reme_cases.py``.

Needs a throw-away venv with the reference (NOT run in CI)::

    python3.11 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install "reme-ai[as]==0.4.2.0"
    /tmp/refvenv/bin/python tests/conformance/make_reme_goldens.py

The reference is driven as in ``make_goldens.py`` (ReMe's ``default`` config, keyword-only,
``index_once`` then ReMe's own ``search`` and ``list_tags`` jobs), on a copy of
``sample_reme_project/.reme`` -- twice: once as shipped and once with
``components.file_chunker.markdown.include_frontmatter_in_metadata: true``, the switch that
puts frontmatter into chunk metadata. Each case passes ``search_filter`` with ``paths``,
``path_prefixes`` and a ``metadata`` dict (or the metadata keys at the top level).
Equal scores are recorded sorted by (path, start line); the test compares them as sets.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

from make_goldens import _app_config, _canonical_tie_order  # noqa: E402
from reme_cases import CASES, SAMPLE  # noqa: E402

REFERENCE_VERSION = "0.4.2.0"
OUTPUT = HERE / "reme_goldens.json"


def _search_kwargs(case: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"query": case["query"], "limit": case.get("limit", 5)}
    if case.get("tags"):
        kwargs["tags"] = list(case["tags"])
    if case.get("since"):
        kwargs["start_date"] = case["since"]
    if case.get("until"):
        kwargs["end_date"] = case["until"]
    if case.get("strict"):
        kwargs["strict_date_filter"] = True
    search_filter: dict[str, Any] = {}
    if case.get("paths"):
        search_filter["paths"] = list(case["paths"])
    if case.get("prefixes"):
        search_filter["path_prefixes"] = list(case["prefixes"])
    if case.get("meta"):
        search_filter["metadata"] = dict(case["meta"])
    search_filter.update(case.get("top_level_meta") or {})
    if search_filter:
        kwargs["search_filter"] = search_filter
    return kwargs


def _record(response: Any) -> dict[str, Any]:
    meta = response.metadata
    out: dict[str, Any] = {"success": bool(response.success)}
    if not response.success:
        out["error"] = str(response.answer)
        return out
    out["results"] = _canonical_tie_order(
        [
            {
                "path": r["path"],
                "start_line": r["start_line"],
                "end_line": r["end_line"],
                "score": r["scores"]["score"],
                "text_sha256": hashlib.sha256(r["text"].encode("utf-8")).hexdigest(),
            }
            for r in meta.get("results", [])
        ]
    )
    out["counts"] = meta.get("counts")
    out["tag_filter"] = meta.get("tag_filter")
    return out


async def _run(metadata_on: bool, cases: list[dict[str, Any]]) -> dict[str, Any]:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    answers: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="reme-golden-filters-") as tmp:
        root = Path(tmp) / ".reme"
        shutil.copytree(REPO / SAMPLE, root)
        app = ReMe(**_app_config(root, metadata_on))
        await app.start()
        try:
            assert (await app.run_job("index_once")).success
            for case in cases:
                if case["kind"] == "list_tags":
                    params: dict[str, Any] = {"order_by": case["order_by"], "page_size": 1000}
                    if case["order"] is not None:
                        params["order"] = case["order"]
                    listing = (await app.run_job("list_tags", **params)).answer
                    answers[case["id"]] = {
                        "total_tags": listing["total_tags"],
                        "items": [[tag, count] for tag, count in listing["items"]],
                    }
                    continue
                kwargs = _search_kwargs(case)
                answer = _record(await app.run_job("search", **kwargs))
                wide = _record(await app.run_job("search", **{**kwargs, "limit": 200}))
                results = answer.get("results") or []
                if results and len(wide.get("results", [])) > len(results):
                    last = results[-1]["score"]
                    pool = [r for r in wide["results"] if abs(r["score"] - last) <= 1e-9]
                    if len(pool) > sum(1 for r in results if abs(r["score"] - last) <= 1e-9):
                        answer["boundary_ties"] = [
                            [r["path"], r["start_line"], r["end_line"]] for r in pool
                        ]
                answers[case["id"]] = answer
        finally:
            await app.close()
    return answers


async def _main() -> None:
    logging.disable(logging.WARNING)
    import reme  # type: ignore[import-not-found]

    if getattr(reme, "__version__", "?") != REFERENCE_VERSION:
        raise SystemExit(f"need reme-ai {REFERENCE_VERSION}")
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    answers: dict[str, Any] = {}
    for metadata_on in (False, True):
        chosen = [c for c in CASES if bool(c.get("metadata_on")) == metadata_on]
        answers.update(await _run(metadata_on, chosen))
    document = {
        "reference": f"reme-ai {REFERENCE_VERSION}",
        "generator": "tests/conformance/make_reme_goldens.py",
        "workspace": SAMPLE,
        "cases": {case_id: answers[case_id] for case_id in ids},
    }
    OUTPUT.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(ids)} cases to {OUTPUT} ({OUTPUT.stat().st_size} bytes)")


if __name__ == "__main__":
    asyncio.run(_main())
