"""The preview header's tag chips: one widget, a click finds its chip by column."""

from __future__ import annotations

from typing import Any

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.widget import Widget

from reme_tui.ui.messages import TagChosen
from reme_tui.ui.widgets.tag_chips import CHIP, CHIP_HOVER, TagChips

pytestmark = pytest.mark.anyio


class ChipsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[str] = []

    def compose(self) -> ComposeResult:
        yield TagChips(id="chips")

    @on(TagChosen)
    def _chosen(self, message: TagChosen) -> None:
        self.chosen.append(message.tag)


async def test_a_click_chooses_the_chip_under_it() -> None:
    app = ChipsApp()
    async with app.run_test(size=(60, 3)) as pilot:
        chips = app.query_one(TagChips)
        chips.show(["alice", "项目A", "ops"])
        await pilot.pause()
        # " #alice " is columns 0-7, a space, " #项目A " 9-16 (CJK is two cells wide).
        assert chips.spans() == [(0, 8), (9, 17), (18, 24)]
        for x in (1, 15, 20):
            await pilot.click(TagChips, offset=(x, 0))
        await pilot.click(TagChips, offset=(8, 0))  # the gap between two chips
        await pilot.click(TagChips, offset=(40, 0))  # past the last chip
        await pilot.pause()
        assert app.chosen == ["alice", "项目A", "ops"]


async def test_the_chip_under_the_mouse_is_lit() -> None:
    app = ChipsApp()
    async with app.run_test(size=(60, 3)) as pilot:
        chips = app.query_one(TagChips)
        chips.show(["alice", "bob"])
        await pilot.hover(TagChips, offset=(10, 0))
        assert chips.hovered == 1
        assert chips.tooltip == "click to filter by bob"
        styles = [span.style for span in chips.render().spans]
        assert styles == [chips.get_visual_style(CHIP), chips.get_visual_style(CHIP_HOVER)]


async def test_the_same_tags_again_cost_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    app = ChipsApp()
    async with app.run_test(size=(60, 3)) as pilot:
        chips = app.query_one(TagChips)
        chips.show(["alice"])
        await pilot.pause()
        refreshed: list[Any] = []
        refresh = Widget.refresh

        def counting(self: Widget, *args: Any, **kwargs: Any) -> Any:
            if self is chips:
                refreshed.append(kwargs)
            return refresh(self, *args, **kwargs)

        monkeypatch.setattr(Widget, "refresh", counting)
        chips.show(("alice",))
        assert refreshed == []
        chips.show(["bob"])
        assert refreshed and not any(kwargs.get("layout") for kwargs in refreshed)
        chips.show([])
        assert not chips.display
