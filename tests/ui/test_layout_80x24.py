"""80x24 is a designed layout: with the sidebar shown the results keep a readable width
and tag counts never wrap."""

from __future__ import annotations

import pytest

from reme_tui.ui.widgets.results import ResultsPane
from reme_tui.ui.widgets.tag_sidebar import TagList, TagSidebar

from .conftest import AppFactory, settle

pytestmark = pytest.mark.anyio


async def test_sidebar_at_80x24_leaves_the_results_readable(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.screen.query_one(TagSidebar).display  # hidden by default
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert app.screen.query_one(TagSidebar).display
        assert app.screen.query_one(ResultsPane).outer_size.width >= 30
        tags = app.screen.query_one(TagList)
        assert tags.virtual_size.height == tags.row_count > 0  # one line per tag: no wrap
