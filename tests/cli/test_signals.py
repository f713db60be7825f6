"""Ctrl-C and SIGTERM end reme-tui quietly wherever they land, and --follow saves what it
followed on either (issue 26). The signals are real: the process sends them to itself when
a chosen module is first imported, so where they land does not depend on timing."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index.store_choice import saved_index
from tests.cli.test_follow import read_json_line
from tests.helpers import memory, write_workspace

# Runs the console script's entry point after planting a finder that signals this process
# the moment MODULE is first imported (the finder itself imports nothing).
SIGNAL_DURING_IMPORT = """
import os, signal, sys
module, signum = sys.argv.pop(1), int(sys.argv.pop(1))
class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == module:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signum)
        return None
sys.meta_path.insert(0, SignalOnImport())
from reme_tui.cli import run
sys.exit(run())
"""


def run_signalled_during_import(module: str, signum: int, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-c", SIGNAL_DURING_IMPORT, module, str(int(signum)), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stderr


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"]
)
@pytest.mark.parametrize("module", ["yaml", "reme_tui.engine.engine", "numpy"])
@pytest.mark.parametrize("mode", [["tags"], ["search", "budget", "--follow"]])
def test_a_signal_while_the_modules_load_exits_quietly(
    tmp_path: Path, signum: int, code: int, module: str, mode: list[str]
) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget one\n", tags=["alice"])})
    returncode, stderr = run_signalled_during_import(module, signum, *mode, str(tmp_path))
    assert (returncode, stderr) == (code, "")


def test_sigterm_stops_follow_and_saves_what_it_followed(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget one\n", tags=["alice"])})
    follow = ["search", "budget", str(tmp_path), "--follow", "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "reme_tui", *follow],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        read_json_line(proc)
        write_workspace(tmp_path, {"digest/b.md": memory("budget two budget\n", tags=["bob"])})
        assert len(read_json_line(proc)["results"]) == 2  # b.md is in the index, not yet saved
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
    assert (proc.returncode, err) == (0, "")
    store = saved_index(tmp_path.resolve(), all_markdown=False)
    assert store is not None
    saved = store.load(Engine.create(tmp_path)._config_key())
    assert {m.path for m in saved.memories} == {"digest/a.md", "digest/b.md"}
