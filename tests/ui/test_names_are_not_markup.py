"""File names, tags and errors are shown as text: Textual reads a plain string as markup,
where ``[@click=app.quit]`` is a link that runs an action when clicked."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.visual import visualize
from textual.widget import Widget
from textual.widgets import Collapsible, DataTable, Input, Label, OptionList, Static
from textual.widgets._collapsible import CollapsibleTitle

from reme_tui.engine import Filters, SearchQuery
from reme_tui.engine.reme import parse_transcript
from reme_tui.engine.tags import DismissedPairs
from reme_tui.engine.write import RevertPlan, plan_merge
from reme_tui.engine.write.revert import RevertStep
from reme_tui.ui.app import RemeApp
from reme_tui.ui.screens.changes import RevertConfirmScreen
from reme_tui.ui.screens.diagnostics import FixPreviewScreen
from reme_tui.ui.screens.dupes import DismissedPairsScreen, MergeConfirmScreen
from reme_tui.ui.screens.explain import ExplainScreen
from reme_tui.ui.screens.transcript import TranscriptScreen
from reme_tui.ui.widgets.chips import Chip
from reme_tui.ui.widgets.match_chart import MatchChart
from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.results import ResultsPane
from reme_tui.ui.widgets.search_bar import SearchBar
from reme_tui.ui.widgets.status_bar import StatusBar
from reme_tui.ui.widgets.tag_chips import TagChips
from reme_tui.ui.widgets.tag_editor import EditChip, TagEditor

from .conftest import SIZE, AppFactory, open_dupes, settle, show_memory

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
        await show_memory(pilot, HOSTILE)
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


# -- every other place a name, a tag, a path or an error is shown ---------------------------

CLICK = "[@click=app.quit]"
TAG = f"{CLICK}project-x[/b]"  # the most used spelling (two memories)
VARIANT = f"{CLICK}project_x[/b]"  # its near-duplicate (one memory)
DESCRIPTION = f"{CLICK}plans [draft] x[/b]"
OTHER = "daily/y[/b].md"  # a folder "y[" holding "b].md"
THIRD = "daily/z [draft].md"


@pytest.fixture
def markup_workspace(workspace: Path) -> Path:
    """Memories whose file names, names, descriptions and tags all read as markup."""
    memories = {HOSTILE: TAG, OTHER: TAG, THIRD: VARIANT}
    for path, tag in memories.items():
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)  # "daily/y[" for OTHER
        (workspace / path).write_text(
            f"---\nname: '{CLICK}name [draft]'\ndescription: '{DESCRIPTION}'\n"
            f"memory_tags: ['{tag}']\n---\nzanzibar plans\n",
            encoding="utf-8",
        )
    return workspace


def shown(widget: Widget) -> str:
    """The text ``widget`` draws, parsed as Textual parses what it was given."""
    rendered = widget.render()
    assert isinstance(rendered, Content)
    assert not _actions(rendered)
    return rendered.plain


def tip(widget: Widget) -> str:
    """The text of ``widget``'s tooltip, as the tooltip widget parses it."""
    assert widget.tooltip is not None
    visual = visualize(widget, widget.tooltip)  # what `Tooltip.update` makes of it
    assert isinstance(visual, Content)
    assert not _actions(visual)
    return visual.plain


def _actions(content: Content) -> list[object]:
    """The spans of ``content`` that run an action when clicked."""
    return [
        span
        for span in content.spans
        if "@click" in str(span.style)
        or (isinstance(span.style, Style) and "@click" in (span.style.meta or {}))
    ]


