"""The untagged review (issue 20): the status bar's count opens it, one key tags."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reme_tui.engine.parse.frontmatter import read_tags
from reme_tui.ui.screens.edit_tags import TagEditorScreen
from reme_tui.ui.screens.untagged import UntaggedList, UntaggedScreen
from reme_tui.ui.widgets.status_bar import UntaggedLabel

from .conftest import SIZE, AppFactory, settle, steady_cursors

anyio = pytest.mark.anyio

SYNC = "daily/2026-03-20/sync.md"
SYNC_TEXT = "---\nname: Sync with Alice\ndescription: Weekly sync\n---\nAlice on the migration.\n"


@pytest.fixture
def with_sync(workspace: Path) -> Path:
    (workspace / SYNC).parent.mkdir(parents=True)
    (workspace / SYNC).write_text(SYNC_TEXT, encoding="utf-8")
    return workspace


async def open_review(pilot: Any) -> UntaggedList:
    await settle(pilot)
    pilot.app.main_screen.action_focus_pane("results")  # keys typed in the query box are text
    await pilot.press("u")
    await settle(pilot)
    assert isinstance(pilot.app.screen, UntaggedScreen)
    return pilot.app.screen.query_one(UntaggedList)


@anyio
async def test_the_status_bar_counts_untagged_memories_and_a_click_opens_them(
    app_factory: AppFactory, with_sync: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        label = app.main_screen.query_one("#status-untagged", UntaggedLabel)
        assert str(label.render()) == "1 untagged"
        await pilot.click("#status-untagged")
        await settle(pilot)
        assert isinstance(app.screen, UntaggedScreen)


@anyio
async def test_a_adds_the_first_suggestion_and_the_memory_leaves_the_list(
    app_factory: AppFactory, with_sync: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        listing = await open_review(pilot)
        assert listing.paths == [SYNC]
        assert listing.suggestions[SYNC][0].tag == "alice"
        await pilot.press("a")
        await settle(pilot)
        assert listing.paths == []
        label = app.main_screen.query_one("#status-untagged", UntaggedLabel)
        assert not label.display
    text = (with_sync / SYNC).read_text(encoding="utf-8")
    assert read_tags(text) == ["alice"]
    assert text.endswith("---\nAlice on the migration.\n")  # only the tag line was added


@anyio
async def test_no_suggestion_writes_nothing_and_t_opens_the_editor(
    app_factory: AppFactory, with_sync: Path
) -> None:
    lone = "daily/2026-03-25/lone.md"
    lone_text = "---\nname: zzyzx\n---\nqwv xkcd.\n"
    (with_sync / lone).parent.mkdir(parents=True)
    (with_sync / lone).write_text(lone_text, encoding="utf-8")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        listing = await open_review(pilot)
        assert listing.paths == [lone, SYNC]  # newest first
        assert listing.current == lone and listing.suggestions[lone] == ()
        await pilot.press("a")
        await settle(pilot)
        assert (with_sync / lone).read_text(encoding="utf-8") == lone_text
        assert listing.paths[0] == lone
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TagEditorScreen)
        assert app.screen.path == lone


@anyio
async def test_enter_opens_the_memory(app_factory: AppFactory, with_sync: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await open_review(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, UntaggedScreen)
        assert app.main_screen.current_path == SYNC


async def review_open(pilot: Any) -> None:
    await open_review(pilot)
    await steady_cursors(pilot)


def test_snapshot_untagged_review(
    snap_compare: Any, app_factory: AppFactory, with_sync: Path
) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=review_open)
