"""The near-duplicate tag review (key ``d``): list, merge with a dry-run diff, undo, dismiss."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Label, Static

from reme_tui.config import load_settings
from reme_tui.engine.tags.hygiene import DismissedPairs
from reme_tui.engine.write.merge import Journal
from reme_tui.ui.app import RemeApp, make_app
from reme_tui.ui.options import AppOptions
from reme_tui.ui.screens.dupes import DismissedPairsScreen, DupesScreen, MergeConfirmScreen
from reme_tui.ui.widgets.status_bar import StatusBar

from .conftest import columns_fit, open_dupes, settle, steady_cursors, wait_for

pytestmark = pytest.mark.anyio

# Its own workspace and settings file (fixed size, fixed clock, no watcher); the waiting
# helpers are the shared ones from conftest. XDG dirs are private (tests/conftest.py).
FIXED_NOW = dt.datetime(2026, 3, 15, 9, 30, 0)
SIZE = (140, 40)
AppFactory = Callable[..., RemeApp]

FILES = {
    "daily/2026-01-05/kickoff.md": "---\nname: Kickoff\nmemory_tags: [project_atlas, alice]\n"
    "---\nAtlas kickoff with Alice.\n",
    "daily/2026-01-19/schema.md": "---\nname: Schema\nmemory_tags:\n  - Project_Atlas\n"
    "  - bob\n---\nAtlas schema review.\n",
    "daily/2026-02-02/cutover.md": "---\nname: Cutover\nmemory_tags: [project atlas, ops]\n"
    "---\nAtlas cutover plan.\n",
    "daily/2026-02-20/outage.md": "---\r\nname: Outage\r\nmemory_tags: [alice, project-atlas]"
    "\r\n---\r\nAtlas login outage.\r\n",
    "daily/2026-03-01/qbr.md": "---\nname: QBR\nmemory_tags:\n  - ProjectAtlas\n---\n"
    "Atlas at the QBR.",
    "digest/acme.md": "---\nname: Acme\nmemory_tags: [acme_corp]\n---\nAcme the customer.\n",
    "digest/acme-call.md": "---\nname: Call\nmemory_tags: [ACME, acme_corp]\n---\nAcme call.\n",
    "digest/garden.md": "---\nname: 2026\nmemory_tags: [garden]\n---\nTomatoes.\n",
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return root


@pytest.fixture
def app_factory(workspace: Path, tmp_path: Path) -> AppFactory:
    def factory(**overrides: Any) -> RemeApp:
        options: dict[str, Any] = {
            "watch": False,
            "clock": lambda: FIXED_NOW,
            "persist_theme": False,
        }
        options.update(overrides)
        settings = load_settings(tmp_path / "config.toml")
        return make_app(workspace, settings, AppOptions(**options))

    return factory


def snapshot_of(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in FILES}


async def test_d_lists_clusters_most_certain_first(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        first = screen.clusters[0]
        assert first.confidence == "high"
        assert set(first.tags) == {"project_atlas", "project-atlas", "projectatlas"}
        assert screen.query_one(DataTable).row_count == len(screen.clusters)
        levels = [c.confidence for c in screen.clusters]
        assert levels == sorted(levels, key=["high", "medium", "low"].index)
        detail = str(screen.query_one("#dupes-members", Static).render())
        assert "Project_Atlas" in detail  # spellings
        assert "daily/2026-01-05/kickoff.md" in detail  # sample memories
        assert screen.query_one("#dupes-target", Input).value == "project_atlas"
        await pilot.press("escape")
        assert not isinstance(app.screen, DupesScreen)


async def test_palette_lists_the_review(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [title for title, _, _ in app.palette_commands()]
        assert "Review near-duplicate tags" in titles


async def test_merge_shows_diff_then_writes_and_undo_restores(
    app_factory: AppFactory, workspace: Path
) -> None:
    before = snapshot_of(workspace)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeConfirmScreen))
        confirm = app.screen
        diff = str(confirm.query_one("#merge-diff", Static).render())
        assert "-memory_tags: [alice, project-atlas]" in diff
        assert "+memory_tags: [alice, project_atlas]" in diff
        assert "-  - ProjectAtlas" in diff
        assert before == snapshot_of(workspace)  # nothing written before confirming
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert before == snapshot_of(workspace)

        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.engine.files_with_tag("project-atlas") == frozenset())
        await settle(pilot)
        after = snapshot_of(workspace)
        assert after["daily/2026-02-20/outage.md"] == (
            b"---\r\nname: Outage\r\nmemory_tags: [alice, project_atlas]\r\n---\r\n"
            b"Atlas login outage.\r\n"
        )
        assert after["daily/2026-03-01/qbr.md"].endswith(
            b"  - project_atlas\n---\nAtlas at the QBR."
        )
        assert len(app.engine.files_with_tag("project_atlas")) == 5
        await wait_for(
            pilot, lambda: "project-atlas" not in {t for c in screen.clusters for t in c.tags}
        )

        await pilot.press("u")
        await wait_for(pilot, lambda: snapshot_of(workspace) == before)
        await settle(pilot)
        assert len(app.engine.files_with_tag("project-atlas")) == 1
        assert Journal(workspace).last_undoable() is None


async def test_changed_target_is_used(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await open_dupes(pilot)
        await pilot.press("T")
        target = app.screen.query_one("#dupes-target", Input)
        assert app.focused is target
        target.value = ""
        await pilot.press(*"atlas", "enter")
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MergeConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(app.engine.files_with_tag("atlas")) == 5)
        assert app.engine.files_with_tag("project_atlas") == frozenset()


async def test_dismissed_cluster_is_remembered(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        acme = next(i for i, c in enumerate(screen.clusters) if "acme" in c.tags)
        screen.query_one(DataTable).move_cursor(row=acme)
        await pilot.pause()
        await pilot.press("x")
        await wait_for(pilot, lambda: all("acme" not in c.tags for c in screen.clusters))
    assert frozenset({"acme", "acme_corp"}) in DismissedPairs(workspace).pairs()
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        assert all("acme" not in c.tags for c in screen.clusters)


async def test_unwritable_data_dir_is_a_notice_not_a_crash(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    data = Path(os.environ["XDG_DATA_HOME"])
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("a file where the data directory should be")  # unwritable, even as root
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        seen: list[str] = []
        notify = app.notify
        monkeypatch.setattr(app, "notify", lambda m, **kw: (seen.append(str(m)), notify(m, **kw)))
        monkeypatch.setattr(screen, "notify", app.notify)
        acme = next(i for i, c in enumerate(screen.clusters) if "acme" in c.tags)
        screen.query_one(DataTable).move_cursor(row=acme)
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert app.is_running and any("Not remembered" in m for m in seen)


async def test_status_bar_counts_what_reme_drops(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        label = app.main_screen.query_one(StatusBar).query_one("#status-compat", Label)
        await wait_for(pilot, lambda: "voided" in str(label.render()))
        assert str(label.render()) == "ReMe drops: 1 voided"


def test_review_snapshot(snap_compare: Any, app_factory: AppFactory) -> None:
    async def run_before(pilot: Any) -> None:
        await open_dupes(pilot)
        await steady_cursors(pilot)

    app = app_factory(clock=lambda: FIXED_NOW)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_dismissed_pairs_snapshot(
    snap_compare: Any,
    app_factory: AppFactory,
    workspace: Path,
    no_user_config: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The list of dismissed pairs, with where they are kept (the home shown as ~; the
    workspace's key is pinned: it digests the temporary workspace path)."""
    from reme_tui.engine.files import userdata

    monkeypatch.setenv("HOME", str(no_user_config.parent))
    monkeypatch.setattr(userdata, "workspace_key", lambda root: "ws-key")
    DismissedPairs(workspace).dismiss(("acme", "acme_corp"))
    DismissedPairs(workspace).dismiss(("garden", "ops"))

    async def run_before(pilot: Any) -> None:
        review = await open_dupes(pilot)
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, DismissedPairsScreen))
        await wait_for(pilot, lambda: columns_fit(review.query_one(DataTable)))  # behind it
        await steady_cursors(pilot)

    app = app_factory(clock=lambda: FIXED_NOW)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_dismissed_pairs_are_listed_and_can_be_proposed_again(
    app_factory: AppFactory, workspace: Path
) -> None:
    from textual.widgets import OptionList

    DismissedPairs(workspace).dismiss(("acme", "acme_corp"))
    DismissedPairs(workspace).dismiss(("garden", "ops"))
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        assert all("acme" not in c.tags for c in screen.clusters)
        footer_keys = {b.binding.id for b in screen.active_bindings.values() if b.binding.show}
        assert "dupes.dismissed" in footer_keys
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(app.screen, DismissedPairsScreen))
        listed = app.screen.query_one(OptionList)
        shown = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert shown == ["acme ↔ acme_corp", "garden ↔ ops"]
        await pilot.press("enter")  # the highlighted first pair is proposed again
        await pilot.pause()
        assert DismissedPairs(workspace).pairs() == {frozenset({"garden", "ops"})}
        assert listed.option_count == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: any("acme" in c.tags for c in screen.clusters))


async def test_at_80_columns_the_file_count_and_target_are_on_screen(
    app_factory: AppFactory,
) -> None:
    """Issue 22: at 80x24 the cluster table's Files and Suggested columns were off screen,
    behind a long list of tags; the tags column now comes last and is the one cut."""
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_dupes(pilot)
        table = screen.query_one(DataTable)
        labels = [str(column.label) for column in table.columns.values()]
        assert labels[:3] == ["Confidence", "Files", "Suggested"] and labels[-1] == "Tags"
        widths = [column.get_render_width(table) for column in table.columns.values()]
        assert sum(widths[:3]) <= table.size.width
