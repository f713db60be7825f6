"""Headless tag hygiene: --tag-dupes, --merge-tags, --compat-report (shapes, exit codes)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import write_workspace

SAMPLE = Path(__file__).parents[2] / "sample_workspace"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root)
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tag_dupes_json_shape(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(sample), "--tag-dupes", "--json")
    assert code == 0
    document = json.loads(out)
    assert set(document) == {"schema", "clusters"}
    for cluster in document["clusters"]:
        assert set(cluster) == {"tags", "suggested", "methods", "confidence"}
        assert cluster["confidence"] in {"high", "medium", "low"}
        for member in cluster["tags"]:
            assert set(member) == {"tag", "files", "spellings"}
    first = document["clusters"][0]
    assert {m["tag"] for m in first["tags"]} == {"project_atlas", "project-atlas", "projectatlas"}
    assert first["suggested"] == "project_atlas"
    assert first["confidence"] == "high"


def test_tag_dupes_text(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(sample), "--tag-dupes")
    assert code == 0
    assert out.startswith("[high] project_atlas (21), project-atlas (1), projectatlas (1)\n")
    assert "clusters of near-duplicate tags" in err


def test_merge_tags_dry_run_changes_nothing(
    sample: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p: p.read_bytes() for p in sample.rglob("*.md")}
    code, out, err = run(
        capsys, str(sample), "--merge-tags", "project-atlas", "ProjectAtlas", "--into",
        "project_atlas", "--dry-run",
    )  # fmt: skip
    assert code == 0
    assert "-  - project-atlas\n+  - project_atlas\n" in out
    assert "would change 2 files" in err
    assert {p: p.read_bytes() for p in sample.rglob("*.md")} == before


def test_merge_tags_writes_and_reports(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, str(sample), "--merge-tags", "project-atlas", "projectatlas", "--into",
        "project_atlas", "--json",
    )  # fmt: skip
    assert code == 0
    document = json.loads(out)
    assert set(document) == {
        "schema", "tags", "into", "files", "skipped", "dry_run", "written", "refused", "journal",
        "notes",
    }  # fmt: skip
    assert document["notes"] == []  # the journal's final save worked: nothing to warn about
    assert sorted(document["written"]) == [
        "daily/2026-10-21/incident-atlas-login-outage.md",
        "daily/2026-11-12/globex-qbr.md",
    ]
    assert document["journal"]
    code, out, _ = run(capsys, str(sample), "--tag-dupes", "--json", "--no-cache")
    tags = {m["tag"] for c in json.loads(out)["clusters"] for m in c["tags"]}
    assert "project-atlas" not in tags and "projectatlas" not in tags
    code, out, err = run(capsys, str(sample), "--merge-tags", "project-atlas", "--into", "x")
    assert code == 0 and "changed 0 files" in err  # nothing carries it any more


def test_merge_tags_usage_errors(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ws = str(sample)
    assert run(capsys, ws, "--merge-tags", "a", "--into=---")[0] == 2
    assert run(capsys, ws, "--merge-tags", "!!", "--into", "x")[0] == 2
    assert run(capsys, ws, "--merge-tags", "a")[0] == 2  # no --into
    assert run(capsys, ws, "--into", "x")[0] == 2
    assert run(capsys, ws, "--dry-run")[0] == 2
    assert run(capsys, ws, "--tag-dupes", "--compat-report")[0] == 2
    assert run(capsys, ws, "--tag-dupes", "--list-tags")[0] == 2
    assert run(capsys, ws, "--tag-dupes", "--tag", "x")[0] == 2
    _, _, err = run(capsys, ws, "--merge-tags", "a", "--into=x", "--tag-dupes")
    assert "cannot be combined" in err


def test_merge_tags_conflict_or_unsafe_file_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-01-01/a.md": "---\nmemory_tags: [project-atlas, true]\n---\nx\n",
            "daily/2026-01-02/b.md": "---\nmemory_tags: [project-atlas]\n---\nx\n",
        },
    )
    code, _, err = run(capsys, str(root), "--merge-tags", "project-atlas", "--into", "atlas")
    assert code == 1
    assert "daily/2026-01-01/a.md" in err
    assert (root / "daily/2026-01-02/b.md").read_text() == "---\nmemory_tags: [atlas]\n---\nx\n"


def test_compat_report_json(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(sample), "--compat-report", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["counts"]["frontmatter-voided"] == 3
    assert document["counts"]["tags-not-list"] == 1
    code, out, err = run(capsys, str(sample), "--compat-report")
    assert code == 0 and 'fix: quote it: name: "2026-10-05"' in out
    assert "problems in" in err


def test_missing_workspace_is_a_runtime_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, str(tmp_path / "nope"), "--tag-dupes")[0] == 1
