"""`search` answers exactly what `reme-tui --query TEXT --json` prints for the same
arguments (and so ReMe's answers, by the conformance goldens)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from .client import answer, served

CASES: list[dict[str, Any]] = [
    {"query": "deploy"},
    {"query": "atlas launch", "limit": 3},
    {"query": "atlas", "tags": ["project_atlas", "priya"], "all_tags": True},
    {"query": "meeting", "exclude_tags": ["priya"], "limit": 8},
    {"query": "atlas", "since": "2026-09-01", "until": "2026-09-30", "strict_dates": True},
    {"query": "atlas", "path_prefixes": ["daily/2026-09"], "limit": 4},
    {"query": "deploy", "paths": ["digest/procedure/deploy-atlas.md"]},
    {"query": "atlas", "meta": ["type=decision"], "min_score": 0.5},
    {"query": "zzzz-nothing-matches"},
]

FLAGS = {
    "tags": "--tag",
    "exclude_tags": "--exclude-tag",
    "paths": "--path",
    "path_prefixes": "--path-prefix",
    "meta": "--meta",
    "since": "--since",
    "until": "--until",
    "limit": "--limit",
    "min_score": "--min-score",
    "all_tags": "--all-tags",
    "strict_dates": "--strict-dates",
}


def cli_answer(workspace: Path, case: dict[str, Any], *flags: str) -> dict[str, Any]:
    argv = [sys.executable, "-m", "reme_tui", str(workspace), "--query", case["query"], "--json"]
    argv += flags
    for key, value in case.items():
        if key in ("query", "path"):
            continue
        if value is True:
            argv.append(FLAGS[key])
        elif isinstance(value, list):
            for item in value:
                argv += [FLAGS[key], item]
        else:
            argv += [FLAGS[key], str(value)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_search_equals_query_json(workspace: Path) -> None:
    expected = [cli_answer(workspace, case) for case in CASES]

    async def main() -> list[dict[str, Any]]:
        async with served(workspace) as session:
            return [await answer(session, "search", case) for case in CASES]

    got = anyio.run(main)
    for case, mine, theirs in zip(CASES, got, expected, strict=True):
        mine.pop("warnings", None)
        assert mine == theirs, case
    assert any(doc["results"] for doc in expected)  # the cases do find things
    assert any(doc["tag_filter"] for doc in expected)


EXPLAINED = [
    {"path": "digest/procedure/deploy-atlas.md", "query": "deploy"},
    {"path": "digest/procedure/deploy-atlas.md", "query": "atlas", "tags": ["globex"]},
    {"path": "daily/2026-09-01.md", "query": "atlas", "since": "2026-10-01"},
    {"path": "README.md", "query": "atlas"},
]


def test_explain_equals_explain_json(workspace: Path) -> None:
    expected = [cli_answer(workspace, case, "--explain", case["path"]) for case in EXPLAINED]

    async def main() -> list[dict[str, Any]]:
        async with served(workspace) as session:
            return [await answer(session, "explain", case) for case in EXPLAINED]

    got = anyio.run(main)
    for case, mine, theirs in zip(EXPLAINED, got, expected, strict=True):
        assert mine == theirs, case
    verdicts = [doc["verdict"] for doc in got]
    assert verdicts[0].startswith("returned at rank")
    assert all(v.startswith("dropped at") for v in verdicts[1:]), verdicts
