"""The Changes view (key ``c``): timeline, diff call-outs, filters, review, revert, live."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.widgets import Input, Label, Static

from reme_tui.ui.screens.changes import ChangesScreen, RevertConfirmScreen, Timeline

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio

KICKOFF = "daily/2026-01-05/kickoff.md"
GARDEN = "daily/2026-02-20.md"


def _status_changes(app: Any) -> Label:
    return app.main_screen.query_one("#status-changes", Label)


def _rows(screen: ChangesScreen) -> list[str]:
    return [row.key for row in screen.query_one(Timeline).rows]


def _row_of(screen: ChangesScreen, path: str) -> int:
    """The table row of the newest entry about ``path``."""
    for index, key in enumerate(_rows(screen)):
        if key.startswith("e:") and screen.entries[int(key[2:])].path == path:
            return index
    raise AssertionError(f"no row for {path}")


def _diff_text(screen: ChangesScreen) -> str:
    return str(screen.query_one("#changes-diff", Static).render())


async def _agent_edits(app: Any, workspace: Path) -> None:
    """What an agent would do behind the app's back, delivered as the watcher would."""
    text = (workspace / KICKOFF).read_text()
    (workspace / KICKOFF).write_text(
        text.replace("[project_atlas, alice, meeting]", "[project-atlas, alice, meeting]")
        + "A line the agent appended.\n"
    )
    (workspace / GARDEN).unlink()
    await app.apply_changes([KICKOFF, GARDEN])


async def _open_after_agent_edits(app: Any, pilot: Any, workspace: Path) -> ChangesScreen:
    """The agent's edits land, then `c` opens the Changes view on them."""
    await settle(pilot)
    await _agent_edits(app, workspace)
    await settle(pilot)
    await pilot.press("escape", "c")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ChangesScreen)
    return screen


