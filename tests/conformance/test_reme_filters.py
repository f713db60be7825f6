"""reme-tui's CLI answers ReMe's search filters like reme-ai 0.4.2.0 (issue 13).

Cases: ``reme_cases.py``; answers recorded from reme-ai on ``sample_reme_project/.reme`` by
``make_reme_goldens.py`` into ``reme_goldens.json``. Each case runs ``reme_tui.cli.main``
with ``--path`` / ``--path-prefix`` / ``--meta`` (and ``--reme-config`` for a config with
``include_frontmatter_in_metadata: true`` when the reference ran with it). Compared: tag
listings, result chunks and scores (equal scores as sets: ReMe orders them by disk read
order), chunk texts, counts and the tag filter.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import math
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reme_tui.cli import main

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GOLDENS: dict[str, Any] = json.loads((HERE / "reme_goldens.json").read_text(encoding="utf-8"))[
    "cases"
]
CONFIG = (
    "extends: default\nworkspace_dir: .reme\ncomponents:\n  file_chunker:\n    markdown:\n"
    "      include_frontmatter_in_metadata: true\n"
)


def _load_cases() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reme_tui_reme_cases", HERE / "reme_cases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CASES: list[dict[str, Any]] = _load_cases().CASES
SEARCHES = [c for c in CASES if c["kind"] == "search"]
LISTINGS = [c for c in CASES if c["kind"] == "list_tags"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reme-filters") / "project"
    shutil.copytree(REPO / "sample_reme_project", root)
    (root / "metadata-on.yaml").write_text(CONFIG, encoding="utf-8")
    return root


def _run(argv: list[str]) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def _argv(project: Path, case: dict[str, Any]) -> list[str]:
    if case.get("metadata_on"):
        argv = ["--reme-config", str(project / "metadata-on.yaml")]
    else:
        argv = [str(project / ".reme")]
    if case["kind"] == "list_tags":
        argv += ["--list-tags", "--order-by", case["order_by"]]
        return [*argv, *(["--order", case["order"]] if case["order"] else []), "--json"]
    argv += ["--query", case["query"], "--limit", str(case.get("limit", 5)), "--no-cache"]
    argv += [f"--tag={t}" for t in case.get("tags", [])]
    argv += [f"--path={p}" for p in case.get("paths", [])]
    argv += [f"--path-prefix={p}" for p in case.get("prefixes", [])]
    meta = {**case.get("meta", {}), **case.get("top_level_meta", {})}
    argv += [f"--meta={key}={json.dumps(value)}" for key, value in meta.items()]
    if case.get("since"):
        argv += ["--since", case["since"]]
    if case.get("until"):
        argv += ["--until", case["until"]]
    if case.get("strict"):
        argv.append("--strict-dates")
    return [*argv, "--json"]


@pytest.mark.parametrize("case", LISTINGS, ids=[c["id"] for c in LISTINGS])
def test_tag_listing(project: Path, case: dict[str, Any]) -> None:
    ours = _run(_argv(project, case))
    assert ours["items"] == GOLDENS[case["id"]]["items"]
    assert ours["total_tags"] == GOLDENS[case["id"]]["total_tags"]


def _groups(scores: list[float]) -> list[tuple[int, int]]:
    groups, start = [], 0
    for i in range(1, len(scores) + 1):
        if i == len(scores) or not math.isclose(scores[i], scores[start], abs_tol=1e-9):
            groups.append((start, i))
            start = i
    return groups


@pytest.mark.parametrize("case", SEARCHES, ids=[c["id"] for c in SEARCHES])
def test_search(project: Path, case: dict[str, Any]) -> None:
    golden = GOLDENS[case["id"]]
    assert golden["success"]
    ours = _run(_argv(project, case))
    want, got = golden["results"], ours["results"]
    key = lambda r: (r["path"], r["start_line"], r["end_line"])  # noqa: E731
    assert len(got) == len(want), (
        f"\nreference: {[key(r) for r in want]}\nours:      {[key(r) for r in got]}"
    )
    pool = {tuple(k) for k in golden.get("boundary_ties", [])}
    for start, end in _groups([r["score"] for r in want]):
        ref_group = {key(r) for r in want[start:end]}
        our_group = {key(r) for r in got[start:end]}
        if pool and end == len(want):
            ref_group = our_group if our_group <= pool else ref_group
        assert our_group == ref_group, f"ranks {start + 1}-{end}"
        for ref, our in zip(want[start:end], got[start:end], strict=True):
            assert our["score"] == pytest.approx(ref["score"], abs=1e-6)
    texts = {key(r): r["text_sha256"] for r in want}
    for result in got:
        if key(result) in texts:
            digest = hashlib.sha256(result["text"].encode("utf-8")).hexdigest()
            assert digest == texts[key(result)], key(result)
    assert {k: ours["counts"].get(k) for k in golden["counts"]} == golden["counts"]
    if golden["tag_filter"] is None:
        assert ours["tag_filter"] is None
    else:
        assert ours["tag_filter"]["tags"] == golden["tag_filter"]["tags"]
        assert ours["tag_filter"]["matched_paths"] == golden["tag_filter"]["matched_paths"]


def test_every_case_has_a_golden() -> None:
    assert set(GOLDENS) == {c["id"] for c in CASES}
