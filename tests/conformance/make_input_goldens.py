"""Record reme-ai's answers for the cases of ``reme_inputs.py`` into ``input_goldens.json``.

Needs a throw-away venv with the reference (NOT run in CI)::

    python3.11 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install "reme-ai[as]==0.4.2.0"
    /tmp/refvenv/bin/python tests/conformance/make_input_goldens.py

The reference runs as in ``make_goldens.py`` (ReMe's ``default`` config, keyword-only,
``index_once`` then its own ``search`` job), on the workspace of ``reme_inputs.py``: once as
configured by default and once with ``include_frontmatter_in_metadata: true``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_goldens import _app_config, _record_search  # noqa: E402
from reme_inputs import CASES, WORKSPACE  # noqa: E402
from workspaces import materialize  # noqa: E402

REFERENCE_VERSION = "0.4.2.0"
OUTPUT = HERE / "input_goldens.json"


def _search_kwargs(case: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"query": case["query"], "limit": 10}
    if case.get("since"):
        kwargs["start_date"] = case["since"]
    if case.get("until"):
        kwargs["end_date"] = case["until"]
    if case.get("strict"):
        kwargs["strict_date_filter"] = True
    if case.get("meta"):
        kwargs["search_filter"] = {"metadata": dict(case["meta"])}
    return kwargs


async def _run(metadata_on: bool, cases: list[dict[str, Any]]) -> dict[str, Any]:
    from reme.reme import ReMe  # type: ignore[import-not-found]

    answers: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="reme-golden-inputs-") as tmp:
        root = materialize(WORKSPACE, Path(tmp))
        app = ReMe(**_app_config(root, metadata_on))
        await app.start()
        try:
            assert (await app.run_job("index_once")).success
            for case in cases:
                response = await app.run_job("search", **_search_kwargs(case))
                answers[case["id"]] = _record_search(response)
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
        "generator": "tests/conformance/make_input_goldens.py",
        "cases": {case_id: answers[case_id] for case_id in ids},
    }
    OUTPUT.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(ids)} cases to {OUTPUT}")


if __name__ == "__main__":
    asyncio.run(_main())
