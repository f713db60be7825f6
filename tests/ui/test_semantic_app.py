"""Semantic search in the app, with the tiny offline model: mode label, explain, similar."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from msgspec import structs

from reme_tui.config import Settings
from reme_tui.ui.widgets.neighbours import NeighboursList
from reme_tui.ui.widgets.preview import Preview
from tests.engine.tiny_model import build_tiny_model
from tests.helpers import memory, write_workspace

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Overrides the shared fixture: notes written in the tiny model's vocabulary."""
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01/kitten.md": memory("my kitten has soft fur\n", name="Kitten"),
            "daily/2026-03-02/puppy.md": memory("the puppy is a good pet dog\n", name="Puppy"),
            "daily/2026-03-03/python.md": memory(
                "fixed a python bug, see [[daily/2026-03-01/kitten.md]]\n", name="Bug"
            ),
            "digest/weather.md": memory("storm and rain in the forecast\n", name="Weather"),
        },
    )


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


def text_of(app, selector: str) -> str:  # type: ignore[no-untyped-def]
    return str(app.main_screen.query_one(selector).render())


async def test_hybrid_mode_explain_and_similar(
    app_factory: AppFactory, settings: Settings, model_dir: Path
) -> None:
    app = app_factory(model=str(model_dir))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.engine.semantic_status().state == "ready")
        await settle(pilot)
        assert text_of(app, "#search-mode") == "hybrid"
        assert text_of(app, "#status-semantic") == "vectors ✓"
        await pilot.press(*"puppy")
        await settle(pilot)
        screen = app.main_screen
        # The preview follows typing after a short pause (a timer, not a worker).
        await wait_for(pilot, lambda: screen.query_one(Preview).path == "daily/2026-03-02/puppy.md")
        row = screen.selected_row()
        assert (row.keyword_rank, row.vector_rank) == (1, 1)
        await pilot.press("enter")
        await settle(pilot)
        meta = text_of(app, "#preview-meta")
        assert "score 0.016" in meta and "keyword #1" in meta and "vector #1" in meta
        links = screen.query_one(NeighboursList)

        def ids() -> list[str | None]:
            return [links.get_option_at_index(i).id for i in range(links.option_count)]

        await wait_for(pilot, lambda: "similar:daily/2026-03-01/kitten.md" in ids())
        assert "≈" in str(links.border_title)


async def test_similar_skips_linked_and_opens(
    app_factory: AppFactory, settings: Settings, model_dir: Path
) -> None:
    app = app_factory(model=str(model_dir))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.engine.semantic_status().state == "ready")
        app.main_screen.open_memory("daily/2026-03-03/python.md")
        await settle(pilot)
        links = app.main_screen.query_one(NeighboursList)

        def current_ids() -> list[str | None]:
            return [links.get_option_at_index(i).id for i in range(links.option_count)]

        await wait_for(pilot, lambda: any((i or "").startswith("similar:") for i in current_ids()))
        ids = current_ids()
        assert "out:daily/2026-03-01/kitten.md" in ids
        assert "similar:daily/2026-03-01/kitten.md" not in ids  # already linked
        similar = [i for i in ids if i and i.startswith("similar:")]
        assert similar
        links.focus()
        links.highlighted = ids.index(similar[0])
        await pilot.press("enter")
        await settle(pilot)
        assert app.main_screen.query_one(Preview).path == similar[0].removeprefix("similar:")


async def test_missing_model_is_visible(
    app_factory: AppFactory, settings: Settings, tmp_path: Path
) -> None:
    missing = structs.replace(settings.index, model=str(tmp_path / "no-model"))
    app = app_factory(config=replace(settings, index=missing))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: app.engine.semantic_status().state == "failed")
        await settle(pilot)
        messages = [n.message for n in app._notifications]  # test-only peek
        assert any("does not exist" in m and "BM25 only" in m for m in messages)
        assert text_of(app, "#search-mode") == "BM25 only"
        assert text_of(app, "#status-semantic") == "⚠ no model"
        await pilot.press(*"kitten")
        await settle(pilot)
        assert app.main_screen.query_one(Preview).path == "daily/2026-03-01/kitten.md"
        assert text_of(app, "#search-mode") == "BM25 only"


async def test_no_model_shows_bm25(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"kitten")
        await settle(pilot)
        assert text_of(app, "#search-mode") == "BM25"
        assert not app.main_screen.query_one("#status-semantic").display
