"""`--follow` on a workspace that is deleted or moved away: a clear message, exit 1."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_follow import read_json_line
from tests.helpers import memory, write_workspace


def follow(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "reme_tui", str(root), "--query", "budget", "--follow", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("how", ["deleted", "renamed", "swapped"])
def test_follow_stops_with_a_message_when_the_workspace_goes(tmp_path: Path, how: str) -> None:
    root = tmp_path / "ws"
    write_workspace(root, {"digest/a.md": memory("budget one\n", tags=["alice"])})
    proc = follow(root)
    try:
        first = read_json_line(proc)
        assert [r["path"] for r in first["results"]] == ["digest/a.md"]
        # At once: gone before or after the watcher arms, it must stop and say so.
        if how == "deleted":
            shutil.rmtree(root)
        else:
            root.rename(tmp_path / "elsewhere")
            if how == "swapped":  # another folder in its place: not the one being followed
                write_workspace(root, {"digest/b.md": memory("budget two\n")})
        _out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1, err
    assert "was deleted or moved" in err and str(root) in err
    assert "Traceback" not in err


def test_follow_on_a_missing_workspace_exits_1(tmp_path: Path) -> None:
    proc = follow(tmp_path / "nope")
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 1 and out == ""
    assert "does not exist" in err and "Traceback" not in err