async def test_first_start_is_silent_then_changes_are_counted(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.engine.history.has_baseline
        assert not _status_changes(app).display
        await _agent_edits(app, workspace)
        await settle(pilot)
        label = _status_changes(app)
        assert label.display
        assert "Δ 2 to review" in str(label.render())


async def test_timeline_diff_review_and_live_updates(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        rows = _rows(screen)
        assert len(rows) == 3 and rows[0].startswith("g:")  # one burst, two entries
        screen.query_one(Timeline).move_to(_row_of(screen, KICKOFF))
        await wait_for(pilot, lambda: f"modified {KICKOFF}" in _diff_text(screen))
        shown = _diff_text(screen)
        assert "−project_atlas +project-atlas" in shown
        assert "now: project-atlas, alice, meeting" in shown
        assert "+A line the agent appended." in shown
        # Mark one entry reviewed, then the whole history.
        await pilot.press("space")
        await settle(pilot)
        assert app.engine.history.unreviewed_count() == 1
        await pilot.press("M")
        await settle(pilot)
        assert app.engine.history.unreviewed_count() == 0
        assert not _status_changes(app).display
        # A new change appears while the view is open.
        (workspace / "digest/new.md").write_text("---\nname: New\n---\nfresh\n")
        await app.apply_changes(["digest/new.md"])
        await settle(pilot)
        await wait_for(pilot, lambda: len(_rows(screen)) == 4)  # joins the agent's burst
        assert "since last review" not in str(screen.query_one("#changes-mode", Label).render())
        await pilot.press("u")
        await settle(pilot)
        assert len(_rows(screen)) == 2  # only the unreviewed new memory and its group


async def test_filters_by_kind_tag_and_path(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        box = screen.query_one("#changes-filter", Input)
        for text, expected in [
            ("kind:deleted", [GARDEN]),
            ("tag:project-atlas", [KICKOFF]),
            ("path:daily/2026-01", [KICKOFF]),
            ("kind:moved", []),
        ]:
            box.value = text
            await settle(pilot)
            paths = [screen.entries[int(r[2:])].path for r in _rows(screen) if r.startswith("e:")]
            assert paths == expected, text


async def test_revert_one_change_with_a_dry_run_and_refusal(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        garden = (workspace / GARDEN).read_bytes()
        await _agent_edits(app, workspace)
        await settle(pilot)
        await pilot.press("escape", "c")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one(Timeline)
        table.move_to(_row_of(screen, GARDEN))
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RevertConfirmScreen)
        assert "restore (deleted now)" in str(app.screen.query_one("#revert-listing").render())
        await pilot.press("y")
        await settle(pilot)
        assert (workspace / GARDEN).read_bytes() == garden
        await wait_for(pilot, lambda: len(_rows(screen)) == 5)
        newest = app.engine.history.entries()[0]
        assert (newest.source, newest.kind, newest.path) == ("revert", "created", GARDEN)
        # The kickoff memory changes again behind the app's back: its revert is refused.
        table.move_to(_row_of(screen, KICKOFF))
        await settle(pilot)
        (workspace / KICKOFF).write_text("someone else wrote this\n")
        os.utime(workspace / KICKOFF)
        await pilot.press("r", "y")
        await settle(pilot)
        assert (workspace / KICKOFF).read_text() == "someone else wrote this\n"


async def test_palette_command_opens_the_view(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Review changes", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ChangesScreen)
        await wait_for(pilot, lambda: app.screen.loaded)
        assert "No changes recorded yet." in _diff_text(app.screen)


async def test_history_switched_off(app_factory: AppFactory, tmp_path: Path) -> None:
    from reme_tui.config import load_settings

    config = tmp_path / "off.toml"
    config.write_text("[history]\nenabled = false\n")
    app = app_factory(config=load_settings(config))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.engine.history is None
        await pilot.press("escape", "c")
        await settle(pilot)
        assert not isinstance(app.screen, ChangesScreen)


async def test_a_long_burst_is_one_whole_group_to_the_end(app_factory: AppFactory) -> None:
    """300 files in one burst: the group says 300, End reaches the last of them, the list
    draws only the rows on screen, and R's dry run covers all 300 (it once stopped at
    200, the first page)."""
    from reme_tui.engine.history.entries import Observed

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.engine.history.record(
            [
                Observed(f"daily/2026-04-01/n{i}.md", b"note\n", tags=(f"t{i % 3}",))
                for i in range(300)
            ]
        )
        app.action_changes()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ChangesScreen)
        timeline = screen.query_one(Timeline)
        # One paint from a steady screen: how many first paints there were (a focus change
        # restyles every row) depends on the machine's load, what one paint draws does not.
        timeline.rows_built = 0
        timeline.refresh_rows()
        await settle(pilot)
        assert 0 < timeline.rows_built <= timeline.size.height < timeline.row_count
        assert len(screen.loaded_entries) == 300
        group = screen.selected_group()
        assert group is not None and len(group.entries) == 300
        await pilot.press("end")
        await settle(pilot)
        last = screen.selected_entry()
        assert last is not None and last.path == "daily/2026-04-01/n0.md"
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, RevertConfirmScreen)
        assert len(app.screen.plan.steps) == 300
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        churn = _diff_text(screen)
        assert "Tag churn" in churn and f"+{len(range(0, 300, 3))}" in churn


async def test_j_and_k_move_in_the_timeline_and_esc_leaves_the_filter_first(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        timeline = screen.query_one(Timeline)
        start = timeline.highlighted
        await pilot.press("j")
        assert timeline.highlighted == start + 1
        await pilot.press("k")
        assert timeline.highlighted == start
        await pilot.press("slash", "k", "i", "n", "d")
        await settle(pilot)
        assert isinstance(app.focused, Input)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and app.focused is timeline
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not screen


def test_changes_view_snapshot(
    snap_compare: Any, app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's night: a tag renamed and a line added, a memory moved, one deleted;
    earlier, a merge done here. Fixed times, zone and size."""
    import time as time_module

    from reme_tui.engine.history.database import ChangeHistory
    from reme_tui.engine.history.entries import Observed

    monkeypatch.setenv("TZ", "UTC")
    time_module.tzset()
    monkeypatch.setattr(ChangeHistory, "size_bytes", lambda self: 48_128)
    app = app_factory()
    hour = 3_600_000_000_000
    night = 1_773_532_800_000_000_000  # 2026-03-15 00:00 UTC

    def text(rel: str) -> bytes:
        return (workspace / rel).read_bytes()

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        history = app.engine.history
        cutover, moved = "daily/2026-02-02/cutover.md", "digest/cutover-rehearsal.md"
        history.record(
            [
                Observed(
                    KICKOFF,
                    text(KICKOFF).replace(b"alice, meeting", b"alice_w, meeting"),
                    ("project_atlas", "alice_w", "meeting"),
                    "Project Atlas kickoff",
                )
            ],
            source="merge",
            label="merge alice into alice_w",
            undo="20260314T201500-000",
            time_ns=night - 5 * hour,
        )
        kickoff = text(KICKOFF).replace(
            b"project_atlas, alice, meeting", b"project-atlas, alice_w, meeting"
        )
        kickoff += b"\nThe agent added: budget sign-off moved to March.\n"
        history.record(
            [
                Observed(
                    KICKOFF,
                    kickoff,
                    ("project-atlas", "alice_w", "meeting"),
                    "Project Atlas kickoff",
                ),
                Observed(cutover, None),
                Observed(
                    moved, text(cutover), ("project_atlas", "alice", "ops"), "Cutover rehearsal"
                ),
                Observed(GARDEN, None),
            ],
            time_ns=night + 2 * hour,
        )
        app.action_changes()
        await settle(pilot)
        await wait_for(pilot, lambda: app.screen.loaded)
        screen = app.screen
        screen.query_one(Timeline).move_to(_row_of(screen, KICKOFF))
        await settle(pilot, quiet=0.3)
        await wait_for(pilot, lambda: f"modified {KICKOFF}" in _diff_text(screen))
        await settle(pilot, quiet=0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_a_revisit_with_nothing_new_keeps_the_table_and_a_change_rebuilds_it(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the view again used to rebuild every row even when nothing had changed
    (most of the time a second open took); what changed meanwhile must still show."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        assert len(_rows(screen)) == 3
        table = screen.query_one(Timeline)
        clears: list[int] = []
        show = table.show
        monkeypatch.setattr(table, "show", lambda *a, **k: (clears.append(1), show(*a, **k))[1])
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.loaded)
        assert clears == [] and len(_rows(screen)) == 3
        await pilot.press("escape")
        await settle(pilot)
        (workspace / "digest/new.md").write_text("---\nname: New\n---\nfresh\n")
        await app.apply_changes(["digest/new.md"])
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: screen.loaded)
        await settle(pilot)
        assert clears and len(_rows(screen)) == 4


async def test_tag_churn_with_a_filter_counts_the_matching_entries(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        await pilot.press("slash", *"tag:project-atlas", "enter")
        await settle(pilot)
        await wait_for(pilot, lambda: len(screen.loaded_entries) == 1)
        await pilot.press("T")
        await settle(pilot)
        churn = _diff_text(screen)
        assert "No tag was added or removed" not in churn
        assert "project-atlas" in churn and "project_atlas" in churn


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_the_revert_dialog_shows_its_first_line_whole(
    app_factory: AppFactory, workspace: Path, size: tuple[int, int]
) -> None:
    """Issue 22: the dialog's first line ran past its border ('…(refused for any file
    cha│'); it wraps inside the dialog instead, every word of it painted."""
    from textual.geometry import Region

    app = app_factory()
    async with app.run_test(size=size) as pilot:
        screen = await _open_after_agent_edits(app, pilot, workspace)
        screen.query_one(Timeline).move_to(_row_of(screen, GARDEN))
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RevertConfirmScreen)
        title = dialog.query_one("#revert-title", Label)
        body = dialog.query_one("#revert-body")
        assert body.content_region.contains_region(title.region)
        painted = title.render_lines(Region(0, 0, *title.region.size))
        words = " ".join(strip.text for strip in painted).split()
        assert words == str(title.render()).split()
        assert words[-3:] == ["file", "changed", "since)"]
