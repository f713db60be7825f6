"""What the command line says about what ReMe will not see: `diagnostics --fail-on` gates a
CI job or a pre-commit hook, and tag edits warn as the app's editor does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace

PATH = "daily/2026-03-01.md"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws", {PATH: memory("kickoff\n", tags=["alice", "bob", "carol"])}
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_fail_on_exits_3_only_for_findings_that_severe(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(workspace)
    for level in ("warning", "error"):
        assert run(capsys, "diagnostics", ws, "--fail-on", level)[0] == 0  # clean
    bom = memory("bom\n", tags=["alice"]).encode()
    (workspace / "daily/2026-03-02.md").write_bytes(b"\xef\xbb\xbf" + bom)
    code, out, err = run(capsys, "diagnostics", ws, "--fail-on", "warning")
    assert code == 3 and "[bom]" in out
    assert err.splitlines()[-1] == (
        "reme-tui: failing (--fail-on warning): 1 findings at warning or above"
    )
    assert run(capsys, "diagnostics", ws, "--fail-on", "error")[0] == 0
    assert run(capsys, "diagnostics", ws)[0] == 0  # without --fail-on: a report, not a gate
    os.mkfifo(workspace / "daily/2026-03-03.md")
    code, out, _ = run(capsys, "diagnostics", ws, "--fail-on", "error", "--json")
    assert code == 3
    assert {"bom", "not-regular"} <= {d["code"] for d in json.loads(out)["diagnostics"]}


def test_fail_on_takes_only_a_known_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["diagnostics", "--fail-on", "info"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'info'" in capsys.readouterr().err


def test_a_fourth_tag_is_written_with_the_editors_warning(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "edit-tags", PATH, str(workspace), "--add", "dave", "--json")
    assert code == 0
    assert json.loads(out)["warnings"] == ["ReMe indexes only the first 3 tags; 'dave' falls off"]
    assert err == (
        f"reme-tui: warning: {PATH}: ReMe indexes only the first 3 tags; 'dave' falls off\n"
    )
    assert "dave" in (workspace / PATH).read_text()  # written as asked


def test_a_second_spelling_of_one_tag_is_named(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "edit-tags", PATH, str(workspace), "--set", "Alice", "alice")
    assert code == 0
    assert "'alice' is the same tag as 'Alice' (alice)" in err
    code, out, err = run(capsys, "edit-tags", PATH, str(workspace), "--set", "x", "--json")
    assert code == 0 and json.loads(out)["warnings"] == [] and err == ""


def test_the_old_flags_warn_too(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(workspace), "--add-tag", PATH, "dave")
    assert code == 0 and "'dave' falls off" in err
