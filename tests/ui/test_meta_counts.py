"""The count of tags and diagnostics runs one at a time: a thread cannot be stopped, so a
burst of updates at 50,000 memories ran one count (~1 s of CPU) per batch, several at
once, beside the typing (issue 19). Asked for while one runs, one more follows it."""

from __future__ import annotations

import threading

import pytest

from reme_tui.ui.screens.main import MainScreen

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


async def test_counts_asked_for_during_one_are_one_count_after_it(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = app.engine
        real = engine.diagnostics
        gate = threading.Event()
        running = 0
        most = 0
        calls = 0
        lock = threading.Lock()

        def gated() -> list[object]:
            nonlocal running, most, calls
            with lock:
                running += 1
                calls += 1
                most = max(most, running)
            gate.wait(10)
            try:
                return real()  # type: ignore[return-value]
            finally:
                with lock:
                    running -= 1

        monkeypatch.setattr(engine, "diagnostics", gated)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        for _ in range(5):  # a burst: an update per batch
            screen.refresh_meta()
        await wait_for(pilot, lambda: calls == 1)
        gate.set()
        await wait_for(pilot, lambda: calls == 2 and not screen.meta_running)
        await settle(pilot)
        assert calls == 2 and most == 1
        screen.refresh_meta()  # a later update counts again
        await wait_for(pilot, lambda: calls == 3 and not screen.meta_running)
