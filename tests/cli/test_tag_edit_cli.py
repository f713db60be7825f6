"""--add-tag / --remove-tag / --set-tags: only the tag lines change; clear exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import write_workspace

ORIGINAL = (
    "---\r\n# owner: jamie\r\nname: 'Kickoff'\r\nmemory_tags:\r\n  - Alice   # lead\r\n"
    "  - project_atlas\r\ndescription: x\r\n---\r\nBody with [[digest/a.md]]\r\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(tmp_path, {"daily/2026-03-01/k.md": ORIGINAL.encode()})


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_add_remove_set_change_only_tag_lines(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace / "daily/2026-03-01/k.md"
    code, out, _ = run(capsys, str(workspace), "--add-tag", "daily/2026-03-01/k.md", "Globex Corp")
    assert code == 0 and "-> Alice, project_atlas, Globex Corp" in out
    lines = path.read_bytes().split(b"\r\n")
    original = ORIGINAL.encode().split(b"\r\n")
    assert lines[:6] == original[:6] and lines[7:] == original[6:]
    code, out, _ = run(
        capsys, str(workspace), "--remove-tag", "daily/2026-03-01/k.md", "GLOBEX_CORP"
    )
    assert code == 0 and path.read_bytes() == ORIGINAL.encode()
    code, out, _ = run(
        capsys, str(workspace), "--set-tags", "daily/2026-03-01/k.md", "bob", "--json"
    )
    assert code == 0 and json.loads(out)["new_tags"] == ["bob"]
    text = path.read_text(encoding="utf-8")
    assert "# owner: jamie" in text and "description: x" in text and "Alice" not in text


def test_equal_tag_is_a_no_op(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (workspace / "daily/2026-03-01/k.md").stat().st_mtime_ns
    code, out, _ = run(capsys, str(workspace), "--add-tag", "daily/2026-03-01/k.md", "alice")
    assert code == 0 and "unchanged" in out
    assert (workspace / "daily/2026-03-01/k.md").stat().st_mtime_ns == before


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["../outside.md", "--add", "a"], 2, ".."),
        (["notes/x.md", "--add", "a"], 2, ""),
        (["daily/2026-03-01/k.md", "--add", "x" * 70], 2, "64"),
        (["daily/2026-03-01/missing.md", "--remove", "a"], 2, "missing.md"),
    ],
)
def test_errors(
    workspace: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: int, message: str
) -> None:
    got, out, err = run(capsys, "edit-tags", argv[0], str(workspace), *argv[1:])
    assert got == code and out == "" and err.startswith("reme-tui: error:")
    assert message in err
    assert (workspace / "daily/2026-03-01/k.md").read_bytes() == ORIGINAL.encode()


K = "daily/2026-03-01/k.md"


def test_a_tag_edit_is_recorded_as_an_edit(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's own edit is its own change (source edit), not a later 'start'."""
    run(capsys, str(workspace), "--changes")  # the baseline
    code, _, err = run(capsys, str(workspace), "--add-tag", K, "beta")
    assert code == 0 and "history" not in err
    code, out, _ = run(capsys, str(workspace), "--changes", "--json")
    (entry,) = json.loads(out)["entries"]
    assert (entry["source"], entry["label"], entry["path"]) == ("edit", f"tags of {K}", K)


def test_a_tag_edit_the_history_cannot_record_says_so(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: with a full data dir --add-tag exited 0 without saying the history was not
    recorded. The edit still succeeds (exit 0), with a warning naming the reason."""
    from reme_tui.engine.history import ChangeHistory, HistoryError

    run(capsys, str(workspace), "--changes")

    def full(*_args: object, **_kwargs: object) -> None:
        raise HistoryError("change history: database or disk is full")

    monkeypatch.setattr(ChangeHistory, "record", full)
    code, out, err = run(capsys, str(workspace), "--add-tag", K, "beta")
    assert code == 0 and "beta" in out
    assert "did not record it" in err and "disk is full" in err
