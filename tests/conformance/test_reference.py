"""reme-tui's CLI must answer like the reference (reme-ai 0.4.2.0) on the SPEC's examples.

The workspaces and cases live in ``workspaces.py``; the reference's answers were
recorded by ``make_goldens.py`` into ``goldens.json``. Every case runs our CLI
in-process (``reme_tui.cli.main``) with ``--json`` over a copy of the workspace.

Compared: tag listings (both orderings, both directions), the tag filter (canonical
tags, matched paths), result paths, line ranges, order and scores (1e-6), chunk texts
(by digest), link expansion (neighbour paths, anchors, name and description), counts,
and errors (exit code 2 with the reference's message). Equal scores have no defined
order in the reference, so within a group of equal scores paths are compared as sets,
and ours must be ordered by path, then start line.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import io
import json
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reme_tui.cli import main, opening

HERE = Path(__file__).resolve().parent
SCORE_TOLERANCE = 1e-6
TIE_TOLERANCE = 1e-9


def _load_workspaces() -> ModuleType:
    name = "reme_tui_conformance_workspaces"
    spec = importlib.util.spec_from_file_location(name, HERE / "workspaces.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


WS = _load_workspaces()
GOLDENS: dict[str, Any] = json.loads((HERE / "goldens.json").read_text(encoding="utf-8"))["cases"]
CASES: list[dict[str, Any]] = WS.CASES
SEARCHES = [
    c for c in CASES if c["kind"] in ("search", "invalid_date") and GOLDENS[c["id"]]["success"]
]
ERRORS = [c for c in CASES if c["kind"] == "search" and not GOLDENS[c["id"]]["success"]]
LISTINGS = [c for c in CASES if c["kind"] == "list_tags"]
INVALID_DATES = [c for c in CASES if c["kind"] == "invalid_date"]


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for c in cases]


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str

    @property
    def document(self) -> dict[str, Any]:
        assert self.code == 0, f"exit {self.code}: {self.stderr}"
        return json.loads(self.stdout)


def _argv(root: Path, case: dict[str, Any]) -> list[str]:
    argv = [str(root)]
    if case["kind"] == "list_tags":
        argv += ["--list-tags", "--order-by", case["order_by"]]
        if case["order"] is not None:
            argv += ["--order", case["order"]]
        return [*argv, "--json"]
    argv += ["--query", case["query"]]
    for tag in case.get("tags") or []:
        argv.append(f"--tag={tag}")
    if case.get("since"):
        argv += ["--since", case["since"]]
    if case.get("until"):
        argv += ["--until", case["until"]]
    if case.get("strict"):
        argv.append("--strict-dates")
    if case.get("limit") is not None:
        argv += ["--limit", str(case["limit"])]
    if case.get("min_score") is not None:
        argv += ["--min-score", repr(case["min_score"])]
    return [*argv, "--json"]


@pytest.fixture(scope="module")
def run_case(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[dict[str, Any]], Run]]:
    """Run each case once through ``reme_tui.cli.main``; results are cached per case.

    Each workspace is indexed once: ``open_engine`` is wrapped to reuse the engine it
    built for the same workspace (searches never modify it), keeping the module fast.
    """
    roots = {
        name: WS.materialize(files, tmp_path_factory.mktemp(f"ws-{name}"))
        for name, files in WS.WORKSPACES.items()
    }
    cache: dict[str, Run] = {}
    engines: dict[tuple[str, bool], Any] = {}
    original = opening.open_engine

    def open_engine_once(args: argparse.Namespace) -> Any:
        key = (str(Path(args.workspace).resolve()), bool(args.all_markdown))
        if key not in engines:
            engines[key] = original(args)
        return engines[key]

    def run(case: dict[str, Any]) -> Run:
        if case["id"] not in cache:
            cache[case["id"]] = _invoke(_argv(roots[case["workspace"]], case))
        return cache[case["id"]]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(opening, "open_engine", open_engine_once)
        yield run


def _invoke(argv: list[str]) -> Run:
    """Run the CLI in-process, capturing stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse errors
            code = exc.code if isinstance(exc.code, int) else 2
    return Run(code, out.getvalue(), err.getvalue())


# -- tag listings ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", LISTINGS, ids=_ids(LISTINGS))
def test_tag_listing(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    golden = GOLDENS[case["id"]]
    ours = run_case(case).document
    assert ours["items"] == golden["items"]
    assert ours["total_tags"] == golden["total_tags"]


# -- searches -------------------------------------------------------------------------------


def _key(item: dict[str, Any]) -> tuple[str, int, int]:
    return (item["path"], item["start_line"], item["end_line"])


def _tie_groups(scores: list[float]) -> list[tuple[int, int]]:
    groups: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(scores) + 1):
        if i == len(scores) or not math.isclose(
            scores[i], scores[start], rel_tol=TIE_TOLERANCE, abs_tol=TIE_TOLERANCE
        ):
            groups.append((start, i))
            start = i
    return groups


