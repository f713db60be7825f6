"""The paint guard: whatever a widget renders, no control character reaches the terminal.

Display sites escape workspace text themselves (test_escapes_are_shown); the guard is the
backstop for one that forgets. A widget here paints raw escapes on purpose, and the frame
the app would write (``render_segments``: segment texts with the driver's own style and
cursor sequences around them) must carry none of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Group
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from reme_tui.ui.app import RemeApp
from reme_tui.ui.paint_guard import clean_segments

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio

# What a terminal obeys: C0, DEL, C1, bidi overrides and isolates.
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Every escape sequence Textual writes itself: SGR styles, cursor moves, OSC 8 links.
OWN_SEQUENCES = re.compile(r"\x1b\[[0-9;]*[mHABCDJ]|\x1b\]8;[^\x1b]*\x1b\\")


def frame(app: RemeApp) -> str:
    """The terminal text of a full frame of the screen, as the driver would be handed it."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return update.render_segments(app.console)


def assert_nothing_obeyed(app: RemeApp, *shown: str) -> None:
    written = frame(app)
    for sequence in ("\x1b[2J", "\x1bc", "\x1b]0;", "\x9b", "\u202e"):
        assert sequence not in written, f"{sequence!r} written to the terminal"
    leftover = OWN_SEQUENCES.sub("", written)
    assert not RAW.search(leftover.replace("\n", "")), "a control character was written"
    for text in shown:
        assert text in leftover, f"{text!r} is not on screen"


async def test_a_widget_painting_raw_escapes_writes_none(
    app_factory: AppFactory, workspace: Path
) -> None:
    """A Static holding a raw ESC in Content, in a rich Text, in a rich Control, and a
    bidi override: the words around them paint, the controls do not."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hostile = [
            Static(Content("content \x1b[2J clears"), id="hostile-content"),
            Static(Text("text \x1bc resets \x1b]0;title\x07 retitles \x9b2J")),
            Static(Group(Text("control"), Control.clear(), Control.home())),
            Static(Text("bidi \u202eevil\u202c end")),
        ]
        await app.screen.mount_all(hostile, before=0)
        await settle(pilot)
        assert_nothing_obeyed(
            app, "content [2J clears", "text c resets ]0;title retitles 2J", "bidi evil end"
        )


def test_clean_lines_are_passed_through_and_cells_kept() -> None:
    clean = [Segment("plain "), Segment("styled", Style(bold=True))]
    assert clean_segments(clean) is clean
    dirty = [
        Segment("a\x1b[2Jb", Style(bold=True)),
        Segment("\x9b"),
        Control.clear().segment,
        Segment("c\udcffd"),
    ]
    cleaned = clean_segments(dirty)
    assert [segment.text for segment in cleaned] == ["a[2Jb", "c\ufffdd"]
    assert cleaned[0].style == Style(bold=True)
    assert Segment.get_line_length(cleaned) == Segment.get_line_length(dirty)
