"""What a keystroke costs: nothing on its way lays out the whole screen when only text
changed (a layout of the screen is ~30 ms at 10,000 memories; the benchmark has figures,
these tests pin the mechanisms)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget

from reme_tui.ui.widgets.search_bar import QueryInput
from reme_tui.ui.widgets.steady_label import SteadyLabel

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


def layouts_asked(monkeypatch: pytest.MonkeyPatch, kind: type[Widget]) -> list[str]:
    """Every layout a widget of ``kind`` asks for from now on."""
    asked: list[str] = []
    refresh = Widget.refresh

    def counting(self: Widget, *regions: Any, **kwargs: Any) -> Any:
        if isinstance(self, kind) and kwargs.get("layout"):
            asked.append(self.id or type(self).__name__)
        return refresh(self, *regions, **kwargs)

    monkeypatch.setattr(Widget, "refresh", counting)
    return asked


async def test_typing_in_the_query_box_repaints_it_without_a_layout(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.query_one(QueryInput).focus()
        await settle(pilot)
        asked = layouts_asked(monkeypatch, QueryInput)
        await pilot.press(*"budget")
        await settle(pilot)
        assert app.main_screen.query_one(QueryInput).value == "budget"
        assert asked == []


async def test_a_label_told_what_it_shows_does_nothing(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        label = app.main_screen.query_one("#search-message", SteadyLabel)
        label.update("three words")
        asked = layouts_asked(monkeypatch, SteadyLabel)
        label.update("three words")
        assert asked == []
        label.update("other words")
        assert asked == ["search-message"]
        assert str(label.render()) == "other words"


async def test_a_slow_older_search_never_replaces_a_newer_one(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search of an earlier keystroke finishing last (a slow query, a busy core) is
    dropped: the list shows what the box says."""
    import threading

    from reme_tui.ui.screens.main import MainScreen
    from reme_tui.ui.widgets.results import ResultsPane

    release = threading.Event()
    compute = MainScreen.compute

    def slow_for_garden(screen: MainScreen, state: Any, pages: int = 1) -> Any:
        if state.text == "garden":
            release.wait(10)
        return compute(screen, state, pages)

    monkeypatch.setattr(MainScreen, "compute", slow_for_garden)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        box = screen.query_one(QueryInput)
        box.value = "garden"
        await pilot.pause(0.05)
        box.value = "retro"
        await settle(pilot)
        retro_rows = [row.path for row in screen.query_one(ResultsPane).rows]
        assert retro_rows and all("garden" not in path for path in retro_rows)
        release.set()
        await settle(pilot)
        await pilot.pause(0.2)
        await settle(pilot)
        assert [row.path for row in screen.query_one(ResultsPane).rows] == retro_rows


