"""80x24 is a designed layout: with the sidebar shown the results keep a readable width
and tag counts never wrap."""

from __future__ import annotations

import pytest

from reme_tui.ui.widgets.line_list import ROW
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


async def test_at_80x24_tag_counts_stay_whole_and_the_search_hint_fits(
    app_factory: AppFactory, workspace
) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: at 80x24 a long tag pushed its count out of sight, and the search box's
    hint was cut where it met the date box (`since:2026-01-01 since`)."""
    from pathlib import Path

    from rich.cells import cell_len

    from reme_tui.ui.widgets.search_bar import QueryInput

    long_tag = "customer_escalation_followups_for_enterprise"
    note = Path(workspace) / "daily/2026-03-03/escalation.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(f"---\nname: E\nmemory_tags: [{long_tag}]\n---\nbody\n", encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        query = app.screen.query_one(QueryInput)
        assert cell_len(query.placeholder) < query.content_size.width
        await pilot.press("escape", "ctrl+b")
        await settle(pilot)
        tags = app.screen.query_one(TagList)
        padding = tags.get_component_styles(ROW).padding.width
        room = tags.scrollable_content_region.width - padding
        sidebar = app.screen.query_one(TagSidebar)
        texts = [tags.row_content(i, room).plain for i in range(tags.row_count)]
        for text, (_tag, count) in zip(texts, sidebar.visible_tags(), strict=True):
            assert text.endswith(f" {count}") and cell_len(text) <= room, text
        assert any(t.strip().startswith("customer_esc") and "…" in t for t in texts), texts


async def test_at_80x24_the_preview_header_keeps_the_date_and_lines(
    app_factory: AppFactory, workspace
) -> None:  # type: ignore[no-untyped-def]
    """Issue 22: the preview header's path ran off the pane and took the date and the line
    range with it. The path is cut from the left instead."""
    from pathlib import Path

    from rich.cells import cell_len

    note = Path(workspace) / "daily/2026-03-04/a-very-long-file-name-about-the-budget-review.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("---\nname: Long\n---\n# Long\n\nThe zanzibar budget.\n", encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"zanzibar", "enter")
        await settle(pilot)
        meta = app.screen.query_one("#preview-meta")
        first = str(meta.render()).split("\n")[0]
        assert first.startswith("…") and "2026-03-04" in first, first
        assert first.endswith("lines 4–6"), first
        preview = app.screen.query_one("#preview")
        assert cell_len(first) <= preview.content_size.width - 2  # inside the header's padding


async def test_at_80x24_a_memorys_warning_in_the_preview_is_whole(
    app_factory: AppFactory, workspace
) -> None:  # type: ignore[no-untyped-def]
    """Issue 22 asked for a file's diagnostics in the preview header; at 80 columns the
    line ran off the pane ("`memory_tags` is a str ('a"). It wraps, every word painted."""
    from pathlib import Path

    from textual.geometry import Region

    scalar = "daily/2026-03-02/scalar.md"
    (Path(workspace) / "daily/2026-03-02").mkdir(parents=True, exist_ok=True)
    (Path(workspace) / scalar).write_text("---\nname: Scalar\nmemory_tags: alice\n---\nA note.\n")
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.main_screen.open_memory(scalar)
        await settle(pilot)
        notes = app.main_screen.query_one("#preview-notes")
        header = app.main_screen.query_one("#preview-header")
        assert notes.display
        assert header.content_region.contains_region(notes.region)
        painted = notes.render_lines(Region(0, 0, *notes.region.size))
        words = " ".join(strip.text for strip in painted).split()
        assert words == str(notes.render()).split()
        assert words[-3:] == ["as", "a", "list"]
