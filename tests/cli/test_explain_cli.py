"""--explain PATH --query TEXT: the same rank and score as --query for the same search, a
readable stage list, and clear outcomes for paths that are not memories."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reme_tui.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("explain") / "ws"
    shutil.copytree(SAMPLE, target)
    return target


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(argv) == 0
    document = json.loads(capsys.readouterr().out)
    assert isinstance(document, dict)
    return document


SEARCHES = [
    ["--query", "atlas deploy"],
    ["--query", "atlas deploy", "--tag", "project_atlas", "--limit", "3"],
    ["--query", "launch budget", "--since", "2026-10-01", "--limit", "8"],
    ["--query", "launch", "--exclude-tag", "acme_corp", "--min-score", "0.5"],
]


@pytest.mark.parametrize("search", SEARCHES)
def test_explain_ranks_and_scores_equal_the_querys(
    workspace: Path, capsys: pytest.CaptureFixture[str], search: list[str]
) -> None:
    base = [str(workspace), "--no-cache"]
    results = run_json(capsys, [*base, *search, "--json"])["results"]
    assert isinstance(results, list) and results
    first: dict[str, tuple[int, float]] = {}
    for rank, hit in enumerate(results, 1):
        first.setdefault(hit["path"], (rank, hit["score"]))
    for path, (rank, score) in first.items():
        explained = run_json(capsys, [*base, "--explain", path, *search, "--json"])
        assert (explained["rank"], explained["score"]) == (rank, score)
        assert explained["verdict"] == f"returned at rank {rank} (score {score:.4f})" or str(
            explained["verdict"]
        ).startswith(f"returned at rank {rank} (score {score:.4f}); also")
        stages = explained["stages"]
        assert isinstance(stages, list)
        assert [s["stage"] for s in stages][:3] == ["discovery", "frontmatter", "tags"]
        keyword = next(s for s in stages if s["stage"] == "keyword")
        scored = [c for c in keyword["chunks"] if c["rank"] is not None]
        assert any(abs(sum(t["added"] for t in c["terms"]) - score) <= 1e-9 for c in scored)


def test_a_memory_the_query_does_not_return_names_the_stage(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [str(workspace), "--no-cache", "--query", "atlas deploy"]
    returned = {h["path"] for h in run_json(capsys, [*base, "--json"])["results"]}  # type: ignore[union-attr]
    every = sorted(p.relative_to(workspace).as_posix() for p in workspace.glob("daily/*/*.md"))
    path = next(p for p in every if p not in returned)
    explained = run_json(capsys, [*base, "--explain", path, "--json"])
    assert explained["rank"] is None and explained["score"] is None
    assert explained["dropped_at"] in {"keyword", "cutoff"}
    assert str(explained["verdict"]).startswith(f"dropped at {explained['dropped_at']}")


def test_text_output_is_the_verdict_then_one_line_per_stage(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = "digest/wiki/project-atlas.md"
    argv = [str(workspace), "--no-cache", "--explain", path, "--query", "atlas deploy"]
    argv += ["--tag", "project-atlas"]
    capsys.readouterr()
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dropped at tags: ") or lines[0].startswith("returned at rank")
    names = [line[4:].split()[0] for line in lines[1:]]
    assert names == [
        "discovery", "frontmatter", "tags", "dates", "paths", "metadata",
        "keyword", "vector", "fusion", "cutoff", "links",
    ]  # fmt: skip


def test_paths_that_are_not_memories(
    workspace: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = [str(workspace), "--no-cache", "--query", "atlas"]
    outside = run_json(capsys, [*base, "--explain", str(tmp_path), "--json"])
    assert outside["dropped_at"] == "discovery"
    assert outside["stages"][0]["reason"] == "outside"  # type: ignore[index]
    readme = run_json(capsys, [*base, "--explain", "README.md", "--json"])
    assert readme["stages"][0]["reason"] == "not-memory-folder"  # type: ignore[index]
    capsys.readouterr()
    assert main([*base, "--explain", "daily/2026-09-01/nope.md"]) == 1
    captured = capsys.readouterr()
    assert "no such file" in captured.err
    assert captured.out.startswith("dropped at discovery")


def test_explain_needs_a_query_and_refuses_other_modes(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(workspace), "--explain", "README.md"]) == 2
    assert "--explain needs --query" in capsys.readouterr().err
    assert main([str(workspace), "--explain", "README.md", "--query", "x", "--list-tags"]) == 2
    assert main([str(workspace), "--explain", "README.md", "--query", "x", "--order", "asc"]) == 2


def test_with_a_model_the_fused_rank_and_score_equal_the_querys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.engine.tiny_model import build_tiny_model
    from tests.helpers import memory, write_workspace

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = build_tiny_model(tmp_path / "tiny")
    workspace = write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01/kitten.md": memory("my kitten has soft fur and paws\n"),
            "daily/2026-03-02/puppy.md": memory("the puppy is a good pet dog\n"),
            "daily/2026-03-03/python.md": memory("fixed a python bug, the kitten watched\n"),
            "digest/weather.md": memory("storm and rain in the forecast\n"),
        },
    )
    search = ["--query", "kitten pet", "--model", str(model), "--limit", "4"]
    base = [str(workspace), "--no-cache"]
    document = run_json(capsys, [*base, *search, "--json"])
    assert document["counts"]["hybrid"]  # type: ignore[index]
    results = document["results"]
    assert isinstance(results, list) and len(results) >= 3
    for rank, hit in enumerate(results, 1):
        explained = run_json(capsys, [*base, "--explain", hit["path"], *search, "--json"])
        assert (explained["rank"], explained["score"]) == (rank, hit["score"])
        stages = {s["stage"]: s for s in explained["stages"]}  # type: ignore[union-attr]
        fusion = stages["fusion"]
        assert fusion["hybrid"] and fusion["chunks"][0]["total"] == hit["score"]
        vector = stages["vector"]
        assert not vector["skipped"]
        if hit["scores"]["vector"] is not None:
            similarities = [c["similarity"] for c in vector["chunks"]]
            assert hit["scores"]["vector"] in similarities
