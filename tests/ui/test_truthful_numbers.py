"""Every number on screen tells the truth: counts of all matches, the chart over all of
them, a list that pages further, a status bar that never claims ready while indexing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Label, Sparkline

from reme_tui.config import SearchSettings, Settings
from reme_tui.ui.widgets.results import ResultList, ResultsPane

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


def many_memories(root: Path, count: int) -> Path:
    for i in range(count):
        day = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}"
        path = root / "daily" / day / f"note-{i:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        words = "budget review" if i % 3 else "garden hose"
        path.write_text(
            f"---\nname: Note {i}\nmemory_tags: [t{i % 4}]\n---\n# Note {i}\n\nThe {words}.\n",
            encoding="utf-8",
        )
    return root


@pytest.fixture
def big(tmp_path: Path) -> Path:
    return many_memories(tmp_path / "big", 90)


def shown_parts(status: Any) -> list[Any]:
    return [label for label in status.query(Label) if label.display and label.parent is status]


def small_pages() -> Settings:
    return replace(Settings(), search=SearchSettings(limit=5, browse_limit=10))


async def test_counts_say_how_many_match_and_the_list_pages_further(
    app_factory: AppFactory, big: Path
) -> None:
    from reme_tui.ui.app import make_app
    from reme_tui.ui.options import AppOptions

    app = make_app(big, small_pages(), AppOptions(watch=False, persist_theme=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(ResultsPane)
        assert pane.border_title == "10 of 90 memories, newest first"
        assert sum(app.screen.query_one(Sparkline).data or []) == 90
        await pilot.press(*"budget")
        await settle(pilot)
        assert pane.border_title == "5 of 60 results"
        assert sum(app.screen.query_one(Sparkline).data or []) == 60  # all, not the rows
        app.screen.query_one(ResultList).focus()
        await pilot.press("end")
        await settle(pilot)
        assert len(pane.rows) == 10
        assert pane.border_title == "10 of 60 results"
        assert pane.query_one(ResultList).highlighted == 4  # the cursor stayed put


async def test_status_bar_claims_nothing_while_indexing(app_factory: AppFactory) -> None:
    app = app_factory(build=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#status")
        status.set_semantic("vectors ✓")
        status.set_progress(2, 8)
        await pilot.pause()
        texts = " ".join(str(label.render()) for label in shown_parts(status))
        assert "indexing 2/8" in texts
        assert "✓" not in texts and "ready" not in texts
        app.build_index()
        await settle(pilot)
        texts = " ".join(str(label.render()) for label in shown_parts(status))
        assert "index ready" in texts and "vectors ✓" in texts


@pytest.mark.parametrize("width", [80, 100, 160])
async def test_status_bar_is_never_cut(app_factory: AppFactory, width: int) -> None:
    app = app_factory()
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#status")
        status.set_semantic("embedding 45%")
        status.set_updating(3000)
        await pilot.pause()
        shown = shown_parts(status)
        for label in shown:  # no part is clipped: each is as wide as its text
            assert label.size.width >= len(str(label.render())), str(label.render())
        right = max(label.region.right for label in shown)
        assert right <= status.region.right
        texts = " ".join(str(label.render()) for label in shown)
        assert ("updating" in texts and "memories" in texts) or "mem" in texts


async def test_a_batch_of_changes_shows_updating_until_applied(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        gate = threading.Event()
        real_apply = app.engine.apply

        def slow_apply(changes: Any, **kwargs: Any) -> Any:
            gate.wait(10)
            return real_apply(changes, **kwargs)

        monkeypatch.setattr(app.engine, "apply", slow_apply)
        (workspace / "daily" / "2026-01-05" / "kickoff.md").write_text(
            "---\nname: K\n---\nchanged\n", encoding="utf-8"
        )
        app.run_worker(app.apply_changes(["daily/2026-01-05/kickoff.md"]), group="apply")
        status = app.screen.query_one("#status")
        await wait_for(
            pilot, lambda: "updating" in " ".join(str(x.render()) for x in shown_parts(status))
        )
        texts = " ".join(str(label.render()) for label in shown_parts(status))
        assert "updating…" in texts and "ready" not in texts and "✓" not in texts
        await pilot.press("slash", "x")  # keys still work while the batch is applied
        assert app.screen.query_one("#query").value.endswith("x")
        gate.set()
        await settle(pilot)
        texts = " ".join(str(label.render()) for label in shown_parts(status))
        assert "index ready" in texts


async def test_no_results_clears_the_preview(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"postgres")
        await settle(pilot)
        preview = app.screen.query_one("#preview")
        assert preview.path is not None
        await pilot.press(*"zzzqqq")
        await settle(pilot)
        assert preview.path is None
        assert app.screen.query_one("#preview-body").source == ""
        assert "no memory matches" in str(app.screen.query_one("#preview-name").render())


async def test_after_a_live_change_the_preview_score_is_the_lists(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"postgres")
        await settle(pilot)
        pane = app.screen.query_one(ResultsPane)
        first = pane.rows[0]
        meta = app.screen.query_one("#preview-meta")
        assert f"score {first.score:.3f}" in str(meta.render())
        extra = workspace / "daily" / "2026-03-13" / "more.md"
        extra.parent.mkdir(parents=True)
        extra.write_text("---\nname: More\n---\nPostgres postgres postgres.\n", encoding="utf-8")
        await app.apply_changes(["daily/2026-03-13/more.md"])
        await settle(pilot)
        row = next(r for r in pane.rows if r.path == first.path)
        assert row.score != first.score  # the new document moved the BM25 statistics
        assert f"score {row.score:.3f}" in str(meta.render())


async def test_selection_follows_a_rename_and_keeps_the_neighbour_on_delete(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.screen.query_one(ResultsPane)
        app.screen.query_one(ResultList).focus()
        await pilot.press("down", "down")
        await settle(pilot)
        selected = pane.selected.path
        old = workspace / selected
        new_rel = selected.replace(".md", "-renamed.md")
        old.rename(workspace / new_rel)
        await app.apply_changes([selected, new_rel])
        await settle(pilot)
        assert pane.selected.path == new_rel
        assert app.screen.query_one("#preview").path == new_rel
        index = pane.query_one(ResultList).highlighted
        below = pane.rows[index + 1].path
        (workspace / new_rel).unlink()
        await app.apply_changes([new_rel])
        await settle(pilot)
        assert pane.query_one(ResultList).highlighted == index  # the neighbour, not row 0
        assert pane.selected.path == below


async def test_changes_to_review_keep_their_words_at_160_columns(app_factory: AppFactory) -> None:
    """Issue 22: at 160 columns with sample_workspace's checks the bar showed `drops 11  Δ 13`:
    the long list of what ReMe drops gives way first, to its total, before `to review` goes."""
    app = app_factory()
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#status")
        status.set_diagnostics(14)
        counts = {"voided": 3, "scalar tags": 1, "bad tags": 2, "4th+ tags": 1, "dangling": 4}
        status.set_compat(counts, " · ".join(f"{n} {kind}" for kind, n in counts.items()))
        status.set_changes(13, "1.2 MB")
        status.set_untagged(2)
        await pilot.pause()
        texts = "  ".join(str(label.render()) for label in shown_parts(status))
        assert "Δ 13 to review" in texts and "ReMe drops 11" in texts, texts
        assert "2 untagged" in texts, texts


async def test_typing_while_the_index_builds_says_it_is_building(
    app_factory: AppFactory,
) -> None:
    """Issue 22: typing before the index was ready showed `no dated matches`."""
    app = app_factory(build=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"budget")
        await settle(pilot)
        chart = app.screen.query_one("#chart-first", Label)
        assert str(chart.render()) == "index building…"
        app.build_index()
        await settle(pilot)
        assert str(chart.render()) != "index building…"


async def test_only_undated_matches_make_one_sentence(
    app_factory: AppFactory, workspace: Path
) -> None:
    """Issue 22: the chart read `no dated matches+1 undated` (two labels run together)."""
    (workspace / "digest" / "lone.md").write_text("---\nname: Lone\n---\nzyzzyva\n")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"zyzzyva")
        await settle(pilot)
        first = str(app.screen.query_one("#chart-first", Label).render())
        last = str(app.screen.query_one("#chart-last", Label).render())
        assert (first, last) == ("no dated matches · 1 undated", "")