def screen_text(app: RemeApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def test_the_preview_header_and_search_bar_show_names_as_written(
    app_factory: AppFactory, markup_workspace: Path
) -> None:
    """SteadyLabel (preview name, description and location; search message and mode;
    the empty-results line; the chart's dates), the status bar, the search chips and
    the tag chips' tooltips."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.load_preview(HOSTILE, None, None, keep_scroll=False)
        await settle(pilot)
        preview = screen.query_one(Preview)
        assert shown(preview.query_one("#preview-description", Label)) == DESCRIPTION
        assert shown(preview.query_one("#preview-meta", Label)).startswith(HOSTILE)
        assert DESCRIPTION in screen_text(app)
        chips = preview.query_one(TagChips)
        await pilot.hover(chips, offset=(1, 0))
        await pilot.pause()
        assert tip(chips) == f"click to filter by {TAG}"

        bar = screen.query_one(SearchBar)
        bar.add_tag(TAG)
        bar.add_tag("[nosuch] x[/b]")
        await settle(pilot)
        chip = bar.query(Chip).first()
        assert shown(chip) == f"{TAG} ✕"
        assert tip(chip) == f"tag {TAG}: click or Backspace to remove"
        bar.set_message(f"no such tag: {VARIANT}")
        bar.set_mode("BM25 only", f"semantic search is off: {DESCRIPTION}")
        await pilot.pause()
        assert shown(bar.query_one("#search-message", Label)) == f"no such tag: {VARIANT}"
        assert tip(bar.query_one("#search-mode", Label)) == (
            f"semantic search is off: {DESCRIPTION}"
        )
        results = screen.query_one(ResultsPane)
        results.set_rows([], [], title="none", empty=f"Bad query: {DESCRIPTION}", keep=False)
        results.query_one(MatchChart).show_note(f"{CLICK}[draft]")
        await pilot.pause()
        assert shown(results.query_one("#results-empty", Label)) == f"Bad query: {DESCRIPTION}"
        assert shown(results.query_one("#chart-first", Label)) == f"{CLICK}[draft]"

        status = screen.query_one(StatusBar)
        status.set_workspace(f"{CLICK}ws [draft]", f"/home/{CLICK}ws [draft]")
        status.set_changes(None, "", error=f"cannot open {CLICK}history[/b]")
        await pilot.pause()
        assert shown(status.query_one("#status-workspace", Label)) == f"{CLICK}ws [draft]"
        assert tip(status.query_one("#status-workspace", Label)) == f"/home/{CLICK}ws [draft]"
        assert tip(status.query_one("#status-changes", Label)) == (
            f"cannot open {CLICK}history[/b]"
        )
        assert app.is_running


async def test_the_tag_editor_shows_tags_and_errors_as_written(
    app_factory: AppFactory, markup_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await show_memory(pilot, HOSTILE, edit_tags=True)
        editor = app.screen.query_one(TagEditor)
        chip = editor.query(EditChip).first()
        assert shown(chip) == f"{TAG} ✕"
        assert tip(chip).startswith(f"{TAG}: click or Backspace")
        # The screen shows a failed save's error (it quotes the path) in the banner.
        editor.set_banner(f"✗ Not saved: {HOSTILE}: {CLICK}denied[/b]")
        await pilot.pause()
        banner = editor.query_one("#tag-editor-banner", Static)
        assert shown(banner) == f"✗ Not saved: {HOSTILE}: {CLICK}denied[/b]"
        assert "[@click=app.quit]denied[/b]" in screen_text(app)


async def test_the_duplicate_review_shows_tags_and_paths_as_written(
    app_factory: AppFactory, markup_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        cluster = next(c for c in screen.clusters if TAG in c.tags)
        table = screen.query_one(DataTable)
        row = table.get_row_at(screen.clusters.index(cluster))
        assert all(isinstance(cell, Text) for cell in row[2:])
        assert str(row[2]) == TAG and str(row[3]) == ", ".join(cluster.tags)
        table.move_cursor(row=screen.clusters.index(cluster))
        await pilot.pause()
        target = screen.query_one("#dupes-target", Input)
        target.focus()
        target.value = VARIANT
        await pilot.press("enter")
        await pilot.pause()
        assert str(table.get_row_at(table.cursor_row)[2]) == VARIANT

        plan = plan_merge(app.engine, [TAG, VARIANT], TAG)
        plan = replace(plan, skipped=(*plan.skipped, (OTHER, f"{CLICK}read-only[/b]")))
        app.push_screen(MergeConfirmScreen(plan))
        await settle(pilot)
        merge = app.screen
        assert shown(merge.query_one("#merge-title", Label)).startswith(
            f"Merge {VARIANT} into {TAG}: 1 file"
        )
        assert shown(merge.query_one("#merge-skipped", Label)) == (
            f"Skipped (cannot be edited safely): {OTHER}: {CLICK}read-only[/b]"
        )
        await pilot.press("escape")
        await settle(pilot)

        DismissedPairs(app.engine.root).dismiss((TAG, f"{CLICK}[draft]"))
        app.push_screen(DismissedPairsScreen(DismissedPairs(app.engine.root)))
        await settle(pilot)
        listed = app.screen.query_one(OptionList)
        prompt = listed.get_option_at_index(0).prompt
        visual = visualize(listed, prompt, markup=listed._markup)
        assert isinstance(visual, Content) and not _actions(visual)
        assert visual.plain == f"{CLICK}[draft] ↔ {TAG}"
        assert app.is_running


async def test_diagnostics_explain_changes_and_transcripts_show_text_as_written(
    app_factory: AppFactory, markup_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(FixPreviewScreen(HOSTILE, f"-memory_tags: {TAG}\n+memory_tags: []\n"))
        await settle(pilot)
        assert shown(app.screen.query_one("#fix-title", Label)).startswith(
            f"Fix the tags of {HOSTILE}? "
        )
        app.pop_screen()
        await settle(pilot)

        # A search for the variant: the memory carrying the spelling in use is dropped by
        # the tag stage, and the hint names that spelling.
        query = SearchQuery(text="zanzibar", filters=Filters(tags=(VARIANT,)))
        app.push_screen(ExplainScreen(app.engine.explain(OTHER, query), f"zanzibar {CLICK}"))
        await settle(pilot)
        hint = shown(app.screen.query_one("#explain-hint", Label))
        assert f"(merge `{TAG}`?)" in hint
        assert f"zanzibar {CLICK}" in shown(app.screen.query_one("#explain-title", Label))
        app.pop_screen()
        await settle(pilot)

        plan = RevertPlan(f"revert merge {VARIANT} → {TAG}", [RevertStep(HOSTILE, None, None)])
        app.push_screen(RevertConfirmScreen(plan))
        await settle(pilot)
        assert shown(app.screen.query_one("#revert-title", Label)).startswith(
            f"revert merge {VARIANT} → {TAG}: 1 file"
        )
        assert shown(app.screen.query_one("#revert-listing", Static)).endswith(HOSTILE)
        app.pop_screen()
        await settle(pilot)

        call = {"type": "tool_use", "name": f"{CLICK}tool[/b]", "input": {"q": "[draft]"}}
        record = {"role": "assistant", "name": f"{CLICK}agent", "content": [call]}
        transcript = parse_transcript(json.dumps(record))
        app.push_screen(TranscriptScreen(HOSTILE, transcript))
        await settle(pilot)
        title = app.screen.query_one(Collapsible).query_one(CollapsibleTitle)
        assert shown(title).endswith(f"tool call: {CLICK}tool[/b]")
        assert "tool call: [@click=app.quit]tool[/b]" in screen_text(app)
        assert app.is_running
