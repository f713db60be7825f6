"""`reme-tui mcp`: the subcommand's help, its flags, and its refusals (the server itself is
tested in tests/mcp)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.cli import main


def test_mcp_help_explains_the_server(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["mcp", "--help"])
    assert exit_info.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: reme-tui mcp")
    for word in ("MCP", "--allow-writes", "search", "read_memory", "reme://", "claude mcp add"):
        assert word in shown


def test_main_help_points_at_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "reme-tui mcp --help" in capsys.readouterr().out


def test_mcp_refuses_flags_of_other_modes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["mcp", "--query", "x"])
    assert exit_info.value.code == 2
    assert "--query" in capsys.readouterr().err


def test_mcp_on_a_missing_workspace_is_a_runtime_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", str(tmp_path / "nowhere")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_allow_writes_is_the_subcommands_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--allow-writes"])
    assert exit_info.value.code == 2
