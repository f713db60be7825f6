"""The command line on real ReMe installations (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def test_discovers_dot_reme_and_says_so(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "src").mkdir()
    monkeypatch.chdir(project / "src")
    code, out, err = run(capsys, "--list-tags", "--json", "--no-cache")
    assert code == 0
    assert json.loads(out)["total_tags"] == 14
    assert f"workspace {project / '.reme'} (found .reme in {project})" in err


def test_an_explicit_workspace_is_not_announced(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, str(project / ".reme"), "--list-tags", "--no-cache")
    assert code == 0 and "workspace" not in err.split("\n")[0]


def test_renamed_folders_by_config_or_flags(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = str(project / "renamed" / "reme.yaml")
    code, out, err = run(capsys, "--reme-config", config, "--list-tags", "--json", "--no-cache")
    assert code == 0 and json.loads(out)["items"] == [["antenna", 2], ["calibration", 1]]
    assert "workspace_dir of" in err
    monkeypatch.chdir(project / "renamed")
    code, out, _ = run(capsys, "--daily-dir", "journal", "--digest-dir", "knowledge", "--list-tags")
    assert code == 0 and out.split() == ["2", "antenna", "1", "calibration"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--reme-config", "/nonexistent/reme.yaml", "--list-tags"], "does not exist"),
        (["--daily-dir", "../up", "--list-tags"], "must stay inside the workspace"),
        (["--query", "x", "--meta", "novalue"], "expected KEY=VALUE"),
        (["--list-tags", "--path-prefix", "digest/"], "--path-prefix only applies with --query"),
        (["--list-tags", "--dry-run"], "--dry-run only applies with --merge-tags or"),
        (["--fix-tags", "--tag-dupes"], "cannot be combined"),
    ],
)
def test_usage_errors(
    project: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, str(project / ".reme"), *argv)
    assert code == 2 and out == ""
    assert message in err


def test_search_json_filters_and_sources(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        str(project / ".reme"),
        "--query",
        "latency alerts",
        "--path-prefix",
        "daily/2026-03-10/",
        "--json",
        "--no-cache",
    )
    assert code == 0
    results = json.loads(out)["results"]
    assert {r["path"] for r in results} == {"daily/2026-03-10/pilot-notes.md"}
    assert [s["kind"] for s in results[0]["sources"]] == [
        "conversation",
        "image",
        "image",
        "resource",
    ]


def test_meta_without_frontmatter_metadata_warns(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, str(project / ".reme"), "--query", "Svelte", "--meta", "type=decision", "--json"
    )
    assert code == 0 and json.loads(out)["results"] == []
    assert "include_frontmatter_in_metadata" in err


def test_fix_tags_dry_run_then_write(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project / ".reme"
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    code, out, err = run(capsys, str(root), "--fix-tags", "--dry-run", "--no-cache")
    assert code == 0
    assert "+- OpenAI\n+- gold\n" in out and "-- '2026-03-10'\n" in out
    assert "would fix the tags of 5 files" in err
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before
    code, out, err = run(capsys, str(root), "--fix-tags", "--json", "--no-cache")
    assert code == 0
    document = json.loads(out)
    assert [f["written"] for f in document["files"]] == [True] * 5
    assert "fixed the tags of 5 files" in err
    changed = {p for p in before if p.read_bytes() != before[p]}
    assert {p.relative_to(root).as_posix() for p in changed} == {
        "daily/2026-03-09/Stack choice.md",
        "daily/2026-03-10/pilot-notes.md",
        "daily/2026-03-10/每周同步.md",
        "daily/2026-03-12/Summaries cost.md",
        "daily/2026-03-12/login-bug-triage.md",
    }
    code, out, err = run(capsys, str(root), "--fix-tags", "--dry-run", "--no-cache")
    assert code == 0 and out == "" and "would fix the tags of 0 files" in err
    code, out, _ = run(capsys, str(root), "--list-tags", "--json", "--no-cache")
    tags = dict(json.loads(out)["items"])
    assert "openai,_gold" not in tags and tags["openai"] == 3 and "2026-03-10" not in tags


def test_fix_tags_in_a_renamed_layout(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = project / "renamed" / ".reme" / "journal" / "2026-03-11" / "Antenna calibration.md"
    note.write_text(
        note.read_text(encoding="utf-8").replace("- calibration\n", "- calibration, offsets\n"),
        encoding="utf-8",
    )
    config = str(project / "renamed" / "reme.yaml")
    code, out, err = run(capsys, "--reme-config", config, "--fix-tags", "--no-cache")
    assert code == 0, err
    assert "+- calibration\n+- offsets\n" in out
    assert "- calibration\n- offsets\n" in note.read_text(encoding="utf-8")
