"""The mode table: every flag is used or refused in every mode, and the app gets its flags."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from reme_tui.cli import app as app_mode
from reme_tui.cli import main
from reme_tui.cli.table import FLAGS, MODES
from reme_tui.engine.index.store_choice import saved_index
from reme_tui.engine.reme.layout import DEFAULT_LAYOUT
from reme_tui.ui.options import AppOptions
from tests.helpers import memory, write_workspace


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01.md": memory("budget kickoff\n", tags=["alice"]),
            "notes/loose.md": memory("budget outside the layout\n", tags=["bob"]),
        },
    )


def test_every_flag_is_used_by_some_mode_and_every_accepted_flag_exists() -> None:
    dests = {flag.dest for flag in FLAGS}
    used = set().union(*(mode.accepts for mode in MODES))
    # A mode may take another mode's selecting flag as an option (--explain ... --query).
    selectors = {mode.flag.dest for mode in MODES if mode.flag is not None}
    assert used - selectors == dests
    assert used & selectors == {"query"}
    assert [mode for mode in MODES if not mode.headless] == [MODES[-1]]


def test_app_without_a_terminal_exits_2_at_once_with_a_one_line_hint(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO())  # as with `reme-tui WS </dev/null`
    assert main([str(workspace)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "needs a terminal" in err
    assert "reme-tui search QUERY" in err and "reme-tui --help" in err


def test_missing_workspace_exits_1_in_the_app_as_in_headless_modes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "missing")
    assert main([missing]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert main([missing, "--list-tags"]) == 1


def test_app_flags_reach_the_app(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Path, AppOptions, Path | None]] = []

    def fake_run_app(
        root: Path, options: AppOptions, config_path: Path | None = None, early: object = None
    ) -> int:
        seen.append((root, options, config_path))
        return 0

    import reme_tui.ui.app
    import reme_tui.ui.startup

    monkeypatch.setattr(app_mode, "has_terminal", lambda: True)
    monkeypatch.setattr(reme_tui.ui.startup, "start_early", lambda *args: None)  # no fork
    monkeypatch.setattr(reme_tui.ui.app, "run_app", fake_run_app)
    argv = [str(workspace), "--all-markdown", "--no-cache", "--rebuild", "--theme", "reme-paper"]
    config = workspace.parent / "c.toml"  # --config must name a file that exists
    config.write_text('theme = "reme-paper"\n')
    assert main([*argv, "--config", str(config), "--vector-weight", "0.25", "--model", "m"]) == 0
    ((root, options, config_path),) = seen
    assert root == workspace.resolve() and config_path == config
    assert options == AppOptions(
        theme="reme-paper",
        all_markdown=True,
        use_saved_index=False,
        rebuild=True,
        model="m",
        vector_weight=0.25,
        layout=DEFAULT_LAYOUT,
        chosen_because=options.chosen_because,
    )


def test_all_markdown_and_the_default_layout_keep_separate_saved_indexes(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = saved_index(workspace.resolve(), all_markdown=False)
    everything = saved_index(workspace.resolve(), all_markdown=True)
    assert default is not None and everything is not None and default.path != everything.path
    assert main([str(workspace), "--list-tags", "--json"]) == 0
    assert main([str(workspace), "--list-tags", "--json", "--all-markdown"]) == 0
    assert default.path.is_file() and everything.path.is_file()
    saved = default.path.stat().st_mtime_ns, everything.path.stat().st_mtime_ns
    capsys.readouterr()
    # Each layout starts warm from its own entry: neither run rewrites the other's.
    assert main([str(workspace), "--list-tags", "--json"]) == 0
    assert main([str(workspace), "--list-tags", "--json", "--all-markdown"]) == 0
    assert (default.path.stat().st_mtime_ns, everything.path.stat().st_mtime_ns) == saved
    assert "bob" in capsys.readouterr().out
