"""The app and the saved index: saved after the first build, loaded warm at the next start,
kept current after changes (debounced, and on quit), shared with the headless modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reme_tui.cli import main
from reme_tui.engine.engine import Engine
from reme_tui.engine.index.store_choice import saved_index

from .conftest import SIZE, AppFactory, settle, wait_for


async def write_late_memory(app: Any, workspace: Path) -> None:
    """A memory written after the index was built, and applied to it."""
    new = workspace / "digest" / "late.md"
    new.write_text("---\nname: Late\nmemory_tags: [late]\n---\nLate news.\n", "utf-8")
    await app.apply_changes([str(new)])


pytestmark = pytest.mark.anyio


def status_index(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.main_screen.query_one("#status-index").render())


def saved_paths(workspace: Path) -> set[str]:
    store = saved_index(workspace.resolve(), all_markdown=False)
    assert store is not None
    engine = Engine.create(workspace)
    return {m.path for m in store.load(engine._config_key()).memories}


async def test_second_start_is_warm_and_says_so(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_index(app) == "index ready"
    assert "daily/2026-01-05/kickoff.md" in saved_paths(workspace)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_index(app) == "index ready (cached)"
        assert app.engine.memory_count == 8


async def test_changes_are_saved_after_a_pause_and_on_quit(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reme_tui.ui import app as app_module

    monkeypatch.setattr(app_module, "SAVE_DELAY", 0.05)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await write_late_memory(app, workspace)
        await wait_for(pilot, lambda: not app.index_unsaved)
        await settle(pilot)
        assert "digest/late.md" in saved_paths(workspace)
        monkeypatch.setattr(app_module, "SAVE_DELAY", 3600.0)  # only the quit can save now
        gone = workspace / "digest" / "late.md"
        gone.unlink()
        await app.apply_changes([str(gone)])
        await settle(pilot)
        assert app.index_unsaved
    assert "digest/late.md" not in saved_paths(workspace)


async def test_the_app_and_headless_modes_share_one_saved_index(
    app_factory: AppFactory, workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(workspace), "--list-tags"]) == 0
    capsys.readouterr()
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_index(app) == "index ready (cached)"


async def test_no_saved_index_and_rebuild_options(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory(use_saved_index=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    store = saved_index(workspace.resolve(), all_markdown=False)
    assert store is not None and not store.path.exists()
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    app = app_factory(rebuild=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_index(app) == "index ready"  # the saved one was discarded


async def test_quitting_during_the_first_save_still_leaves_a_saved_index(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first save runs after "index ready"; a quit right then must not lose it."""
    import threading

    from reme_tui.engine.engine import Engine as EngineClass

    saving, release = threading.Event(), threading.Event()
    real_save = EngineClass.save

    def slow_save(self: EngineClass) -> bool:
        saving.set()
        release.wait(10)
        return real_save(self)

    monkeypatch.setattr(EngineClass, "save", slow_save)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, saving.is_set)
        threading.Timer(2.0, release.set).start()  # the quit below waits for this save
    assert "daily/2026-01-05/kickoff.md" in saved_paths(workspace)


async def test_quitting_while_the_history_baseline_runs_still_leaves_a_saved_index(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After "index ready" the index thread records the history's baseline (seconds at
    10k); a quit then must still leave the fresh index saved (it once saved nothing)."""
    import threading

    from reme_tui.ui.app import RemeApp

    recording, release = threading.Event(), threading.Event()

    def slow_record(self: RemeApp) -> None:
        recording.set()
        release.wait(10)

    monkeypatch.setattr(RemeApp, "record_history_at_start", slow_record)
    app = app_factory()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, recording.is_set)
    finally:
        release.set()
    assert "daily/2026-01-05/kickoff.md" in saved_paths(workspace)


async def test_sigterm_quits_like_q_and_saves_the_index(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 26: SIGTERM's default action killed the app with its changes unsaved.
    import os
    import signal

    from reme_tui.ui import app as app_module

    monkeypatch.setattr(app_module, "SAVE_DELAY", 3600.0)  # only the quit can save
    unhandled: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: unhandled.append(signum))
    try:
        app = app_factory()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await write_late_memory(app, workspace)
            await settle(pilot)
            assert app.index_unsaved
            os.kill(os.getpid(), signal.SIGTERM)
            await wait_for(pilot, lambda: not app.is_running)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert unhandled == []
    assert "digest/late.md" in saved_paths(workspace)


@pytest.mark.parametrize(
    "frontmatter",
    ['name: "\\ud800"\nmemory_tags: ["a\\ud800", ok]', "x: " + "[" * 330 + "]" * 330],
    ids=["surrogate", "330 deep"],
)
async def test_one_bad_frontmatter_leaves_the_index_ready_and_saved(
    app_factory: AppFactory, workspace: Path, frontmatter: str
) -> None:
    # Issue 26: the app showed "index failed" (the save crashed) beside "index ready".
    (workspace / "digest" / "bad.md").write_text(f"---\n{frontmatter}\n---\nbad\n", "utf-8")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert status_index(app) == "index ready"
        assert not app.main_screen.build_failed
    assert "digest/bad.md" in saved_paths(workspace)
