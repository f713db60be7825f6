"""The query box: a bad token stays, marked, with its message until fixed; quoted values;
a quiet hint for a tag no memory carries."""

from __future__ import annotations

import pytest

from reme_tui.ui.widgets.search_bar import QueryInput, SearchBar

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio


def message(app) -> str:  # type: ignore[no-untyped-def]
    label = app.screen.query_one("#search-message")
    return str(label.render()) if label.display else ""


async def test_a_bad_token_stays_marked_until_fixed(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"since:2026-13-45 postgres")
        await settle(pilot)
        box = app.screen.query_one(QueryInput)
        assert box.value == "since:2026-13-45 postgres"
        assert box.has_class("-invalid")
        assert "2026-13-45" in message(app)
        await pilot.press("space", "b")
        await settle(pilot)
        assert "2026-13-45" in message(app)  # the next key and the search keep it
        box.value = "since:2026-1-5 postgres b"
        await settle(pilot)
        assert not box.has_class("-invalid") and message(app) == ""
        assert app.screen.query_one(SearchBar).state.filters.since == "2026-01-05"


async def test_quoted_tag_values_may_hold_spaces(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*'tag:"Project Atlas" ')
        await settle(pilot)
        bar = app.screen.query_one(SearchBar)
        assert bar.state.filters.tags == ("project_atlas",)
        assert app.screen.query_one(QueryInput).value == ""


async def test_unknown_tag_gets_a_quiet_hint(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"tag:nosuchthing ")
        await settle(pilot)
        assert "no such tag: nosuchthing" in message(app)
        assert not app.screen.query_one(QueryInput).has_class("-invalid")
        await pilot.press("backspace")  # removes the chip
        await settle(pilot)
        assert "no such tag" not in message(app)


async def test_a_trailing_filter_token_says_it_is_not_applied_yet(app_factory: AppFactory) -> None:
    """Issue 22: a trailing `since:DATE` is applied only once a space (or Enter) ends it, so
    `tag:ali` does not make an `ali` chip on the way to `alice`; nothing said so."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"budget since:2026-03-06")
        await settle(pilot)
        bar = app.screen.query_one(SearchBar)
        assert bar.state.filters.since is None
        assert message(app) == "since:2026-03-06 applies after a space or Enter"
        await pilot.press("space")
        await settle(pilot)
        assert bar.state.filters.since == "2026-03-06"
        assert "applies after" not in message(app)


async def test_changes_queued_behind_a_busy_screen_are_searched_once(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pasted query, or keys typed while the screen was busy, reach the screen as one
    change (each holds the whole state): at 50,000 memories during a burst of updates,
    every queued change cost ~60 ms before the last key's own (issue 19)."""
    from reme_tui.engine.search import SearchState
    from reme_tui.ui.screens.main import MainScreen

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        searched: list[str] = []
        real = MainScreen.run_search

        def counted(screen: MainScreen, *, immediate: bool = False) -> None:
            searched.append(screen.state.text)
            real(screen, immediate=immediate)

        monkeypatch.setattr(MainScreen, "run_search", counted)
        bar = app.screen.query_one(SearchBar)
        for end in range(1, 7):  # queued before the bar handles any of them
            bar.post_message(SearchBar.Changed(SearchState("budget"[:end])))
        await settle(pilot)
        assert searched == ["budget"]
        bar.post_message(SearchBar.Changed(SearchState("plan"), submitted=True))
        bar.post_message(SearchBar.Changed(SearchState("plans")))
        await settle(pilot)
        assert searched == ["budget", "plan", "plans"]  # a submit is not dropped
