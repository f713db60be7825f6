"""`--follow` prints results again when files change, one JSON document per line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from reme_tui.engine.engine import Engine
from reme_tui.engine.index.store_choice import saved_index
from tests.helpers import memory, write_workspace


def read_json_line(proc: subprocess.Popen[str], timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.strip():
            return json.loads(line)
    raise AssertionError("no output from --follow")


def test_follow_json_emits_on_change_and_exits_zero_on_ctrl_c(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget one\n", tags=["alice"])})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reme_tui",
            str(tmp_path),
            "--query",
            "budget",
            "--follow",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = read_json_line(proc)
        assert [r["path"] for r in first["results"]] == ["digest/a.md"]
        # Written at once, before the watcher can have armed: the armed rescan finds it.
        write_workspace(tmp_path, {"digest/b.md": memory("budget two budget\n", tags=["bob"])})
        second = read_json_line(proc)
        assert {r["path"] for r in second["results"]} == {"digest/a.md", "digest/b.md"}
        assert set(second) == {"query", "tag_filter", "results", "links", "counts"}
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    # What it followed is saved when it stops: the next start is warm and current.
    store = saved_index(tmp_path.resolve(), all_markdown=False)
    assert store is not None
    saved = store.load(Engine.create(tmp_path)._config_key())
    assert {m.path for m in saved.memories} == {"digest/a.md", "digest/b.md"}
