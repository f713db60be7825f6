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
