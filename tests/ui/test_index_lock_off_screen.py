"""The screen's thread never waits for the index lock while typing: an update or a save
may hold it, and at 50,000 memories during a burst a key's results waited 3 s for a save
(issue 19). The search box's metadata keys and the semantic status come another way."""

from __future__ import annotations

import threading

import pytest

from reme_tui.ui.widgets.results import ResultsPane
from reme_tui.ui.widgets.search_bar import SearchBar

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio


async def test_typing_and_showing_results_never_take_the_index_lock_on_the_screen(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        engine = app.engine
        screen_thread = threading.current_thread()
        taken_on_screen: list[str] = []
        lock = engine._lock

        class Watched:
            def __enter__(self) -> None:
                if threading.current_thread() is screen_thread:
                    taken_on_screen.append("with")
                lock.acquire()

            def __exit__(self, *exc: object) -> None:
                lock.release()

            def acquire(self, *args: object, **kwargs: object) -> bool:
                if threading.current_thread() is screen_thread:
                    taken_on_screen.append("acquire")
                return lock.acquire(*args, **kwargs)  # type: ignore[arg-type]

            def release(self) -> None:
                lock.release()

        monkeypatch.setattr(engine, "_lock", Watched())
        monkeypatch.setattr(engine._semantic, "_lock", engine._lock)
        await pilot.press(*"postgres")
        await settle(pilot)
        assert app.screen.query_one(SearchBar).state.text == "postgres"
        assert app.screen.query_one(ResultsPane).rows  # searched and shown
        assert taken_on_screen == []
