"""Killing the process mid-record leaves a consistent history (a real ``kill -9``)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from reme_tui.engine.history.database import ChangeHistory

_WRITER = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from reme_tui.engine.history.database import ChangeHistory, Observed

    history = ChangeHistory(Path(sys.argv[1]))
    history.record_baseline([])
    batch = 0
    while True:
        batch += 1
        # 200 files per batch, each a fresh version: one transaction per batch.
        history.record(
            [Observed(f"daily/x/{i}.md", os.urandom(64) * 40) for i in range(200)],
            label=f"batch {batch}",
        )
        print(batch, flush=True)
    """
)


def test_kill_minus_nine_mid_record_leaves_a_consistent_history(tmp_path: Path) -> None:
    db = tmp_path / "data" / "history.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert child.stdout is not None
    committed = 0
    for line in child.stdout:
        committed = int(line)
        if committed >= 3:
            break
    os.kill(child.pid, signal.SIGKILL)  # most likely inside batch 4's transaction
    child.wait()
    assert committed >= 3

    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        sizes = conn.execute(
            "SELECT count(*) FROM entries GROUP BY group_id ORDER BY group_id"
        ).fetchall()
    assert len(sizes) >= committed
    assert all(size == (200,) for size in sizes)  # no half-recorded batch

    history = ChangeHistory(db)
    entries = history.entries()
    for entry in entries:
        assert entry.new_hash is not None
        assert len(history.blob(entry.new_hash)) == 64 * 40
    current = history.current()
    assert len(current) == 200
    newest = {e.path: e.new_hash for e in reversed(entries)}
    assert current == newest  # the recorded state agrees with the last whole batch
