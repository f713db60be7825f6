"""What a keystroke costs: nothing on its way lays out the whole screen when only text
changed (a layout of the screen is ~30 ms at 10,000 memories; the benchmark has figures,
these tests pin the mechanisms)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widget import Widget

from reme_tui.ui.widgets.search_bar import QueryInput
from reme_tui.ui.widgets.steady_label import SteadyLabel

from .conftest import SIZE, AppFactory, settle

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
