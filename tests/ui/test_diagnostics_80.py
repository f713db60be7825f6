"""The diagnostics list at 80 columns: the message column is on screen, whole (wrapped),
so there is nothing to scroll sideways for."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from .conftest import AppFactory, settle

pytestmark = pytest.mark.anyio


async def test_diagnostics_show_the_message_at_80_columns(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "exclamation_mark")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        columns = list(table.columns.values())
        message = columns[-1]
        assert str(message.label) == "Message"
        right_edge = sum(c.get_render_width(table) for c in columns)
        assert right_edge <= table.size.width  # every column, the message too, fits
        assert message.width >= 24
        assert table.virtual_size.width <= table.size.width  # no sideways scrolling


async def test_paths_are_cut_from_the_left_and_the_title_is_whole_at_80_columns(
    app_factory: AppFactory, workspace
) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: at 80 columns paths read `daily/2026-…` (every one alike) and the title
    lost its last words. A path keeps the end of its file name (`…ff-notes.md`)."""
    from pathlib import Path

    deep = Path(workspace) / "daily/2026-03-02/a-rather-long-folder/kickoff-notes.md"
    deep.parent.mkdir(parents=True, exist_ok=True)
    deep.write_text("---\nname: 2026\n---\nbody\n", encoding="utf-8")  # name not a string
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "exclamation_mark")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one(DataTable)
        cells = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        paths = [d.path for d in screen.diagnostics]  # type: ignore[attr-defined]
        for cell, path in zip(cells, paths, strict=True):
            assert cell == path or (cell.startswith("…") and path.endswith(cell[1:])), cell
        assert any(cell.endswith("-notes.md") for cell in cells), cells
        title = screen.query_one("#diagnostics-title")
        assert title.size.height >= 2  # wrapped, not cut
