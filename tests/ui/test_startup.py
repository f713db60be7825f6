"""A warm start (issue 19): the saved index is read from before Textual is imported, and
the screen shows it as soon as it is restored, saying the files are still being checked."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reme_tui.engine.index import Planner
from reme_tui.ui.widgets.results import ResultsPane
from tests.helpers import memory, write_workspace

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


def run_python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout


def test_startup_imports_no_textual() -> None:
    code = (
        "import sys, reme_tui.ui.startup\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))\n"
    )
    assert run_python(code).strip() == "[]"


def test_the_saved_index_load_starts_before_textual_is_imported(tmp_path: Path) -> None:
    """The app's mode: settings, engine, pool, then the load's thread, and only then the
    UI's modules (their import overlaps the load); the app gets the engine that loads."""
    ws = write_workspace(tmp_path / "ws", {"daily/2026-03-01.md": memory("budget\n")})
    code = f"""
import sys, types
from reme_tui.cli import app as app_mode, main
from reme_tui.engine import Engine
from reme_tui.ui import startup

events = []
startup.fork_pool_for_threads = lambda: events.append("fork") or False
startup.start_pool_helpers = lambda: None
real_preload = Engine.preload
def preload(engine):
    events.append(("preload", "textual" in sys.modules))
    real_preload(engine)
Engine.preload = preload
app_mode.has_terminal = lambda: True
def fake_run_app(root, options, config_path=None, early=None):
    events.append(("run_app", early.engine._pending is not None))
    return 0
fake_ui_app = types.ModuleType("reme_tui.ui.app")  # what the real one imports: Textual
fake_ui_app.run_app = fake_run_app
sys.modules["reme_tui.ui.app"] = fake_ui_app
assert main([{str(ws)!r}]) == 0
print(events)
"""
    assert run_python(code).strip() == "['fork', ('preload', False), ('run_app', True)]"


def test_the_app_makes_strip_caches_lazily_however_it_is_made(tmp_path: Path) -> None:
    """run_app makes its app without make_app, which was where the lazy strips were
    installed: the real app ran with Textual's eager caches (issue 19)."""
    ws = write_workspace(tmp_path / "ws", {"daily/2026-03-01.md": memory("budget\n")})
    code = f"""
from pathlib import Path
from textual.strip import Strip
from reme_tui.ui import lazy_strips
from reme_tui.ui.app import RemeApp
from reme_tui.ui.options import AppOptions
from reme_tui.ui.startup import start_early
early = start_early(Path({str(ws)!r}), AppOptions(use_saved_index=False))
print(Strip.__init__ is lazy_strips._lazy_init)
RemeApp(early.engine, early.settings)
print(Strip.__init__ is lazy_strips._lazy_init)
"""
    assert run_python(code).split() == ["False", "True"]


async def test_the_saved_index_is_shown_while_the_files_are_checked(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)  # builds and saves the index
    release = threading.Event()
    real_scan = Planner.scan_all

    def held_scan(planner: Planner):  # type: ignore[no-untyped-def]
        assert release.wait(10)
        return real_scan(planner)

    monkeypatch.setattr(Planner, "scan_all", held_scan)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        status = app.main_screen.query_one("#status-index")
        pane = app.main_screen.query_one(ResultsPane)
        await wait_for(pilot, lambda: "checking" in str(status.render()))
        assert str(status.render()) == "index ready (cached), checking for changes…"
        assert app.engine.is_built and app.engine.memory_count == 8
        await wait_for(pilot, lambda: len(pane.rows) > 0)  # results from the saved index
        release.set()
        await settle(pilot)
        assert str(status.render()) == "index ready (cached)"


@pytest.mark.parametrize("warm", [False, True])
async def test_the_watcher_is_started_before_the_scan(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch, warm: bool
) -> None:
    """Armed from the build's thread just before it scans: a change after the scan is seen;
    on a warm start only once the saved index is on the screen (its set-up holds the GIL)."""
    if warm:
        app = app_factory()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
    app = app_factory(watch=True)
    seen: list[tuple[bool, str]] = []
    real_scan = Planner.scan_all

    def recording_scan(planner: Planner):  # type: ignore[no-untyped-def]
        status = str(app.main_screen.query_one("#status-index").render())
        seen.append((app.watch_armed.is_set(), status))
        return real_scan(planner)

    monkeypatch.setattr(Planner, "scan_all", recording_scan)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ((armed, status),) = seen
        assert armed
        if warm:
            assert status == "index ready (cached), checking for changes…"
        assert any(w.name == "watcher" and not w.is_finished for w in app.workers)


LAZY = ("markdown_it", "rich.markdown", "pygments", "reme_tui.ui.markdown_lines", "tomlkit")


def test_the_first_screen_imports_no_markdown_renderer_nor_toml_writer(workspace: Path) -> None:
    """The preview's Markdown renderer comes with the first preview, the TOML writer with
    the first save of the config: neither is on the way to the first screen."""
    code = f"""
import asyncio, sys
from reme_tui.config import Settings
from reme_tui.ui.app import make_app
from reme_tui.ui.options import AppOptions

async def main():
    options = AppOptions(watch=False, build=False, persist_theme=False, theme_dirs=())
    app = make_app(__import__("pathlib").Path({str(workspace)!r}), Settings(), options)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()

asyncio.run(main())
print(sorted(m for m in {LAZY!r} if m in sys.modules))
"""
    assert run_python(code).strip() == "[]"
