"""Completion and the man page, both made from the table: what `__complete` answers, the
scripts `completion SHELL` prints, and docs/reme-tui.1 kept equal to `reme-tui manpage`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reme_tui import __version__
from reme_tui.cli import main
from reme_tui.cli.completion import DIRS, FILES, candidates
from reme_tui.cli.manpage import render
from reme_tui.cli.table import MODES
from tests.helpers import memory, write_workspace

CHECKOUT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01.md": memory("kickoff\n", tags=["alice", "project_atlas"]),
            "digest/wiki/atlas.md": memory("atlas\n", tags=["alicia"]),
        },
    )


def saved(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", str(workspace)]) == 0  # completion reads the saved index
    capsys.readouterr()


def test_commands_flags_and_choices(workspace: Path) -> None:
    visible = [m.command for m in MODES if not m.hidden]
    assert candidates([], "") == visible and "__complete" not in visible
    assert candidates([], "li") == ["list"]
    assert candidates([], "./") == [DIRS]  # no command: a workspace folder for the app
    assert candidates(["search"], "--lim") == ["--limit"]
    assert "--theme" not in candidates(["search"], "--")
    assert candidates([], "--th") == ["--theme"]  # the app's flags, without a command
    assert candidates(["diagnostics", "--fail-on"], "") == ["warning", "error"]
    assert candidates(["config"], "") == ["path", "show", "keys"]
    assert candidates(["completion"], "f") == ["fish"]
    assert candidates(["tags"], "") == [DIRS] and candidates(["tags", "-w"], "") == [DIRS]
    assert candidates(["search", "x", "--config"], "") == [FILES]
    assert candidates(["search"], "") == []  # a query: nothing to offer


def test_tags_and_paths_come_from_the_saved_index(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = str(workspace)
    assert candidates(["list", ws, "--tag"], "ali") == []  # no saved index yet: nothing
    saved(workspace, capsys)
    assert candidates(["list", ws, "--tag"], "ali") == ["alice", "alicia"]
    assert candidates(["merge", "-w", ws], "pro") == ["project_atlas"]
    assert candidates(["merge", "-w", ws, "alice", "--into"], "") == [
        "alice", "alicia", "project_atlas"
    ]  # fmt: skip
    assert candidates(["edit-tags", "-w", ws, "daily/2026-03-01.md", "--set", "x"], "a") == [
        "alice", "alicia"
    ]  # fmt: skip
    assert candidates(["explain", "-w", ws], "d") == ["daily/2026-03-01.md", "digest/wiki/atlas.md"]
    assert candidates(["list", ws, "--path-prefix"], "dig") == ["digest/wiki/atlas.md"]


def test_complete_prints_one_candidate_a_line_and_nothing_else(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved(workspace, capsys)
    assert main(["__complete", "--", "list", str(workspace), "--tag", "ali"]) == 0
    assert capsys.readouterr() == ("alice\nalicia\n", "")
    assert main(["__complete", "--", "--bogus", "--", "-"]) == 0  # words are data, never flags
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_script_that_asks_complete(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert "__complete --" in script and ":dirs" in script
    if shutil.which(shell):
        check = ["bash", "-n"] if shell == "bash" else [shell, "-n"]
        subprocess.run([*check], input=script, text=True, check=True)


def test_the_man_page_is_made_from_the_table_and_checked_in() -> None:
    page = render(__version__)
    for mode in MODES:
        heading = ".SS " + f"reme-tui {mode.command}".replace("-", "\\-")
        assert (heading in page) != mode.hidden
    assert (CHECKOUT / "docs" / "reme-tui.1").read_text() == page, (
        "docs/reme-tui.1 is stale: .venv/bin/reme-tui manpage > docs/reme-tui.1"
    )
    if shutil.which("groff"):
        done = subprocess.run(["groff", "-man", "-ww", "-Tutf8", "-P-cbou"], input=page, text=True,
                              capture_output=True, check=True)  # fmt: skip
        assert done.stderr == "" and "EXIT STATUS" in done.stdout
