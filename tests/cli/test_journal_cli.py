"""--undo-merge and --resume-merge: the journal from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.engine.write.journal import Journal
from tests.helpers import memory, write_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {f"digest/m{i}.md": memory(f"budget {i}\n", tags=["project-atlas"]) for i in range(4)},
    )


def _contents(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.rglob("*.md"))}


def test_undo_merge_round_trip(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _contents(workspace)
    assert main([str(workspace), "--merge-tags", "project-atlas", "--into", "atlas"]) == 0
    assert _contents(workspace) != before
    capsys.readouterr()
    assert main([str(workspace), "--undo-merge", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["restored"]) == 4 and document["refused"] == []
    assert _contents(workspace) == before
    assert main([str(workspace), "--undo-merge"]) == 0
    assert "no merge to undo" in capsys.readouterr().err


def test_resume_merge_finishes_an_interrupted_one(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main([str(workspace), "--merge-tags", "project-atlas", "--into", "atlas"])
    journal = Journal(workspace)
    (path,) = journal.directory.glob("*.json")
    entry = json.loads(path.read_text())
    for item in entry["files"][:2]:  # as if killed after two files were written
        (workspace / item["path"]).write_text(item["before"])
    entry["state"] = "pending"
    path.write_text(json.dumps(entry))
    capsys.readouterr()
    assert main([str(workspace), "--resume-merge"]) == 0
    _, err = capsys.readouterr()
    assert "resumed merge" in err
    assert all(b"atlas" in data for data in _contents(workspace).values())
    assert main([str(workspace), "--resume-merge"]) == 0
    assert "no interrupted merge" in capsys.readouterr().err


def test_corrupt_journal_is_an_error_not_nothing(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main([str(workspace), "--merge-tags", "project-atlas", "--into", "atlas"])
    (path,) = Journal(workspace).directory.glob("*.json")
    path.write_text("{ torn")
    capsys.readouterr()
    assert main([str(workspace), "--undo-merge"]) == 1
    assert path.name in capsys.readouterr().err


def test_a_failed_final_journal_save_says_what_was_written(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: the journal's last save failing (a full data dir) after every file was
    merged used to print 'no file was changed'; the entry is left pending and undo works."""
    import errno

    before = _contents(workspace)
    real_save = Journal.save
    saves: list[str] = []

    def save(self: Journal, entry: dict) -> None:
        saves.append(entry["state"])
        if len(saves) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_save(self, entry)

    with monkeypatch.context() as patched:
        patched.setattr(Journal, "save", save)
        code = main([str(workspace), "--merge-tags", "project-atlas", "--into", "atlas"])
    err = capsys.readouterr().err
    assert code == 1
    assert "changed 4 files" in err and "no file was changed" not in err
    assert "No space left on device" in err and "reme-tui undo-merge" in err
    assert _contents(workspace) != before
    assert main([str(workspace), "--undo-merge"]) == 0
    assert _contents(workspace) == before
