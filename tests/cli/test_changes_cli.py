"""Headless change history: --changes [--since] [--json], --mark-reviewed, --revert --to."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace

A = "daily/2026-03-01/a.md"
B = "digest/b.md"
C = "digest/c.md"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            A: memory("alpha\n", name="Alpha", tags=["project-atlas"]),
            B: memory(f"links to [[{C}]]\n", name="Bravo"),
            C: memory("charlie\n", name="Charlie"),
        },
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def changes(capsys: pytest.CaptureFixture[str], ws: Path, *extra: str) -> dict:
    code, out, _ = run(capsys, str(ws), "--changes", "--json", *extra)
    assert code == 0
    return json.loads(out)


def test_behind_its_back_every_kind_with_diff(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    code, out, err = run(capsys, str(workspace), "--changes")
    assert (code, out) == (0, "")
    assert "baseline of 3 memories" in err
    (workspace / A).write_text(memory("alpha\nbeta\n", name="Alpha", tags=["project_atlas"]))
    (workspace / "daily/2026-03-02.md").write_text("new day\n")
    os.rename(workspace / C, workspace / "digest/c-moved.md")  # ReMe's move ...
    (workspace / B).write_text(memory("links to [[digest/c-moved.md]]\n", name="Bravo"))
    document = changes(capsys, workspace)
    by_path = {e["path"]: e for e in document["entries"]}
    assert {p: e["kind"] for p, e in by_path.items()} == {
        A: "modified",
        "daily/2026-03-02.md": "created",
        "digest/c-moved.md": "moved",
        B: "modified",
    }
    assert by_path[A]["tags_removed"] == ["project-atlas"]
    assert by_path[A]["tags_added"] == ["project_atlas"]
    assert "+beta" in by_path[A]["diff"]
    assert by_path["digest/c-moved.md"]["old_path"] == C
    assert by_path[B]["note"] == f"links: [[{C}]] → [[digest/c-moved.md]]"
    assert len({e["group"] for e in document["entries"]}) == 1  # ... is one group
    (workspace / "daily/2026-03-02.md").unlink()
    newest = changes(capsys, workspace)["entries"][0]
    assert (newest["kind"], newest["path"]) == ("deleted", "daily/2026-03-02.md")
    assert newest["diff"].startswith("--- a/daily/2026-03-02.md\n+++ /dev/null")


def test_review_marks_and_since(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    run(capsys, str(workspace), "--changes")
    (workspace / A).write_text("changed\n")
    assert len(changes(capsys, workspace, "--since", "last-review")["entries"]) == 1
    code, out, _ = run(capsys, str(workspace), "--mark-reviewed")
    assert (code, out) == (0, "marked 1 change(s) reviewed; 0 left to review\n")
    assert changes(capsys, workspace, "--since", "last-review")["entries"] == []
    assert len(changes(capsys, workspace, "--since", "2000-01-01")["entries"]) == 1
    assert changes(capsys, workspace, "--since", "2999-01-01")["entries"] == []


def test_revert_a_version_dry_run_then_for_real(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    original = (workspace / A).read_bytes()
    run(capsys, str(workspace), "--changes")
    (workspace / A).write_text("the agent rewrote it\n")
    (entry,) = changes(capsys, workspace)["entries"]
    ref = f"{entry['id']}^"
    code, out, _ = run(capsys, str(workspace), "--revert", A, "--to", ref, "--dry-run")
    assert code == 0 and out.split() == ["rewrite", A]
    assert (workspace / A).read_text() == "the agent rewrote it\n"
    code, out, _ = run(capsys, str(workspace), "--revert", A, "--to", ref, "--json")
    assert code == 0 and json.loads(out)["written"] == [A]
    assert (workspace / A).read_bytes() == original
    newest = changes(capsys, workspace)["entries"][0]
    assert (newest["source"], newest["label"]) == ("revert", f"revert {A} to #{entry['id']}^")


def test_deleted_memory_restored(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    original = (workspace / C).read_bytes()
    run(capsys, str(workspace), "--changes")
    (workspace / C).unlink()
    (entry,) = changes(capsys, workspace)["entries"]
    code, _, _ = run(capsys, str(workspace), "--revert", C, "--to", str(entry["id"]))
    assert code == 0 and (workspace / C).read_bytes() == original


def test_usage_errors(capsys: pytest.CaptureFixture[str], workspace: Path) -> None:
    for argv, message in [
        (["--revert", A], "needs --to"),
        (["--to", "1"], "--to only applies with --revert"),
        (["--changes", "--since", "soon"], "--since"),
        (["--mark-reviewed", "2026-13-40"], "--mark-reviewed"),
        (["--revert", A, "--to", "x1"], "not a version"),
        (["--revert", A, "--to", "99"], "no change #99"),
        (["--changes", "--tag-dupes"], "cannot be combined"),
    ]:
        code, out, err = run(capsys, str(workspace), *argv)
        assert code == 2 and out == "", argv
        assert message in err, (argv, err)


def test_damaged_history_is_reported_not_a_traceback(
    capsys: pytest.CaptureFixture[str], workspace: Path, tmp_path: Path
) -> None:
    run(capsys, str(workspace), "--changes")
    (path,) = Path(os.environ["XDG_DATA_HOME"]).rglob("history.sqlite3")
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"garbage" * 1000)
    code, out, err = run(capsys, str(workspace), "--changes", "--json")
    assert code == 0
    assert "damaged" in err and json.loads(out)["history"]["baseline_recorded"] is True


def test_locked_history_is_reported_and_kept(
    capsys: pytest.CaptureFixture[str], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's exclusive lock is not damage (issue 26): exit 1, nothing set aside,
    and the next run still lists every earlier change."""
    import sqlite3

    run(capsys, str(workspace), "--changes")
    (workspace / C).write_text(memory("charlie edited\n", name="Charlie"))
    assert len(changes(capsys, workspace)["entries"]) == 1
    (path,) = Path(os.environ["XDG_DATA_HOME"]).rglob("history.sqlite3")
    monkeypatch.setattr("reme_tui.engine.history.database.BUSY_TIMEOUT_SECONDS", 0.01)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, out, err = run(capsys, str(workspace), "--changes", "--json")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (code, out) == (1, "")
    assert "database is locked" in err and "kept" in err and "damaged" not in err
    assert not [p for p in path.parent.iterdir() if ".damaged-" in p.name]
    assert len(changes(capsys, workspace)["entries"]) == 1


def test_before_a_creation_means_removed(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    run(capsys, str(workspace), "--changes")
    new = "daily/2026-03-05/new.md"
    (workspace / new).parent.mkdir(parents=True)
    (workspace / new).write_text("agent wrote this\n")
    (entry,) = changes(capsys, workspace)["entries"]
    code, _, _ = run(capsys, str(workspace), "--revert", new, "--to", f"{entry['id']}^")
    assert code == 0 and not (workspace / new).exists()
    assert changes(capsys, workspace)["entries"][0]["kind"] == "deleted"


def test_hostile_names_never_reach_the_terminal_raw(
    capsys: pytest.CaptureFixture[str], workspace: Path
) -> None:
    run(capsys, str(workspace), "--changes")
    evil = "digest/\x1b]0;pwned\x07.md"
    (workspace / evil).write_text(memory("x\n", name="\x1b[2J wiped"))
    code, out, _ = run(capsys, str(workspace), "--changes")
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    code, out, _ = run(capsys, str(workspace), "--changes", "--json")
    assert "\x1b" not in out and json.loads(out)["entries"][0]["path"] == evil