async def test_a_search_waiting_for_the_gil_is_not_slow_and_typing_is_not_debounced(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The debounce for slow searches looks at the search thread's CPU time: a search
    that spent its wall time waiting (for the GIL while the screen painted) made every
    next keystroke wait 120 ms. A search that burns the CPU is still debounced."""
    import time

    from reme_tui.ui.screens.main import FAST_SEARCH_MS, MainScreen

    compute = MainScreen.compute
    delays: list[float] = []

    def waiting(self: MainScreen, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.08)  # wall time without CPU, as a thread waiting for the GIL has
        return compute(self, *args, **kwargs)

    def burning(self: MainScreen, *args: Any, **kwargs: Any) -> Any:
        until = time.thread_time() + 2 * FAST_SEARCH_MS / 1000
        while time.thread_time() < until:
            pass
        return compute(self, *args, **kwargs)

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        worker = MainScreen._search_worker

        def recording(self: MainScreen, state: Any, serial: int, delay: float, *rest: Any) -> Any:
            delays.append(delay)
            return worker(self, state, serial, delay, *rest)

        monkeypatch.setattr(MainScreen, "_search_worker", recording)
        monkeypatch.setattr(MainScreen, "compute", waiting)
        await pilot.press("slash", *"post")
        await settle(pilot)
        assert screen.last_search_ms < FAST_SEARCH_MS
        assert delays and delays[-1] == 0.0
        monkeypatch.setattr(MainScreen, "compute", burning)
        await pilot.press("g")
        await settle(pilot)
        assert screen.last_search_ms >= FAST_SEARCH_MS
        await pilot.press("r")
        assert delays[-1] > 0.0
        await settle(pilot)


async def test_the_count_of_all_matches_waits_until_the_new_rows_are_drawn(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting every match runs after the frame that drew the keystroke's rows: run
    before it (`call_after_refresh`), its thread held the GIL while the rows were drawn."""
    from reme_tui.ui.app import make_app
    from reme_tui.ui.options import AppOptions
    from reme_tui.ui.screens.main import MainScreen
    from reme_tui.ui.widgets.results import ResultList

    from .test_truthful_numbers import many_memories, small_pages

    events: list[str] = []
    render_lines, count = ResultList.render_lines, MainScreen.count_matches

    def drawing(self: ResultList, crop: Any) -> Any:
        events.append("draw " + ",".join(row.path for row in self.rows[:1]))
        return render_lines(self, crop)

    def counting(self: MainScreen, state: Any, shown: int) -> Any:
        events.append("count " + state.text)
        return count(self, state, shown)

    monkeypatch.setattr(ResultList, "render_lines", drawing)
    monkeypatch.setattr(MainScreen, "count_matches", counting)
    app = make_app(many_memories(tmp_path / "big", 90), small_pages(), AppOptions(watch=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"budget")
        await settle(pilot)
        assert app.main_screen.query_one(ResultList).row_count == 5
        first_row = app.main_screen.query_one(ResultList).rows[0].path
        counted = events.index("count budget")
        drawn = events.index(f"draw {first_row}")
        assert drawn < counted


async def test_a_label_whose_new_text_takes_the_same_room_repaints_without_a_layout(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A label as wide as its text lays out again only when the width changes; one as wide
    as the pane only when a text has another number of lines or no longer fits on them."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dates = app.main_screen.query_one("#chart-last", SteadyLabel)  # as wide as its text
        name = app.main_screen.query_one("#preview-name", SteadyLabel)  # as wide as the pane
        dates.update("2026-01-01")
        name.update("Atlas retro")
        await settle(pilot)
        asked = layouts_asked(monkeypatch, SteadyLabel)
        dates.update("2026-03-31")
        name.update("A much longer name of another memory")
        assert asked == []
        dates.update("2026-03-31  +3 undated")
        assert asked == ["chart-last"]
        name.update("x" * (name.content_size.width + 1))  # wraps: its height may change
        assert asked == ["chart-last", "preview-name"]
        await settle(pilot)
        asked.clear()
        name.update("one line")  # from a text that wrapped
        name.update("two\nlines")
        assert asked == ["preview-name", "preview-name"]
        name.update("two other\nlines")  # as many lines, none wrapped: the same height
        assert asked == ["preview-name", "preview-name"]


def screen_layouts(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """Every layout of the screen from now on, as the widgets that asked for it (a scroll,
    which lays out nothing, is left out)."""
    from textual.screen import Screen

    layouts: list[set[str]] = []
    refresh_layout = Screen._refresh_layout

    def counting(self: Screen[Any], size: Any = None, scroll: bool = False) -> None:
        if not scroll or self._layout_widgets:
            asked: set[Widget] = set().union(*self._layout_widgets.values())
            layouts.append({widget.id or type(widget).__name__ for widget in asked})
        refresh_layout(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    return layouts


async def test_moving_between_memories_of_different_lengths_lays_out_nothing(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview's body is its own scroll view: a memory of another length changes its
    virtual size, where the body's height changed and each move laid out the screen 3-4
    times (~5 ms each at 50,000 memories, issue 19); the header's location and ranking
    lines are repainted. Only the scrollbar coming or going still needs a layout."""
    from reme_tui.ui.widgets.markdown_body import MarkdownBody
    from reme_tui.ui.widgets.preview import Preview
    from reme_tui.ui.widgets.results import ResultList, ResultsPane

    for n, paragraphs in enumerate((3, 40, 1, 25, 8)):
        text = "\n\n".join(f"Quokka paragraph {p} of note {n}." for p in range(paragraphs))
        note = workspace / "digest" / f"quokka-{n}.md"
        note.write_text(f"---\nname: Quokka {n}\n---\n{text}\n", encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"quokka", "enter")
        await settle(pilot)
        screen = app.main_screen
        rows = [row.path for row in screen.query_one(ResultsPane).rows]
        assert len(rows) == 5
        screen.query_one(ResultList).focus()
        preview, body = screen.query_one(Preview), screen.query_one(MarkdownBody)
        await settle(pilot, quiet=0.1)
        layouts = screen_layouts(monkeypatch)
        lengths, per_move, expected = {body.line_count}, [], []
        for path in rows[1:]:
            had_scrollbar = body.show_vertical_scrollbar
            await pilot.press("j")
            await wait_for(pilot, lambda path=path: preview.path == path and body.plain is None)
            await settle(pilot, quiet=0.1)
            lengths.add(body.line_count)
            per_move.append(len(layouts) - sum(per_move))
            expected.append(int(body.show_vertical_scrollbar != had_scrollbar))
        assert len(lengths) == 5 and 0 < sum(expected) < len(expected)
        assert not [asked for asked in layouts if "preview-body" in asked]
        assert per_move == expected
