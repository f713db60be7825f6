"""Every headless mode that opens a workspace records what changed since anything last
looked (issue 20, item 5): an edit between two runs is its own change."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reme_tui.cli import main

SAMPLE = Path(__file__).parents[2] / "sample_workspace"
NOTE = "daily/2026-09-01/1on1-marcus.md"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SAMPLE, tmp_path / "sample"))


def changes(capsys: pytest.CaptureFixture[str], root: Path) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main([str(root), "--changes", "--json"]) == 0
    entries: list[dict[str, object]] = json.loads(capsys.readouterr().out)["entries"]
    return entries


@pytest.mark.parametrize(
    "mode", [["--query", "budget"], ["--list-tags"], ["--diagnostics"], ["--tag-dupes"]]
)
def test_an_edit_between_two_runs_is_its_own_change(
    capsys: pytest.CaptureFixture[str], sample: Path, mode: list[str]
) -> None:
    note = sample / NOTE
    assert main([str(sample), *mode]) == 0  # the first look: a silent baseline
    note.write_text(note.read_text(encoding="utf-8") + "first edit\n", encoding="utf-8")
    assert main([str(sample), *mode]) == 0  # sees the first edit
    note.write_text(note.read_text(encoding="utf-8") + "second edit\n", encoding="utf-8")
    entries = changes(capsys, sample)
    assert [e["path"] for e in entries] == [NOTE, NOTE]
    newest, oldest = entries
    assert "+second edit" in str(newest["diff"]) and "+first edit" not in str(newest["diff"])
    assert "+first edit" in str(oldest["diff"])


def test_a_disabled_history_records_nothing(
    capsys: pytest.CaptureFixture[str], sample: Path, isolated_user_dirs: Path
) -> None:
    config = isolated_user_dirs / "XDG_CONFIG_HOME" / "reme-tui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[history]\nenabled = false\n", encoding="utf-8")
    assert main([str(sample), "--list-tags"]) == 0
    data = isolated_user_dirs / "XDG_DATA_HOME"
    assert not list(data.rglob("history.sqlite3"))


def test_a_broken_history_is_a_notice_not_a_failure(
    capsys: pytest.CaptureFixture[str], sample: Path, isolated_user_dirs: Path
) -> None:
    (isolated_user_dirs / "XDG_DATA_HOME").rmdir()
    (isolated_user_dirs / "XDG_DATA_HOME").write_text("not a folder", encoding="utf-8")
    assert main([str(sample), "--list-tags"]) == 0
    assert "changes not recorded" in capsys.readouterr().err
