"""Why this, why not that, in the app: `w` explains the memory in the preview against the
current search, `W` asks for any path; the stage that dropped it is highlighted."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label

from reme_tui.ui.screens.explain import ExplainScreen, WhyNotScreen
from reme_tui.ui.widgets.search_bar import SearchBar

from .conftest import AppFactory, settle

pytestmark = pytest.mark.anyio

SEARCH = "tag:project_atlas postgres migration"


async def search(pilot: Pilot[Any], text: str = SEARCH) -> None:
    await settle(pilot)
    pilot.app.main_screen.query_one(SearchBar).focus_query()
    await pilot.press(*text, "enter")
    await settle(pilot, quiet=0.3)
    await pilot.press("escape")
    await settle(pilot)


def verdict(screen: Any) -> str:
    label = screen.query_one("#explain-verdict", Label)
    content = label.content
    return content.plain if isinstance(content, Text) else str(content)


async def test_w_explains_the_previewed_result_with_its_rank(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await search(pilot)
        path = app.main_screen.current_path
        assert path is not None
        await pilot.press("w")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExplainScreen)
        assert screen.explanation.path == path
        expected = app.engine.explain(path, app.main_screen.explain_query())  # type: ignore[arg-type]
        assert expected.returned and verdict(screen) == expected.verdict
        assert verdict(screen).startswith("returned at rank ")
        table = screen.query_one(DataTable)
        assert table.row_count == len(expected.stages) == 11
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ExplainScreen)


async def test_why_not_takes_a_path_and_highlights_the_dropping_stage(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await search(pilot)
        await pilot.press("W")
        await settle(pilot)
        assert isinstance(app.screen, WhyNotScreen)
        await pilot.press(*"digest/bro")
        await settle(pilot)
        await pilot.press("right")  # accept the completion from the index
        assert app.screen.query_one(Input).value == "digest/broken.md"
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExplainScreen)
        assert screen.explanation.path == "digest/broken.md"
        assert screen.explanation.dropped_at == "tags"
        assert verdict(screen).startswith("dropped at tags: ")
        table = screen.query_one(DataTable)
        names = [s.stage for s in screen.explanation.stages]
        assert table.cursor_row == names.index("tags")
        tags_row = table.get_row_at(names.index("tags"))
        assert "reverse" in str(tags_row[1].style) and tags_row[1].plain == "▶ tags"


async def test_without_a_search_w_says_what_to_do(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "W")
        await settle(pilot)
        assert not isinstance(app.screen, WhyNotScreen)


async def test_t_in_the_explanation_opens_the_tag_editor_for_that_memory(
    app_factory: AppFactory,
) -> None:
    from reme_tui.ui.screens.edit_tags import TagEditorScreen

    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await search(pilot)
        path = app.main_screen.current_path
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ExplainScreen)
        await pilot.press("t")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TagEditorScreen)
        assert screen.path == path


async def test_w_in_an_explanation_dropped_by_dates_widens_them_and_explains_again(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await search(pilot, "until:2026-01-10 postgres")
        await pilot.press("W")
        await settle(pilot)
        await pilot.press(*"daily/2026-01-19/schema.md", "enter")
        await settle(pilot)
        first = app.screen
        assert isinstance(first, ExplainScreen) and first.explanation.dropped_at == "dates"
        await pilot.press("w")
        await settle(pilot)
        again = app.screen
        assert isinstance(again, ExplainScreen) and again is not first
        assert again.explanation.returned, again.explanation.verdict
        filters = app.main_screen.state.filters
        assert filters.until is None and filters.since is None


async def test_w_refuses_to_widen_when_the_dates_did_not_drop_it(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=(140, 40)) as pilot:
        await search(pilot)
        await pilot.press("w")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExplainScreen) and screen.explanation.returned
        await pilot.press("w")
        await settle(pilot)
        assert app.screen is screen
