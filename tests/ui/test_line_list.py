"""The line-API list: rows cost what is on screen, not how many there are (issue 19)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot

from reme_tui.ui.rows import ResultRow
from reme_tui.ui.widgets.line_list import LineList
from reme_tui.ui.widgets.results import ResultList, ResultsPane

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio


class Numbers(LineList):
    ROW_HEIGHT = 2

    def __init__(self) -> None:
        super().__init__(id="numbers")
        self.asked: list[int] = []

    def row_content(self, index: int, width: int) -> Content:
        self.asked.append(index)
        return Content(f"row {index}\nsecond line of {index}")


class ListApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlights: list[int] = []
        self.selections: list[int] = []

    def compose(self) -> ComposeResult:
        yield Numbers()

    @on(LineList.Highlighted)
    def _highlighted(self, event: LineList.Highlighted) -> None:
        self.highlights.append(event.index)

    @on(LineList.Selected)
    def _selected(self, event: LineList.Selected) -> None:
        self.selections.append(event.index)


HEIGHT = 20  # lines: 10 two-line rows on screen


@asynccontextmanager
async def shown(
    count: int, *, width: int = 40, focus: bool = True
) -> AsyncIterator[tuple[ListApp, Pilot[None], Numbers]]:
    """A list of ``count`` rows on a ``width`` x HEIGHT screen, painted once."""
    app = ListApp()
    async with app.run_test(size=(width, HEIGHT)) as pilot:
        numbers = app.query_one(Numbers)
        numbers.reset(count)
        if focus:
            numbers.focus()
        await pilot.pause()
        yield app, pilot, numbers


async def test_only_the_rows_on_screen_are_built() -> None:
    async with shown(100_000) as (_app, pilot, numbers):
        assert set(numbers.asked) == set(range(HEIGHT // 2))
        assert numbers.virtual_size.height == 200_000
        numbers.asked.clear()
        await pilot.press("end")
        await pilot.pause()
        assert numbers.highlighted == 99_999
        assert set(numbers.asked) == set(range(100_000 - HEIGHT // 2, 100_000))
        numbers.asked.clear()
        numbers.reset(50_000, 0)  # a new result set: nothing built until it is painted
        assert numbers.asked == []
        await pilot.pause()
        assert set(numbers.asked) == set(range(HEIGHT // 2))


async def test_a_cursor_move_builds_only_the_two_rows_it_restyles() -> None:
    async with shown(1000) as (app, pilot, numbers):
        numbers.asked.clear()
        await pilot.press("down")
        await pilot.pause()
        assert sorted(numbers.asked) == [0, 1]  # old and new highlight; the rest is cached
        assert app.highlights == [1]


async def test_keys_and_clicks_move_and_choose() -> None:
    async with shown(1000) as (app, pilot, numbers):
        await pilot.press("pagedown")
        assert numbers.highlighted == HEIGHT // 2
        await pilot.press("up", "pageup")
        assert numbers.highlighted == 0
        await pilot.press("up")  # stays at the top
        assert numbers.highlighted == 0
        await pilot.press("enter")
        assert app.selections == [0]
        await pilot.click(Numbers, offset=(3, 5))  # line 5: the third row
        await pilot.pause()
        assert numbers.highlighted == 2 and app.selections == [0, 2]
        await pilot.press("end", "home")
        assert numbers.highlighted == 0


async def test_rows_are_cut_to_their_height_and_the_width() -> None:
    async with shown(3, width=12, focus=False) as (_app, _pilot, numbers):
        lines = [numbers.render_line(y).text for y in range(7)]
        assert lines[0].startswith("row 0") and lines[1].startswith("second")
        assert all(len(line) == numbers.scrollable_content_region.width for line in lines)
        assert lines[6].strip() == ""  # past the last row: blank
        assert numbers.row_at(3) == 1 and numbers.row_at(6) is None


async def test_an_empty_list_has_no_highlight() -> None:
    async with shown(0) as (app, pilot, numbers):
        await pilot.press("down", "end", "enter")
        assert numbers.highlighted is None and app.selections == []


async def test_a_new_result_set_builds_only_the_rows_on_screen(app_factory: AppFactory) -> None:
    """5,000 results: the list draws the rows it shows, and a refresh of the same search
    keeps the cursor by path and line."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(ResultsPane)
        result_list = pane.query_one(ResultList)
        rows = [
            ResultRow(f"daily/n{i}.md", 1, 2, None, ("t",), None, None, f"budget line {i}", 1.0)
            for i in range(5000)
        ]
        before = result_list.rows_built
        pane.set_rows(rows, ["budget"], title="t", empty="", keep=False, total=5000)
        assert result_list.rows_built == before  # nothing is drawn until painted
        await pilot.pause()
        on_screen = result_list.scrollable_content_region.height // 2 + 1
        assert 0 < result_list.rows_built - before <= on_screen
        result_list.move_to(4000, announce=False)
        pane.set_rows(rows[::-1], ["budget"], title="t", empty="", keep=True, total=5000)
        assert pane.selected == rows[4000]
        assert "daily/n4000.md" in str(result_list.prompt(result_list.highlighted or 0))
