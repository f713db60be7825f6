"""SafeInput: control characters in the value or a completion painted as escapes.

It overrides private members of Textual's Input; the first test fails when a Textual
release renames them, instead of the box silently painting raw values again."""

from __future__ import annotations

import re

import pytest
from textual.app import App, ComposeResult
from textual.suggester import SuggestFromList
from textual.widgets import Input

from reme_tui.ui.safe_input import SafeInput, escaped

pytestmark = pytest.mark.anyio

RAW = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_the_input_members_it_overrides_are_still_there() -> None:
    for name in ("_value", "_position_to_cell", "_cell_offset_to_index", "render_line"):
        assert name in vars(Input), name
    box = Input()
    assert isinstance(box._suggestion, str) and isinstance(box._cursor_visible, bool)


def test_escaped_maps_each_character_to_where_it_is_shown() -> None:
    assert escaped("plain tag") is None
    assert escaped("a\x1bb\u202ec\nd") == (r"a\x1bb\u202ec\nd", (0, 1, 5, 6, 12, 13, 15, 16))


class OneBox(App[None]):
    def compose(self) -> ComposeResult:
        yield SafeInput(suggester=SuggestFromList(["al\x1b[2Jpha", "plain"]))


async def test_a_completion_holding_esc_is_shown_escaped() -> None:
    app = OneBox()
    async with app.run_test() as pilot:
        box = app.query_one(SafeInput)
        box.focus()
        await pilot.press("a")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        line = box.render_line(0).text
        assert not RAW.search(line)
        assert r"al\x1b[2Jpha" in line
        assert box.value == "a"


async def test_a_plain_value_paints_as_textual_paints_it() -> None:
    class TwoBoxes(App[None]):
        def compose(self) -> ComposeResult:
            yield SafeInput("plain value", id="safe")
            yield Input("plain value", id="textual")

    app = TwoBoxes()
    async with app.run_test() as pilot:
        app.set_focus(None)
        await pilot.pause()
        safe, textual = app.query_one("#safe", Input), app.query_one("#textual", Input)
        assert list(safe.render_line(0)) == list(textual.render_line(0))
