"""The change history: recording, moves, reconcile at start, diffs, review, retention,
revert, hostile stores. Plain pytest, no UI."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.history.database import ChangeHistory
from reme_tui.engine.history.diff import diff_entry
from reme_tui.engine.history.entries import HistoryError, Observed, content_key
from reme_tui.engine.history.timeline import bursts, tag_churn
from reme_tui.engine.write.revert import plan_undo, plan_version
from tests.helpers import memory, write_workspace

A = "daily/2026-03-01/a.md"
B = "daily/2026-03-01/b.md"
C = "digest/c.md"


def _open(root: Path, data: Path) -> Engine:
    engine = Engine.open(root)
    engine.attach_history(ChangeHistory.for_workspace(root, data))
    engine.sync_history()
    return engine


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            A: memory("alpha line\nsecond\n", name="Alpha", tags=["project-atlas"]),
            B: memory(f"bravo links [[{A}]]\n", name="Bravo"),
            C: memory("charlie\n", name="Charlie", tags=["x"]),
        },
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_first_start_is_a_silent_baseline(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    history = engine.history
    assert history is not None and history.has_baseline
    assert history.entries() == []
    assert set(history.current()) == {A, B, C}
    assert history.blob(history.current()[A]) == (ws / A).read_bytes()


def test_live_changes_get_their_kind_summary_and_tags(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(memory("alpha line\nsecond\nthird\n", name="Alpha", tags=["project_atlas"]))
    engine.apply([A])
    (ws / "digest/new.md").write_text(memory("new one\n", name="New"))
    engine.apply(["digest/new.md"])
    (ws / C).unlink()
    engine.apply([C])
    entries = engine.history.entries()
    assert [(e.kind, e.path) for e in entries] == [
        ("deleted", C),
        ("created", "digest/new.md"),
        ("modified", A),
    ]
    modified = entries[2]
    assert modified.tags_before == ("project-atlas",)
    assert modified.tags_after == ("project_atlas",)
    assert modified.summary == "tags: project-atlas → project_atlas; +2 −1 lines"
    assert modified.name == "Alpha"
    assert entries[1].summary.startswith("new, ")
    assert entries[0].name == "Charlie"


def test_same_content_under_a_new_path_is_a_move(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / "digest/moved").mkdir()
    os.rename(ws / C, ws / "digest/moved/c.md")
    engine.apply([C, "digest/moved/c.md"])
    (entry,) = engine.history.entries()
    assert (entry.kind, entry.path, entry.old_path) == ("moved", "digest/moved/c.md", C)
    assert entry.summary == "moved from digest/c.md"


def test_reme_move_with_link_rewrites_is_one_group(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    new = "digest/a-moved.md"
    os.rename(ws / A, ws / new)
    text_b = (ws / B).read_text().replace(f"[[{A}]]", f"[[{new}]]")
    (ws / B).write_text(text_b)
    engine.apply([A, new, B])
    entries = engine.history.entries()
    assert {(e.kind, e.path) for e in entries} == {("moved", new), ("modified", B)}
    assert len({e.group for e in entries}) == 1
    rewritten = next(e for e in entries if e.path == B)
    assert rewritten.note == f"links: [[{A}]] → [[{new}]]"
    assert entries[0].label.startswith(f"move {A} → {new}")


def test_a_moved_file_whose_own_links_were_rewritten_is_still_a_move(
    tmp_path: Path, data: Path
) -> None:
    old, new = "digest/self.md", "digest/renamed.md"
    ws = write_workspace(tmp_path / "w", {old: memory(f"see [[{old}#top]]\n")})
    engine = _open(ws, data)
    (ws / new).write_text((ws / old).read_text().replace(f"[[{old}", f"[[{new}"))
    (ws / old).unlink()
    engine.apply([old, new])
    (entry,) = engine.history.entries()
    assert (entry.kind, entry.old_path) == ("moved", old)


def test_start_records_what_changed_behind_its_back(ws: Path, data: Path) -> None:
    _open(ws, data).history.close()
    (ws / A).write_text(memory("alpha changed\n", name="Alpha", tags=["project-atlas"]))
    os.rename(ws / C, ws / "digest/c2.md")
    (ws / "daily/2026-03-02.md").write_text("day\n")
    engine = _open(ws, data)
    kinds = {(e.kind, e.path, e.source) for e in engine.history.entries()}
    assert kinds == {
        ("modified", A, "start"),
        ("moved", "digest/c2.md", "start"),
        ("created", "daily/2026-03-02.md", "start"),
    }
    assert engine.sync_history().entries == []  # nothing new the second time


def test_versions_are_deduplicated_and_stored_as_deltas(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    history = engine.history
    original = (ws / A).read_bytes()
    big = memory("".join(f"line {i} of a long memory\n" for i in range(400)), name="Alpha")
    (ws / A).write_text(big)
    engine.apply([A])
    (ws / A).write_text(big + "one more line\n")
    engine.apply([A])
    (ws / A).write_bytes(original)
    engine.apply([A])
    (ws / B).write_bytes(original)  # same bytes as A's first version: no new blob
    blobs_before = history.stats().blobs
    engine.apply([B])
    assert history.stats().blobs == blobs_before
    with sqlite3.connect(history.path) as conn:
        base, size = conn.execute(
            "SELECT base, length(data) FROM blobs WHERE hash=?",
            (content_key((big + "one more line\n").encode()),),
        ).fetchone()
    assert base == content_key(big.encode())
    assert size < 100


def test_diff_calls_out_tags_and_frontmatter(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(
        memory("alpha line\nsecond!\n", name="Alpha", tags=["project_atlas"], extra="type: x")
    )
    engine.apply([A])
    (entry,) = engine.history.entries()
    diff = diff_entry(engine.history, entry)
    assert (diff.tags_before, diff.tags_after) == (("project-atlas",), ("project_atlas",))
    assert [(f.key, f.before, f.after) for f in diff.fields] == [("type", None, '"x"')]
    assert "-second\n+second!\n" in diff.body_diff
    assert "memory_tags" not in diff.body_diff
    assert "+memory_tags: [project_atlas]" in diff.unified


def test_review_marks(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    for i in range(3):
        (ws / A).write_text(memory(f"v{i}\n"))
        engine.apply([A])
    history = engine.history
    newest = history.entries()[0]
    assert history.unreviewed_count() == 3
    assert history.mark_reviewed([newest.id]) == 1
    assert history.unreviewed_count() == 2
    assert [e.id for e in history.entries(unreviewed=True)] == [e.id for e in history.entries()[1:]]
    assert history.mark_reviewed_until() == 2
    assert history.unreviewed_count() == 0
    assert history.last_review_ns is not None


def test_bursts_join_agent_batches_but_not_own_edits(ws: Path, data: Path) -> None:
    history = ChangeHistory.for_workspace(ws, data)
    history.record_baseline([])
    second = 1_000_000_000
    history.record([Observed(A, b"1")], time_ns=100 * second)
    history.record([Observed(B, b"2")], time_ns=160 * second)
    history.record([Observed(C, b"3")], time_ns=170 * second, source="merge", label="merge")
    history.record([Observed(A, b"4")], time_ns=1000 * second)
    groups = bursts(history.entries())
    assert [[e.path for e in g.entries] for g in groups] == [[A], [C], [B, A]]
    assert groups[1].label == "merge"


def test_tag_churn_counts_additions_and_removals(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(memory("x\n", tags=["project_atlas"]))
    engine.apply([A])
    (ws / C).write_text(memory("y\n", tags=["x", "project_atlas"]))
    engine.apply([C])
    churn = tag_churn(engine.history.entries())
    assert churn["project_atlas"]["added"] == 2
    assert churn["project-atlas"]["removed"] == 1


def test_retention_drops_old_entries_and_unneeded_blobs(ws: Path, data: Path) -> None:
    history = ChangeHistory.for_workspace(ws, data, retention_days=90)
    history.record_baseline([])
    day = 86_400 * 1_000_000_000
    old, current = os.urandom(3000), os.urandom(3000)  # unrelated: no delta between them
    history.record([Observed(A, old)], time_ns=0)
    history.record([Observed(A, current)], time_ns=100 * day)
    assert history.prune(now_ns=100 * day) == 1
    assert [e.new_hash for e in history.entries()] == [content_key(current)]
    assert history.blob(content_key(current)) == current
    assert history.blob(history.entries()[0].old_hash) == old  # the kept entry's "before"
    history.record([Observed(A, os.urandom(3000))], time_ns=200 * day)
    history.prune(now_ns=200 * day)
    with pytest.raises(HistoryError):
        history.blob(content_key(old))  # nothing needs it any more


def test_revert_one_version_is_recorded(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    first = (ws / A).read_bytes()
    (ws / A).write_text(memory("agent rewrote this\n"))
    engine.apply([A])
    (entry,) = engine.history.entries()
    result, delta = engine.revert(plan_undo([entry]))
    assert result.ok and delta.changed == [A]
    assert (ws / A).read_bytes() == first
    newest = engine.history.entries()[0]
    assert (newest.source, newest.kind) == ("revert", "modified")
    assert newest.label == f"revert #{entry.id} (modified {A})"


def test_revert_to_a_version_by_id(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    versions = []
    for i in range(3):
        (ws / A).write_text(memory(f"version {i}\n"))
        engine.apply([A])
        versions.append(engine.history.entries()[0])
    result, _ = engine.revert(plan_version(engine.history, A, versions[0].id))
    assert result.ok
    assert (ws / A).read_text() == memory("version 0\n")


def test_revert_refused_when_the_file_changed_since(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(memory("agent\n"))
    engine.apply([A])
    plan = plan_undo(engine.history.entries())
    (ws / A).write_text(memory("the person typed here\n"))  # not yet seen by the engine
    result, delta = engine.revert(plan)
    assert result.refused == [(A, "changed since the diff was shown; not reverted")]
    assert (ws / A).read_text() == memory("the person typed here\n")
    assert delta.is_empty


def test_deleted_memory_is_restored_with_its_mode(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    before = (ws / C).read_bytes()
    (ws / C).unlink()
    engine.apply([C])
    result, delta = engine.revert(plan_undo(engine.history.entries()))
    assert result.ok and delta.added == [C]
    assert (ws / C).read_bytes() == before
    assert stat.S_IMODE(os.stat(ws / C).st_mode) == 0o644
    assert engine.history.entries()[0].kind == "created"


def test_group_revert_undoes_a_reme_move(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    a_before, b_before = (ws / A).read_bytes(), (ws / B).read_bytes()
    new = "digest/a-moved.md"
    os.rename(ws / A, ws / new)
    (ws / B).write_text((ws / B).read_text().replace(f"[[{A}]]", f"[[{new}]]"))
    engine.apply([A, new, B])
    plan = plan_undo(engine.history.entries())
    assert plan.listing() == [
        f"restore (deleted now)  {A}",
        f"rewrite                {B}",
        f"remove                 {new}",
    ]
    result, _ = engine.revert(plan)
    assert result.ok
    assert (ws / A).read_bytes() == a_before and (ws / B).read_bytes() == b_before
    assert not (ws / new).exists()
    newest = engine.history.entries()[0].group
    reverted = {(e.kind, e.path) for e in engine.history.entries() if e.group == newest}
    assert reverted == {("moved", A), ("modified", B)}  # the revert: a move back


def test_store_is_private(ws: Path, data: Path) -> None:
    history = ChangeHistory.for_workspace(ws, data)
    assert stat.S_IMODE(os.stat(history.path.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(history.path).st_mode) == 0o600
    assert not str(history.path).startswith(str(ws))


def test_garbage_store_is_set_aside(ws: Path, data: Path) -> None:
    history = ChangeHistory.for_workspace(ws, data)
    path = history.path
    history.close()
    path.write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    reopened = ChangeHistory.for_workspace(ws, data)
    assert reopened.notice is not None and "damaged" in reopened.notice
    assert reopened.entries() == []
    assert any(p.name.startswith("history.sqlite3.damaged-") for p in path.parent.iterdir())


def test_symlinked_store_is_refused(ws: Path, data: Path, tmp_path: Path) -> None:
    history = ChangeHistory.for_workspace(ws, data)
    path = history.path
    history.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    (tmp_path / "elsewhere").write_bytes(b"")
    path.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(HistoryError, match="not a regular file"):
        ChangeHistory.for_workspace(ws, data)


def test_tampered_rows_are_refused_not_trusted(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(memory("changed\n"))
    engine.apply([A])
    history = engine.history
    (entry,) = history.entries()
    with sqlite3.connect(history.path) as conn:
        junk = b"\x28\xb5\x2f\xfd junk"  # a zstd magic number, then garbage
        conn.execute("UPDATE blobs SET data=? WHERE hash=?", (junk, entry.new_hash))
        conn.execute("UPDATE blobs SET raw_size=? WHERE hash=?", (10**12, entry.old_hash))
        conn.execute(
            "INSERT INTO entries(group_id, time_ns, kind, path, tags_before, tags_after,"
            " added, removed, note) VALUES(1, 'x', 'exploded', 3, '[', '{}', 'a', 0, 5)"
        )
        conn.execute('UPDATE entries SET tags_before=\'{"not": "a list"}\'')
    with pytest.raises(HistoryError):
        history.blob(entry.new_hash)
    with pytest.raises(HistoryError, match="impossible size"):
        history.blob(entry.old_hash)
    entries = history.entries()
    assert [e.id for e in entries] == [entry.id]  # the bad row is skipped
    assert entries[0].tags_before == ()
    diff = diff_entry(history, entries[0])
    assert diff.error is not None
    result, _ = engine.revert(plan_undo(entries))
    assert not result.ok  # a damaged version is never written into the workspace
    assert (ws / A).read_text() == memory("changed\n")


def test_history_failure_does_not_stop_the_index(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    engine.history.close()
    (ws / A).write_text(memory("still indexed\n"))
    delta = engine.apply([A])
    assert delta.changed == [A]
    assert engine.history_error is not None


def test_a_merge_is_one_group_with_its_undo(ws: Path, data: Path) -> None:
    from reme_tui.engine.write.merge import plan_merge

    (ws / C).write_text(memory("charlie\n", name="Charlie", tags=["project_atlas"]))
    engine = _open(ws, data)
    plan = plan_merge(engine, ["project-atlas", "project_atlas"], "atlas")
    result = engine.merge(plan, data_dir=data)
    entries = engine.history.entries()
    assert {e.path for e in entries} == {A, C}
    assert len({e.group for e in entries}) == 1
    assert {(e.source, e.undo) for e in entries} == {("merge", result.journal_id)}
    assert entries[0].label == "merge project-atlas, project_atlas into atlas"
    engine.undo_merge(data_dir=data)
    newest = engine.history.entries()[0]
    assert (newest.source, newest.label) == ("undo", "undo merge into atlas")
    assert tag_churn(engine.history.entries())["atlas"] == {"added": 2, "removed": 2}


def test_revert_never_writes_outside_the_workspace(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).unlink()
    engine.apply([A])
    with sqlite3.connect(engine.history.path) as conn:
        conn.execute("UPDATE entries SET path='../escaped.md'")
    result, delta = engine.revert(plan_undo(engine.history.entries()))
    assert not result.ok and delta.is_empty
    assert not (ws.parent / "escaped.md").exists()


def test_revert_refuses_a_read_only_memory(ws: Path, data: Path) -> None:
    engine = _open(ws, data)
    (ws / A).write_text(memory("agent\n"))
    engine.apply([A])
    os.chmod(ws / A, 0o444)
    result, _ = engine.revert(plan_undo(engine.history.entries()))
    assert result.refused and "read-only" in result.refused[0][1]
    assert (ws / A).read_text() == memory("agent\n")


def test_revert_follows_the_engines_memory_folders(tmp_path: Path, data: Path) -> None:
    from reme_tui.engine.engine import EngineConfig

    rel = "notes/x.md"  # a memory only with --all-markdown
    ws = write_workspace(tmp_path / "all", {rel: "first\n"})
    engine = Engine.open(ws, EngineConfig(all_markdown=True))
    engine.attach_history(ChangeHistory.for_workspace(ws, data))
    engine.sync_history()
    (ws / rel).unlink()
    engine.apply([rel])
    result, _ = engine.revert(plan_undo(engine.history.entries()))
    assert result.ok and (ws / rel).read_text() == "first\n"


def _recorded_history(ws: Path, data: Path) -> Path:
    """A history with one recorded change; returns its path (closed)."""
    engine = Engine.open(ws)
    recording = ChangeHistory.for_workspace(ws, data)
    engine.attach_history(recording)
    engine.sync_history()
    (ws / C).write_text(memory("charlie changed\n", name="Charlie", tags=["x"]))
    engine.apply([C])
    recording.close()
    history = ChangeHistory.for_workspace(ws, data)
    assert history.entries()
    history.close()
    return history.path


def _nothing_set_aside(path: Path) -> bool:
    return not any(".damaged-" in p.name for p in path.parent.iterdir())


def test_a_locked_history_is_reported_and_kept(
    ws: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's exclusive lock is not damage (issue 26): nothing is set aside."""
    path = _recorded_history(ws, data)
    monkeypatch.setattr("reme_tui.engine.history.database.BUSY_TIMEOUT_SECONDS", 0.01)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(HistoryError, match=r"locked.*kept"):
            ChangeHistory.for_workspace(ws, data)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _nothing_set_aside(path)
    assert ChangeHistory.for_workspace(ws, data).entries()  # every earlier change is still there


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (sqlite3.SQLITE_IOERR_WRITE, "disk I/O error"),
        (sqlite3.SQLITE_FULL, "database or disk is full"),
        (sqlite3.SQLITE_CANTOPEN, "unable to open database file"),
    ],
)
def test_a_failing_disk_keeps_the_history(
    ws: Path, data: Path, monkeypatch: pytest.MonkeyPatch, code: int, message: str
) -> None:
    path = _recorded_history(ws, data)

    def failing(self: ChangeHistory) -> sqlite3.Connection:
        error = sqlite3.OperationalError(message)
        error.sqlite_errorcode = code  # type: ignore[misc]
        raise error

    with monkeypatch.context() as patched:
        patched.setattr(ChangeHistory, "_open_checked", failing)
        with pytest.raises(HistoryError, match="kept"):
            ChangeHistory.for_workspace(ws, data)
    assert _nothing_set_aside(path)
    assert ChangeHistory.for_workspace(ws, data).entries()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_foreign_owned_history_is_refused(ws: Path, data: Path) -> None:
    path = _recorded_history(ws, data)
    os.chown(path, 1234, 1234)
    path.chmod(0o644)
    with pytest.raises(HistoryError, match="another user"):
        ChangeHistory.for_workspace(ws, data)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not chmod'ed either


def test_planted_schema_objects_are_dropped(ws: Path, data: Path) -> None:
    path = _recorded_history(ws, data)
    planted = sqlite3.connect(path, isolation_level=None)
    planted.execute("CREATE TRIGGER eat AFTER INSERT ON entries BEGIN DELETE FROM blobs; END")
    planted.execute("CREATE VIEW peek AS SELECT * FROM blobs")
    planted.close()
    history = ChangeHistory.for_workspace(ws, data)
    names = {row[0] for row in history._query("SELECT name FROM sqlite_master")}
    history.close()
    assert not names & {"eat", "peek"}
