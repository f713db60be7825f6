"""`--follow` prints results again when files change, one JSON document per line."""

from __future__ import annotations

import json
import os
import select
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
        assert set(second) == {"schema", "query", "tag_filter", "results", "links", "counts"}
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


def test_follow_piped_into_grep_ctrl_c_exits_zero_and_grep_130(tmp_path: Path) -> None:
    """README: in ``--follow | grep x`` Ctrl-C (SIGINT to the whole foreground group) stops
    grep too; the shell's 130 is grep's status, reme-tui's own (``${PIPESTATUS[0]}``) is 0.
    The signal comes as soon as the first results are out: the stop handler must already
    be in place then (issue 22)."""
    write_workspace(tmp_path, {"digest/a.md": memory("budget one\n", tags=["alice"])})
    follow = subprocess.Popen(
        [sys.executable, "-m", "reme_tui", str(tmp_path), "--query", "budget", "--follow"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,  # its own group, as a shell gives a pipeline
    )
    assert follow.stdout is not None
    grep = subprocess.Popen(
        ["grep", "--line-buffered", "digest/a.md"],
        stdin=follow.stdout,
        stdout=subprocess.PIPE,
        text=True,
        process_group=follow.pid,
        # A shell's foreground job takes Ctrl-C's default action even where this test
        # runs with SIGINT ignored (a background job of a script inherits SIG_IGN).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    follow.stdout.close()  # grep holds the pipe's read end now
    try:
        assert grep.stdout is not None
        ready, _, _ = select.select([grep.stdout], [], [], 20)
        assert ready, "no results through grep"
        assert "digest/a.md" in grep.stdout.readline()
    finally:
        os.killpg(follow.pid, signal.SIGINT)  # what Ctrl-C does to the foreground group
        _out, err = follow.communicate(timeout=10)
        grep.communicate(timeout=10)
    assert grep.returncode == -signal.SIGINT  # the shell's 130
    assert follow.returncode == 0, err
    assert "Traceback" not in err
