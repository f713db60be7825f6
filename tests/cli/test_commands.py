"""`reme-tui COMMAND`: the commands of the table, their help, their short mistakes, and the
old mode flags that still work as aliases (with a note on stderr)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.cli.table import APP, COMMANDS, MODES
from tests.helpers import memory, write_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01.md": memory("budget kickoff\n", tags=["alice"]),
            "daily/2026-03-02.md": memory("budget review\n", tags=["bob", "alice"]),
            "digest/wiki/atlas.md": memory("atlas budget\n", name="Atlas", tags=["Alice"]),
        },
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def exits(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """For help and parse errors, which leave through SystemExit as argparse does."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    assert isinstance(exit_info.value.code, int)
    return exit_info.value.code, out, err


def test_the_top_help_lists_every_command_in_a_screenful(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = exits(capsys, "--help")
    assert code == 0 and err == ""
    assert out.startswith("usage: reme-tui [COMMAND] [WORKSPACE]")
    for mode in MODES:
        assert (f"  {mode.command} " in out) != mode.hidden
    assert "./NAME" in out and "exit codes" in out
    assert len(out.splitlines()) < 60


@pytest.mark.parametrize("command", [c for c, mode in COMMANDS.items() if not mode.hidden])
def test_every_command_has_its_own_help_with_examples(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, _ = exits(capsys, command, "--help")
    assert code == 0
    assert out.startswith(f"usage: {COMMANDS[command].usage}\n")
    examples = out.split("examples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert examples and all(line.startswith("  ") and "reme-tui" in line for line in examples)
    assert "\n" not in COMMANDS[command].usage


def test_version_is_printed_by_every_form(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--version"], ["search", "--version"], ["tags", "--version"]):
        code, out, _ = exits(capsys, *argv)
        assert code == 0 and out.startswith("reme-tui ")


def test_a_command_runs_like_the_old_flag_and_the_old_flag_says_what_replaces_it(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pairs = [
        (["search", "budget", str(workspace), "--json"], [str(workspace), "--query", "budget"]),
        (["tags", str(workspace), "--json"], [str(workspace), "--list-tags"]),
        (["diagnostics", str(workspace), "--json"], [str(workspace), "--diagnostics"]),
        (["dupes", str(workspace), "--json"], [str(workspace), "--tag-dupes"]),
        (
            ["explain", "daily/2026-03-01.md", "budget", str(workspace), "--json"],
            [str(workspace), "--explain", "daily/2026-03-01.md", "--query", "budget"],
        ),
        (
            ["suggest-tags", "daily/2026-03-01.md", str(workspace), "--json"],
            [str(workspace), "--suggest-tags", "daily/2026-03-01.md"],
        ),
    ]
    for new, old in pairs:
        code, new_out, new_err = run(capsys, *new)
        assert code == 0 and "deprecated" not in new_err
        code, old_out, old_err = run(capsys, *old, "--json")
        assert code == 0 and old_out == new_out
        (note,) = [line for line in old_err.splitlines() if "deprecated" in line]
        assert note.startswith(f"reme-tui: note: {old[1]} is deprecated")
        assert f"use: reme-tui {new[0]} " in note


def test_the_app_is_the_default_and_a_command(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO())  # no terminal: refused at once, exit 2
    for argv in ([str(workspace)], [APP, str(workspace)], [APP, "-w", str(workspace)]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and "needs a terminal" in err
        assert "deprecated" not in err


def test_a_workspace_named_like_a_command_is_written_with_dot_slash(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    named = workspace.rename(workspace.parent / "search")
    monkeypatch.chdir(named.parent)
    code, out, _ = run(capsys, "tags", "./search", "--json")
    assert code == 0 and json.loads(out)["total_tags"] == 2
    monkeypatch.setattr("sys.stdin", io.StringIO())
    code, _, err = run(capsys, "./search")
    assert code == 2 and "needs a terminal" in err  # the folder, opened in the app
    code, _, err = exits(capsys, "search")
    assert code == 2 and "QUERY" in err  # the command, missing its query


def test_a_mistake_is_three_or_four_lines_with_what_was_meant(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = exits(capsys, "search", "budget", str(workspace), "--limt", "3")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "usage: reme-tui search QUERY [WORKSPACE] [options]",
        "reme-tui: error: unrecognized arguments: --limt 3",
        "reme-tui: --limt: did you mean --limit?",
        "(more: reme-tui search --help)",
    ]
    code, _, err = exits(capsys, "search", "budget", "--theme", "reme-paper")
    assert code == 2 and "--theme is an option of: demo, app" in err
    code, _, err = exits(capsys, "search", "--quer", "x")
    assert code == 2 and "did you mean --query? (--query is the old form of: reme-tui search" in err


def test_flag_names_are_exact(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # argparse's default would run `--lim 3` as --limit, and `--quer budget` as --query.
    code, _, err = exits(capsys, "search", "budget", str(workspace), "--lim", "3")
    assert code == 2 and "did you mean --limit?" in err
    code, out, err = exits(capsys, str(workspace), "--quer", "budget")
    assert code == 2 and out == "" and "did you mean --query?" in err
    assert len(err.splitlines()) <= 4


def test_a_mistyped_command_is_named(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "serch", "budget")
    assert code == 2 and out == ""
    assert "did you mean: reme-tui search?" in err and err.count("\n") == 1
    # A path, or a folder that exists, is a workspace, never a command.
    code, _, err = run(capsys, str(workspace.parent / "tagz"), "--list-tags")
    assert code == 1 and "does not exist" in err


def test_edit_tags_takes_one_operation(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = "daily/2026-03-01.md"
    code, out, _ = run(capsys, "edit-tags", path, str(workspace), "--add", "carol", "--json")
    assert code == 0 and json.loads(out)["new_tags"] == ["alice", "carol"]
    code, out, _ = run(capsys, "edit-tags", path, "-w", str(workspace), "--remove", "alice")
    assert code == 0 and "-> carol" in out
    code, out, _ = run(capsys, "edit-tags", path, str(workspace), "--set", "x", "y", "--json")
    assert code == 0 and json.loads(out)["new_tags"] == ["x", "y"]
    code, _, err = exits(capsys, "edit-tags", path, str(workspace), "--set", "--json")
    assert code == 2 and "--set: expected at least one argument" in err
    for ops in ([], ["--add", "a", "--remove", "b"]):
        code, out, err = run(capsys, "edit-tags", path, str(workspace), *ops)
        assert code == 2 and out == "" and "exactly one of --add" in err


def test_merge_takes_the_workspace_as_an_option_and_undo_merge_undoes_it(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "merge", "bob", "--into", "alice", "-w", str(workspace), "--json")
    assert code == 0 and json.loads(out)["written"] == ["daily/2026-03-02.md"]
    code, out, _ = run(capsys, "undo-merge", str(workspace), "--json")
    assert code == 0 and json.loads(out)["restored"] == ["daily/2026-03-02.md"]


def test_the_workspace_is_given_once(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tags", str(workspace), "-w", str(workspace))
    assert code == 2 and "given twice" in err


def test_changes_mark_reviewed_and_revert_are_commands(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "changes", str(workspace), "--json")
    assert code == 0 and "baseline" in err
    (workspace / "daily/2026-03-01.md").write_text(memory("budget moved\n", tags=["alice"]))
    code, out, _ = run(capsys, "changes", str(workspace), "--json")
    assert code == 0
    (entry,) = json.loads(out)["entries"]
    code, out, _ = run(capsys, "mark-reviewed", str(workspace), "--until", str(entry["id"]))
    assert code == 0 and "marked 1 change(s) reviewed" in out
    code, out, _ = run(
        capsys, "revert", "daily/2026-03-01.md", str(workspace), "--to", f"{entry['id']}^"
    )
    assert code == 0 and "reverted daily/2026-03-01.md" in out
    assert "budget kickoff" in (workspace / "daily/2026-03-01.md").read_text()


def test_help_and_version_load_no_engine() -> None:
    """--help and --version answer from the table alone: no index code, no numpy, no fcntl
    (measured: 0.09-0.10 s of CPU against 0.58-0.69 s when they imported the engine)."""
    code = (
        "import sys\n"
        "from reme_tui.cli import main\n"
        "for argv in (['--help'], ['--version'], ['search', '--help'], ['mcp', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = [m for m in ('numpy', 'fcntl', 'textual', 'reme_tui.engine.engine',\n"
        "          'reme_tui.engine.index', 'reme_tui.config') if m in sys.modules]\n"
        "sys.stderr.write(repr(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stderr == "[]"


def test_search_prints_paths_for_pipes(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", "budget", str(workspace), "--json", "--limit", "10")
    ranked = list(dict.fromkeys(hit["path"] for hit in json.loads(out)["results"]))
    assert code == 0 and len(ranked) == 3
    code, out, _ = run(capsys, "search", "budget", str(workspace), "--limit", "10", "--paths")
    assert code == 0 and out.splitlines() == ranked
    code, out, _ = run(capsys, "search", "budget", str(workspace), "--limit", "10", "-0")
    assert code == 0 and out.split("\0")[:-1] == ranked
    for extra, message in (
        (["--json", "--paths"], "--json and --paths cannot be combined"),
        (["-0", "--follow"], "-0 prints the results once: not with --follow"),
    ):
        code, out, err = run(capsys, "search", "budget", str(workspace), *extra)
        assert code == 2 and out == "" and message in err
