"""A burst of creates, renames and deletes under the running app (its real watcher on):
once it settles, the results and the sidebar's tag counts are a fresh build's (issue 23).

Nothing waits a fixed time: the test polls until the app shows the fresh build's answer,
with a generous deadline that only bounds a failure. The suite runs 300 operations;
``REME_TUI_CHURN_OPS=5000`` runs the issue's size.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from reme_tui.engine import Engine, SearchQuery
from reme_tui.ui.widgets.results import ResultsPane
from reme_tui.ui.widgets.tag_sidebar import TagSidebar
from tests.field.test_follow_churn import churn

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio

OPS = int(os.environ.get("REME_TUI_CHURN_OPS", "300"))
WORD = "churn"
DEADLINE_S = 120.0


def _fresh(root: Path, limit: int) -> tuple[list[tuple[str, int, float]], dict[str, int]]:
    engine = Engine.create(root)
    engine.build(save=False)
    hits = engine.search(SearchQuery(text=WORD, limit=limit, expand_links=False)).hits
    rows = sorted((h.path, h.start_line, h.score) for h in hits)
    return rows, dict(engine.list_tags())


async def test_a_burst_of_changes_leaves_the_app_equal_to_a_fresh_build(
    app_factory: AppFactory, workspace: Path
) -> None:
    rng = random.Random(5)
    for serial in range(20):  # memories the word finds, beside the fixture's own
        path = workspace / "digest" / "burst" / f"seed{serial}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        tag = rng.choice(("alpha", "beta", "gamma"))
        path.write_text(f"---\nname: s{serial}\nmemory_tags: [{tag}]\n---\n{WORD}\n", "utf-8")
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*WORD)
        await settle(pilot)
        pane = app.main_screen.query_one(ResultsPane)
        sidebar = app.main_screen.query_one(TagSidebar)
        assert pane.rows
        churn(workspace, OPS, live_range=(15, 40))
        limit = app.settings.search.limit * app.main_screen.pages
        rows, tags = _fresh(workspace, limit)
        assert len(rows) < limit  # every match is on screen, so the lists compare whole

        def shown() -> tuple[list[tuple[str, int, float]], dict[str, int]]:
            return sorted((r.path, r.start_line, r.score) for r in pane.rows), dict(sidebar.tags)

        await wait_for(pilot, lambda: shown() == (rows, tags), DEADLINE_S)
        app.watch_stop.set()
