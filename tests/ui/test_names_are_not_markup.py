"""File names, tags and errors are shown as text: Textual reads a plain string as markup,
where ``[@click=app.quit]`` is a link that runs an action when clicked."""

from __future__ import annotations

from pathlib import Path

import pytest

from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.results import ResultsPane

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio

HOSTILE = "daily/[@click=app.quit]x [draft].md"


@pytest.fixture
def hostile_workspace(workspace: Path) -> Path:
    path = workspace / HOSTILE
    path.write_text(
        "---\nname: hostile\ndescription: a file name with markup\nmemory_tags: [t]\n---\n"
        "zanzibar plans\n",
        encoding="utf-8",
    )
    return workspace


async def test_a_file_name_with_markup_titles_the_preview_as_written(
    app_factory: AppFactory, hostile_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.load_preview(HOSTILE, None, None, keep_scroll=False)
        await settle(pilot)
        preview = app.main_screen.query_one(Preview)
        title = preview._border_title
        assert title is not None and title.plain == HOSTILE and not title.spans
        assert "[@click=app.quit]x [draft].md" in app.export_screenshot().replace("&#160;", " ")


async def test_a_toast_shows_its_words_as_written(
    app_factory: AppFactory, hostile_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.notify(f"{HOSTILE} → daily/y.md", title="Renamed")  # markup=True
        app.notify("The change history is off ([history] enabled = false)")
        await pilot.pause()
        shown = [(n.message, n.markup) for n in app._notifications]
        assert (f"{HOSTILE} → daily/y.md", False) in shown
        assert ("The change history is off ([history] enabled = false)", False) in shown


async def test_the_results_title_is_repainted_as_text(
    app_factory: AppFactory, hostile_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(ResultsPane)
        pane.set_rows([], [], title="[b]0[/b] results", empty="", keep=False)
        await pilot.pause()
        assert pane._border_title is not None and pane._border_title.plain == "[b]0[/b] results"