@pytest.mark.parametrize("case", SEARCHES, ids=_ids(SEARCHES))
def test_results(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    """Same chunks, same line ranges, same order (ties as sets), same scores."""
    golden = GOLDENS[case["id"]]["results"]
    ours = run_case(case).document["results"]
    want = [(*_key(r), round(r["score"], 6)) for r in golden]
    got = [(*_key(r), round(r["score"], 6)) for r in ours]
    assert len(got) == len(want), f"\nreference: {want}\nours:      {got}"
    pool = {tuple(k) for k in GOLDENS[case["id"]].get("boundary_ties", [])}
    for start, end in _tie_groups([r["score"] for r in golden]):
        ref_group = {_key(r) for r in golden[start:end]}
        our_group = {_key(r) for r in ours[start:end]}
        if pool and end == len(golden):
            # The limit cut a group of equal scores: any of the tied chunks may survive.
            ref_group = our_group if our_group <= pool else ref_group
        where = f"ranks {start + 1}-{end}\nreference: {want}\nours:      {got}"
        assert our_group == ref_group, where
        for ref, our in zip(golden[start:end], ours[start:end], strict=True):
            assert our["score"] == pytest.approx(ref["score"], abs=SCORE_TOLERANCE), (ref, our)
            assert our["scores"]["keyword"] == pytest.approx(ref["keyword"], abs=SCORE_TOLERANCE)
            assert our["scores"]["vector"] == ref["vector"]
        our_keys = [_key(r)[:2] for r in ours[start:end]]
        assert our_keys == sorted(our_keys), "ties must be ordered by path, then start line"


@pytest.mark.parametrize("case", SEARCHES, ids=_ids(SEARCHES))
def test_chunk_texts(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    """Each returned chunk has exactly the reference's text (compared by SHA-256)."""
    golden = {_key(r): (r["text_sha256"], r["text_len"]) for r in GOLDENS[case["id"]]["results"]}
    ours = run_case(case).document["results"]
    for result in ours:
        if _key(result) not in golden:
            continue  # reported by test_results
        digest = hashlib.sha256(result["text"].encode("utf-8")).hexdigest()
        assert (digest, len(result["text"])) == golden[_key(result)], (
            f"{_key(result)}: text differs (ours {len(result['text'])} chars)"
        )


@pytest.mark.parametrize("case", SEARCHES, ids=_ids(SEARCHES))
def test_counts(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    golden = GOLDENS[case["id"]]["counts"]
    ours = run_case(case).document["counts"]
    assert {k: ours.get(k) for k in golden} == golden


@pytest.mark.parametrize("case", SEARCHES, ids=_ids(SEARCHES))
def test_tag_filter(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    golden = GOLDENS[case["id"]]["tag_filter"]
    ours = run_case(case).document["tag_filter"]
    if golden is None:
        assert ours is None
        return
    assert ours is not None
    assert golden["applied"] is True
    assert ours["tags"] == golden["tags"]
    assert ours["matched_paths"] == golden["matched_paths"]
    assert ours["mode"] == "any"
    assert ours["exclude"] == []


def _neighbours(items: list[dict[str, Any]], *, reference: bool) -> list[dict[str, Any]]:
    out = []
    for item in items:
        meta = item["meta"] if reference else item
        out.append(
            {
                "path": item["path"],
                "name": meta.get("name") or None,
                "description": meta.get("description") or None,
                "anchors": list(item["anchors"]),
            }
        )
    return out


@pytest.mark.parametrize("case", SEARCHES, ids=_ids(SEARCHES))
def test_link_expansion(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    """Per result path: the same out/in neighbours, in order, with anchors and meta."""
    golden: dict[str, Any] = GOLDENS[case["id"]]["link_expansion"]
    ours: dict[str, Any] = run_case(case).document["links"]
    # A path kept or cut by the limit among equal scores may legitimately differ.
    arbitrary = {path for path, _, _ in GOLDENS[case["id"]].get("boundary_ties", [])}
    assert set(ours) ^ set(golden) <= arbitrary, "one entry per distinct result path"
    for path in sorted(set(golden) & set(ours)):
        for direction in ("outlinks", "inlinks"):
            assert _neighbours(ours[path][direction], reference=False) == _neighbours(
                golden[path][direction], reference=True
            ), f"{path} {direction}"


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ERRORS, ids=_ids(ERRORS))
def test_error_cases(case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]) -> None:
    """The reference's errors are usage errors: exit code 2 with its message."""
    message = GOLDENS[case["id"]]["error"].removeprefix("Error: ")
    run = run_case(case)
    assert run.code == 2
    assert run.stdout == ""
    assert message in run.stderr


@pytest.mark.parametrize("case", INVALID_DATES, ids=_ids(INVALID_DATES))
def test_invalid_date_is_ignored_with_a_warning(
    case: dict[str, Any], run_case: Callable[[dict[str, Any]], Run]
) -> None:
    """The reference ignores an invalid date with a warning and searches without it; so does
    reme-tui (issue 22; it used to exit 2): the answer is compared with the others above."""
    golden = GOLDENS[case["id"]]
    assert golden["success"] and golden["counts"]["returned"] > 0
    run = run_case(case)
    assert run.code == 0
    assert "warning" in run.stderr and case["since"] in run.stderr


def test_goldens_cover_every_case() -> None:
    assert set(GOLDENS) == {c["id"] for c in CASES}
    assert (HERE / "goldens.json").stat().st_size < 500_000
