"""SVG snapshots of the main states (fixed size, fixed clock, no watcher, no user config).

Update with ``pytest tests/ui/test_snapshots.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from reme_tui.ui.widgets.neighbours import NeighboursList
from reme_tui.ui.widgets.search_bar import SearchBar

from .conftest import SIZE, AppFactory, settle, steady_cursors


async def ready(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.main_screen.query_one(SearchBar).focus_query()
    await steady_cursors(pilot)


async def tag_search_with_dates(pilot: Pilot[Any]) -> None:
    await ready(pilot)
    await pilot.press(*"tag:project_atlas since:2026-1-10 until:2026-3-31 postgres migration")
    await pilot.press("enter")
    await settle(pilot, quiet=0.5)
    await steady_cursors(pilot)


async def preview_with_neighbours(pilot: Pilot[Any]) -> None:
    await ready(pilot)
    await pilot.press(*"rehearsal", "enter")
    await settle(pilot)
    pilot.app.main_screen.query_one(NeighboursList).focus()
    await settle(pilot, quiet=0.2)
    await steady_cursors(pilot)


def test_empty_state(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=ready)


def test_tag_filtered_search_with_dates(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=tag_search_with_dates)


def test_preview_with_neighbours(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=preview_with_neighbours)


def test_small_terminal_80x24(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=(80, 24), run_before=tag_search_with_dates)


@pytest.mark.parametrize("theme", ["reme-dusk", "reme-paper", "reme-forest"])
def test_each_theme(snap_compare: Any, app_factory: AppFactory, theme: str) -> None:
    assert snap_compare(
        app_factory(theme=theme), terminal_size=SIZE, run_before=preview_with_neighbours
    )


def test_diagnostics_list(snap_compare: Any, app_factory: AppFactory) -> None:
    async def open_diagnostics(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press("escape", "exclamation_mark")  # a click would leave a tooltip
        await settle(pilot)

    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=open_diagnostics)


def test_help_screen(snap_compare: Any, app_factory: AppFactory) -> None:
    async def open_help(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press("escape", "question_mark")
        await settle(pilot)

    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=open_help)


def test_explain_view(snap_compare: Any, app_factory: AppFactory) -> None:
    """Why not: a memory the tag chip drops, with the tags stage highlighted."""

    async def explain_broken(pilot: Pilot[Any]) -> None:
        await tag_search_with_dates(pilot)
        await pilot.press("escape", "W")
        await settle(pilot)
        await pilot.press(*"digest/broken.md", "enter")
        await settle(pilot)
        await steady_cursors(pilot)

    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=explain_broken)
