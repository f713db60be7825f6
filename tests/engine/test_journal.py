"""The merge journal survives a crash: kill -9 mid-merge, then undo or resume; never the
wrong merge; partial undos retried; corrupt entries reported; private files."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.write.journal import Journal, JournalCorrupt
from reme_tui.engine.write.merge import plan_merge
from tests.helpers import memory, write_workspace


def _workspace(root: Path, count: int) -> Path:
    files = {
        f"daily/2026-01-{1 + i % 28:02d}/m{i:04d}.md": memory(
            f"budget note {i}\n", tags=["project-atlas" if i % 2 else "projectatlas", "ops"]
        )
        for i in range(count)
    }
    files["digest/older.md"] = memory("older merge\n", tags=["alpha-team"])
    return write_workspace(root, files)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*.md")}


# A merge in a child process that pauses (SIGSTOP to itself) after some files are written,
# so the parent kills it with SIGKILL at a known point: no timing guesses.
CHILD = """
import os, signal, sys
from reme_tui.engine.files import fileio
from reme_tui.engine.engine import Engine
from reme_tui.engine.write.merge import plan_merge
root, stop_after = sys.argv[1], int(sys.argv[2])
engine = Engine.open(root)
plan = plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas")
real = fileio.atomic_write
count = 0
def counting(path, data, *, expected, private=False):
    global count
    stamp = real(path, data, expected=expected, private=private)
    if not private:
        count += 1
        if count == stop_after:
            os.kill(os.getpid(), signal.SIGSTOP)
    return stamp
fileio.atomic_write = counting
engine.merge(plan)
"""


def _kill_mid_merge(root: Path, stop_after: int) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(stop_after)])
    deadline = time.monotonic() + 120
    while True:  # wait for the child to stop itself (state T in /proc)
        with open(f"/proc/{child.pid}/stat") as handle:
            if handle.read().split(") ", 1)[1].startswith("T"):
                break
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=30) == -signal.SIGKILL


@pytest.fixture
def crashed(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    root = _workspace(tmp_path / "ws", 40)
    engine = Engine.open(root)
    older = engine.merge(plan_merge(engine, ["alpha-team"], "alpha_team"))  # an older merge
    assert older.written == ["digest/older.md"]
    before = _snapshot(root)
    _kill_mid_merge(root, stop_after=7)
    return root, before


def test_undo_after_kill_9_reverts_the_interrupted_merge_not_the_older_one(
    crashed: tuple[Path, dict[str, bytes]],
) -> None:
    root, before = crashed
    after_crash = _snapshot(root)
    assert sum(after_crash[k] != before[k] for k in before) == 7  # torn between files only
    assert not [p for p in (root / "daily").rglob("*") if p.name.endswith(".reme-tmp")]
    entry = Journal(root).last_undoable()
    assert entry is not None and entry["state"] == "pending" and entry["into"] == "project_atlas"
    engine = Engine.open(root)
    result = engine.undo_merge()
    assert result is not None and not result.refused
    assert _snapshot(root) == before  # older merge untouched, interrupted one undone
    assert engine.fingerprint() == Engine.open(root).fingerprint()
    nxt = Journal(root).last_undoable()
    assert nxt is not None and nxt["into"] == "alpha_team"  # only now the older one


def test_resume_after_kill_9_finishes_the_merge(crashed: tuple[Path, dict[str, bytes]]) -> None:
    root, _ = crashed
    engine = Engine.open(root)
    result = engine.resume_merge()
    assert result is not None and not result.refused and len(result.written) == 40
    assert engine.files_with_tag("project-atlas") == frozenset()
    assert engine.files_with_tag("projectatlas") == frozenset()
    assert len(engine.files_with_tag("project_atlas")) == 40
    assert Journal(root).last_pending() is None
    undone = engine.undo_merge()  # and the resumed merge can be undone as a whole
    assert undone is not None and len(undone.written) == 40


def test_partial_undo_can_be_retried(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", 6)
    before = _snapshot(root)
    engine = Engine.open(root)
    engine.merge(plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas"))
    locked = root / "daily/2026-01-01/m0000.md"
    locked.chmod(0o444)  # refused by the write path, even as root
    first = engine.undo_merge()
    assert first is not None and [p for p, _ in first.refused] == ["daily/2026-01-01/m0000.md"]
    assert "read-only" in first.refused[0][1]
    entry = Journal(root).last_undoable()
    assert entry is not None and entry["state"] == "partly-undone"
    locked.chmod(0o644)
    second = engine.undo_merge()
    assert second is not None and not second.refused
    assert _snapshot(root) == before
    assert Journal(root).last_undoable() is None


def test_corrupt_journal_is_reported_not_read_as_nothing(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", 4)
    engine = Engine.open(root)
    engine.merge(plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas"))
    journal = Journal(root)
    newest = sorted(journal.directory.glob("*.json"))[-1]
    newest.write_text('{"id": "x", "state": "applied", "files": [')  # torn JSON
    with pytest.raises(JournalCorrupt, match=newest.name):
        journal.last_undoable()
    with pytest.raises(JournalCorrupt):
        engine.undo_merge()
    newest.write_text(json.dumps({"id": "x", "state": "applied", "files": [{"path": 3}]}))
    with pytest.raises(JournalCorrupt, match="malformed"):
        journal.last_undoable()


def test_journal_copies_keep_memories_private(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", 2)
    for path in root.rglob("*.md"):
        path.chmod(0o600)
    engine = Engine.open(root)
    engine.merge(plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas"))
    journal = Journal(root)
    (entry,) = journal.directory.glob("*.json")
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    for directory in (journal.directory, journal.directory.parent):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700


def test_read_only_data_dir_is_a_clear_error_and_nothing_is_written(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", 2)
    before = _snapshot(root)
    data = tmp_path / "data"
    data.mkdir()
    blocker = data / "workspaces"
    blocker.write_text("not a directory")  # as good as read-only, even for root
    engine = Engine.open(root)
    plan = plan_merge(engine, ["project-atlas", "projectatlas"], "project_atlas")
    with pytest.raises(OSError):
        engine.merge(plan, data_dir=data)
    assert _snapshot(root) == before


def test_old_finished_entries_are_pruned_and_unfinished_ones_kept(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "ws", data_dir=tmp_path / "data")
    now = time.mktime(time.strptime("20260601T120000", "%Y%m%dT%H%M%S"))
    states = {
        "20260101T000000-000": "applied",
        "20260102T000000-000": "undone",
        "20260103T000000-000": "nothing-written",
        "20260104T000000-000": "pending",
        "20260105T000000-000": "partly-undone",
        "20260520T000000-000": "applied",  # within 90 days
    }
    for entry_id, state in states.items():
        journal.save({"id": entry_id, "state": state, "files": []})
    (journal.directory / "20260106T000000-000.json").write_text("{not json")
    assert journal.prune(90, now=now) == 3
    left = sorted(p.stem for p in journal.directory.glob("*.json"))
    assert left == [
        "20260104T000000-000",
        "20260105T000000-000",
        "20260106T000000-000",
        "20260520T000000-000",
    ]
    assert journal.prune(90, now=now) == 0
