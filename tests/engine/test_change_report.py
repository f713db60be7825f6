"""The ``--changes`` document and its argument parsing (no CLI, no UI)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.history.database import ChangeHistory
from reme_tui.engine.history.entries import Observed
from reme_tui.engine.history.report import (
    ReportArgumentError,
    report_json,
    report_text,
    select,
    time_bound,
    until_bound,
    version_id,
)
from tests.helpers import memory, write_workspace

A = "daily/2026-03-01/a.md"
B = "digest/b.md"


def test_document_has_kinds_paths_times_tags_and_diff(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {A: memory("one\n", tags=["x"]), B: memory("b\n")})
    engine = Engine.open(ws)
    engine.attach_history(ChangeHistory.for_workspace(ws, tmp_path / "data"))
    engine.sync_history()
    (ws / A).write_text(memory("one\ntwo\n", tags=["y"]))
    os.rename(ws / B, ws / "digest/b2.md")
    engine.apply([A, B, "digest/b2.md"])
    history = engine.history
    document = report_json(history, select(history, None), since=None, tag_field="memory_tags")
    json.dumps(document)  # serializable as one document
    by_path = {e["path"]: e for e in document["entries"]}
    modified = by_path[A]
    assert modified["kind"] == "modified"
    assert (modified["tags_removed"], modified["tags_added"]) == (["x"], ["y"])
    assert "+two" in modified["diff"] and modified["diff"].startswith("--- a/" + A)
    assert dt.datetime.fromisoformat(modified["time"]).tzinfo is not None
    moved = by_path["digest/b2.md"]
    assert (moved["kind"], moved["old_path"]) == ("moved", B)
    assert document["history"]["unreviewed"] == 2
    churn = document["tag_churn"]
    assert churn == {"x": {"added": 0, "removed": 1}, "y": {"added": 1, "removed": 0}}
    assert len(document["groups"]) == 1
    text = report_text(select(history, None))
    assert f"modified  {A}  tags: x → y" in text


def test_since_and_last_review(tmp_path: Path) -> None:
    history = ChangeHistory(tmp_path / "h.sqlite3")
    history.record_baseline([])
    day = dt.datetime(2026, 3, 10, 12, 0)
    history.record([Observed(A, b"1")], time_ns=int(day.timestamp() * 1e9))
    history.record([Observed(A, b"2")], time_ns=int((day + dt.timedelta(days=2)).timestamp() * 1e9))
    assert len(select(history, "2026-03-11")) == 1
    assert len(select(history, "2026-3-10")) == 2
    history.mark_reviewed_until(until_bound(history, "2026-03-10"))
    assert [e.new_hash for e in select(history, "last-review")] == [history.current()[A]]
    newest = history.entries()[0]
    assert until_bound(history, f"#{newest.id}") == newest.time_ns


def test_bad_arguments_are_clear(tmp_path: Path) -> None:
    history = ChangeHistory(tmp_path / "h.sqlite3")
    for bad in ("yesterday", "2026-02-30", "2026-03-01T25:00"):
        with pytest.raises(ReportArgumentError):
            time_bound(bad, end_of_day=False)
    with pytest.raises(ReportArgumentError):
        version_id("abc")
    with pytest.raises(ReportArgumentError, match="no change"):
        until_bound(history, "#999")
    assert version_id("#12") == version_id("12") == 12
    assert time_bound("2026-03-01T10:30", end_of_day=False) < time_bound(
        "2026-03-01", end_of_day=True
    )
