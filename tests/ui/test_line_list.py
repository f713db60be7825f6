"""The line-API list: rows cost what is on screen, not how many there are (issue 19)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot
from textual.strip import Strip
from textual.style import Style
from textual.visual import Padding, Visual

from reme_tui.ui.rows import ResultRow, term_pattern
from reme_tui.ui.widgets.line_list import ROW, ROW_HIGHLIGHTED, LineList
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


def _cells(strips: list[Strip]) -> list[list[tuple[str, str]]]:
    """Each line as (character, style) per character: the same screen whatever the
    segments' split (mouse offsets, which Textual adds to the generic path, left out)."""
    return [
        [(char, str(segment.style)) for segment in strip for char in segment.text]
        for strip in strips
    ]


def _generic_strips(result_list: ResultList, index: int, width: int, style: Style) -> list[Strip]:
    """Row ``index`` through Textual's generic Visual path: the reference."""
    padding = result_list.get_component_styles(ROW).padding
    content = result_list.row_content(index, max(1, width - padding.width))
    visual = Padding(content, padding) if padding else content
    strips = Visual.to_strips(result_list, visual, width, None, style)[: result_list.ROW_HEIGHT]
    rich_style = style.rich_style
    strips = [strip.extend_cell_length(width, rich_style).crop(0, width) for strip in strips]
    return strips + [Strip.blank(width, rich_style)] * (result_list.ROW_HEIGHT - len(strips))


WORDS = ["budget", "plan", "Budget", "预算", "计划", "café", "naïve", "🙂", "x" * 30, "a-b", "__"]


def _random_row(rng: random.Random, number: int) -> ResultRow:
    # A third of the rows in ASCII only: they are cut without measuring cells.
    vocabulary = WORDS if number % 3 else [word for word in WORDS if word.isascii()]

    def words(count: int) -> str:
        return " ".join(rng.choice(vocabulary) for _ in range(count))

    return ResultRow(
        path=f"daily/{words(rng.randint(1, 3)).replace(' ', '_')}{number}.md",
        start_line=1,
        end_line=9,
        date=rng.choice([None, "2026-03-01"]),
        tags=tuple(rng.choice(WORDS) for _ in range(rng.randint(0, 3))),
        name=rng.choice([None, words(3)]),
        description=rng.choice([None, words(4)]),
        text=words(rng.randint(0, 80)),
        score=rng.choice([None, 1.5, 12.25]),
        keyword_rank=rng.choice([None, 3]),
        vector_rank=rng.choice([None, 7]),
    )


async def test_rows_drawn_from_pieces_equal_textuals_generic_render(
    app_factory: AppFactory,
) -> None:
    """The results list draws rows from pieces, not through Textual's Visual machinery
    (issue 19: 0.36 ms a row instead of 0.84): every cell, style and ellipsis the same,
    for wide, CJK and combining text at widths from 1 to 70, highlighted or not."""
    rng = random.Random(19)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        result_list = app.main_screen.query_one(ResultList)
        rows = [_random_row(rng, number) for number in range(300)]
        result_list.show_rows(rows, term_pattern(["budget", "预算", "naïve"]), 0)
        styles = [
            result_list.get_visual_style(ROW),
            result_list.get_visual_style(ROW, ROW_HIGHLIGHTED),
        ]
        for index in range(len(rows)):
            width = rng.randint(1, 70)
            style = styles[index % 2]
            fast = result_list._build_row(index, width, style)
            assert _cells(fast) == _cells(_generic_strips(result_list, index, width, style)), rows[
                index
            ]


async def test_a_row_shows_control_characters_as_escapes(app_factory: AppFactory) -> None:
    """A path, tag or text with terminal escapes is drawn as text, never sent raw."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        result_list = app.main_screen.query_one(ResultList)
        row = ResultRow(
            "daily/a\x1b[2J.md",
            1,
            2,
            None,
            ("t\x07",),
            None,
            None,
            "hi \x1b]0;x\x07 budget\tend",
            1.0,
        )
        result_list.show_rows([row], term_pattern(["budget"]), 0)
        drawn = "".join(
            segment.text
            for strip in result_list._build_row(0, 120, result_list.get_visual_style(ROW))
            for segment in strip
        )
        assert "\x1b" not in drawn and "\x07" not in drawn and "\t" not in drawn
        assert "a\\x1b[2J.md" in drawn and "#t\\x07" in drawn and "\\x1b]0;x\\x07" in drawn


async def test_a_new_title_repaints_only_the_pane_s_top_line(app_factory: AppFactory) -> None:
    """Textual's `border_title` setter repaints the whole pane on every keystroke; the
    results pane repaints the one line that shows its title, and shows it."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(ResultsPane)
        rows = [
            ResultRow(f"daily/n{i}.md", 1, 2, None, (), None, None, "budget", 1.0) for i in range(5)
        ]
        pane.set_rows(rows, ["budget"], title="Results (first)", empty="", keep=False)
        await pilot.pause()
        painted: list[int] = []
        styles_cache = pane._styles_cache
        render_line = styles_cache.render_line

        def counted(*args: Any, **kwargs: Any) -> Strip:
            painted.append(1)
            return render_line(*args, **kwargs)

        styles_cache.render_line = counted  # type: ignore[method-assign]
        pane.set_rows(rows, ["budget"], title="Results (second)", empty="", keep=False)
        await pilot.pause()
        assert len(painted) == 1
        assert "second" in app.export_screenshot()
        painted.clear()
        pane.set_rows(rows, ["budget"], title="Results (second)", empty="", keep=False)
        await pilot.pause()
        assert painted == []
