"""UI test fixtures: a fixed workspace, no user config, no watcher, a fixed clock."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.worker import WorkerCancelled

from reme_tui.config import Settings, load_settings
from reme_tui.ui.app import RemeApp, make_app
from reme_tui.ui.options import AppOptions
from reme_tui.ui.screens.dupes import DupesScreen

from .workspace import build_workspace

FIXED_NOW = dt.datetime(2026, 3, 15, 9, 30, 0)
SIZE = (140, 40)


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every XDG directory at a temporary place so no real user config is read."""
    xdg = tmp_path / "xdg"
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(xdg / name.lower()))
    monkeypatch.delenv("REME_TUI_CONFIG", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return xdg


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return build_workspace(tmp_path / "ws")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(tmp_path / "config.toml")


AppFactory = Callable[..., RemeApp]


@pytest.fixture
def app_factory(workspace: Path, settings: Settings) -> AppFactory:
    def factory(**overrides: Any) -> RemeApp:
        options: dict[str, Any] = {
            "watch": False,
            "clock": lambda: FIXED_NOW,
            "persist_theme": False,
        }
        options.update(overrides)
        config = options.pop("config", settings)
        engine = options.pop("engine", None)
        return make_app(workspace, config, AppOptions(**options), engine=engine)

    return factory


async def settle(pilot: Pilot[Any], rounds: int = 3, *, quiet: float = 0.0) -> None:
    """Wait until the index is built and every worker and message has run.

    Loops until no worker (but the long-lived watcher) is left, then a few more rounds
    so messages posted by the last workers are handled. ``quiet`` pauses first.
    """
    if quiet:
        await pilot.pause(quiet)
    idle_rounds = 0
    for _ in range(200):
        busy = [w for w in pilot.app.workers if w.name != "watcher" and not w.is_finished]
        if busy:
            idle_rounds = 0
            # A worker superseded by a newer exclusive one ends cancelled: that is normal.
            with contextlib.suppress(WorkerCancelled):
                await pilot.app.workers.wait_for_complete(busy)
        else:
            idle_rounds += 1
            if idle_rounds >= rounds:
                return
        await pilot.pause()


async def show_memory(pilot: Pilot[Any], path: str, *, edit_tags: bool = False) -> None:
    """Preview the memory at ``path`` (and open its tag editor), everything settled."""
    app = pilot.app
    assert isinstance(app, RemeApp)
    app.main_screen.load_preview(path, None, None, keep_scroll=False)
    await settle(pilot)
    if edit_tags:
        app.open_tag_editor(path)
        await settle(pilot)


async def steady_cursors(pilot: Pilot[Any]) -> None:
    """Stop every text cursor blinking and show it, so snapshots do not catch it mid-blink.

    Turning blinking off can race a blink toggle already queued, which would leave the
    cursor hidden; re-focusing the focused input afterwards shows it again for good.
    """
    from textual.widgets import Input

    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    await settle(pilot)
    focused = pilot.app.focused
    if isinstance(focused, Input):
        focused.blur()
        await pilot.pause()
        focused.focus()
    # Labels updated by the last messages need one more layout pass before a capture.
    await settle(pilot, quiet=0.3)
    await pilot.wait_for_scheduled_animations()


async def wait_for(pilot: Pilot[Any], predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    """Pause until ``predicate()`` holds (for things driven by timers or threads)."""
    waited = 0.0
    while not predicate():
        if waited > timeout:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)
        waited += 0.02


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio through anyio's pytest plugin."""
    return "asyncio"


async def open_dupes(pilot: Any) -> DupesScreen:
    """From the main screen, open the duplicate review and wait for its clusters."""
    await settle(pilot)
    await pilot.press("escape", "d")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, DupesScreen))
    screen = pilot.app.screen
    await wait_for(pilot, lambda: bool(screen.clusters))
    # The table sizes its columns when it is next idle: on a loaded machine a dialog
    # opened right away was snapshotted over cut columns ("project_a", "proj").
    table = screen.query_one(DataTable)
    await wait_for(pilot, lambda: columns_fit(table))
    await pilot.pause()
    return screen


def columns_fit(table: DataTable[Any]) -> bool:
    """Every column of ``table`` is as wide as its widest cell."""
    for key, column in table.columns.items():
        widest = max((cell_len(str(cell)) for cell in table.get_column(key)), default=0)
        if column.content_width < widest:
            return False
    return True
