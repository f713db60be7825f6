"""Headless --suggest-tags: shape, text, refusals, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace

SAMPLE = Path(__file__).parents[2] / "sample_workspace"
NOTE = "daily/2026-12-01/sync.md"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root)
    write_workspace(root, {NOTE: memory("Priya walked the runbook.\n", name="Sync with Priya")})
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_ranked_existing_tags_with_evidence(
    sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, str(sample), "--suggest-tags", NOTE, "--json", "--limit", "2")
    assert code == 0
    document = json.loads(out)
    assert document["path"] == NOTE
    assert document["tags"] == [] and document["slots_left"] == 3
    assert "model" not in document["signals"]
    assert len(document["suggestions"]) == 2
    top = document["suggestions"][0]
    assert top["tag"] == "priya" and top["files"] == 11
    assert {e["signal"] for e in top["evidence"]} >= {"named", "mentioned"}
    assert top["score"] == pytest.approx(sum(e["score"] for e in top["evidence"]), abs=1e-5)


def test_text_output_and_the_no_model_note(
    sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(sample), "--suggest-tags", str(sample / NOTE))
    assert code == 0
    assert out.splitlines()[0] == f"{NOTE}: tags (none); 3 of 3 slots free"
    assert out.splitlines()[1].startswith("1. priya  score ")
    assert "no model loaded" in err


def test_a_path_leaving_the_workspace_is_a_usage_error(
    sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, str(sample), "--suggest-tags", "../outside.md")
    assert code == 2
    assert "leaves the workspace" in err


def test_a_file_that_is_not_a_memory_exits_1(
    sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, str(sample), "--suggest-tags", "README.md")
    assert code == 1 and out == ""
    assert "README.md is not a memory of this workspace" in err
