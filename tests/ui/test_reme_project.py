"""The app on the ReMe-written sample project (issue 13): sources, transcripts, tag fixes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Collapsible, DataTable, Static

from reme_tui.config import Settings
from reme_tui.ui.app import RemeApp, make_app
from reme_tui.ui.options import AppOptions
from reme_tui.ui.screens.diagnostics import DiagnosticsScreen, FixPreviewScreen
from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.screens.transcript import TranscriptScreen
from reme_tui.ui.widgets.neighbours import NeighboursList

from .conftest import FIXED_NOW, SIZE, settle

pytestmark = pytest.mark.anyio

SAMPLE = Path(__file__).resolve().parents[2] / "sample_reme_project"
TEST_OPTIONS = AppOptions(watch=False, clock=lambda: FIXED_NOW, persist_theme=False)


@pytest.fixture
def reme_root(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "project")
    return tmp_path / "project" / ".reme"


def _app(root: Path, settings: Settings) -> RemeApp:
    return make_app(root, settings, TEST_OPTIONS)


def _option_ids(links: NeighboursList) -> list[str]:
    return [links.get_option_at_index(i).id or "" for i in range(links.option_count)]


async def test_links_panel_lists_sources_and_opens_a_transcript(
    reme_root: Path, settings: Settings
) -> None:
    app = _app(reme_root, settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory("daily/2026-03-10/pilot-notes.md")
        await settle(pilot)
        links = app.main_screen.query_one(NeighboursList)
        ids = _option_ids(links)
        assert "source:conversation:session/dialog/s-20260310-pilot.jsonl" in ids
        assert "source:image:resource/2026-03-10/antenna.jpg" in ids
        missing = links.get_option("source:image:resource/2026-03-10/antenna.jpg")
        assert missing.disabled
        assert not [i for i in ids if i.startswith("dangling:")]
        links.focus()
        links.highlighted = ids.index("source:conversation:session/dialog/s-20260310-pilot.jsonl")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TranscriptScreen)
        speakers = [
            str(s.render()) for s in app.screen.query(".transcript-speaker").results(Static)
        ]
        assert [s.split()[0] for s in speakers] == ["mia", "reme-agent", "mia"]
        assert "2026-03-10T09:00:00.000+08:00" in speakers[0]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_tool_calls_are_folded(reme_root: Path, settings: Settings) -> None:
    app = _app(reme_root, settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_source("session/dialog/s-20260312-bug.jsonl", "conversation")
        await settle(pilot)
        folds = list(app.screen.query(Collapsible))
        assert [f.title for f in folds] == ["tool call: read", "tool result: read"]
        assert all(f.collapsed for f in folds)


async def test_a_broken_transcript_is_a_notice_not_a_crash(
    reme_root: Path, settings: Settings
) -> None:
    (reme_root / "session" / "dialog" / "bad.jsonl").write_bytes(b"\xff not json\n[1, 2]\n")
    app = _app(reme_root, settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_source("session/dialog/bad.jsonl", "conversation")
        await settle(pilot)
        assert isinstance(app.screen, TranscriptScreen)
        assert app.screen.transcript.unreadable_lines == (1, 2)
        await pilot.press("escape")
        app.open_source("session/dialog/s-20260320-demo.jsonl", "conversation")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # missing: notified, nothing pushed


async def test_stale_day_index_links_are_marked(reme_root: Path, settings: Settings) -> None:
    app = _app(reme_root, settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory("daily/2026-03-09.md")
        await settle(pilot)
        links = app.main_screen.query_one(NeighboursList)
        stale = links.get_option("out:daily/2026-03-09/Kickoff with Mia.md")
        fresh = links.get_option("out:daily/2026-03-09/Stack choice.md")
        assert "stale" in str(stale.prompt) and "stale" not in str(fresh.prompt)


async def test_diagnostics_fix_action_shows_the_diff_then_writes(
    reme_root: Path, settings: Settings
) -> None:
    app = _app(reme_root, settings)
    path = reme_root / "daily" / "2026-03-09" / "Stack choice.md"
    before = path.read_text(encoding="utf-8")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.action_diagnostics()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DiagnosticsScreen)
        codes = [d.code for d in screen.diagnostics]
        table = screen.query_one(DataTable)
        table.move_cursor(row=codes.index("source-missing"))
        await pilot.press("f")  # no automatic fix for this one
        await pilot.pause()
        assert app.screen is screen
        table.move_cursor(row=codes.index("tag-comma-joined"))
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, FixPreviewScreen)
        assert "+- gold" in app.screen.diff
        await pilot.press("escape")  # cancel: nothing written
        await pilot.pause()
        assert path.read_text(encoding="utf-8") == before
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert path.read_text(encoding="utf-8") == before.replace(
            "- OpenAI, gold\n", "- OpenAI\n- gold\n"
        )
        assert "tag-comma-joined" not in [d.code for d in screen.diagnostics]
        assert app.engine.tags_of("daily/2026-03-09/Stack choice.md") == (
            "svelte",
            "openai",
            "gold",
        )


async def test_query_grammar_makes_reme_filter_chips(reme_root: Path, settings: Settings) -> None:
    from reme_tui.engine.engine import Engine, EngineConfig
    from reme_tui.engine.reme.layout import RemeLayout
    from reme_tui.ui.widgets.chips import Chip
    from reme_tui.ui.widgets.search_bar import SearchBar

    engine = Engine.create(
        reme_root, EngineConfig(layout=RemeLayout(include_frontmatter_in_metadata=True))
    )
    app = make_app(reme_root, settings, TEST_OPTIONS, engine=engine)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = app.main_screen.query_one(SearchBar)
        bar.focus_query()
        await pilot.press(*"Svelte OpenAI summaries in:daily/ type:decision ")
        await settle(pilot)
        filters = bar.state.filters
        assert filters.path_prefixes == ("daily/",)
        assert [(m.key, m.value) for m in filters.meta] == [("type", "decision")]
        chips = [(c.kind, c.label_text) for c in bar.query(Chip)]
        assert chips == [("prefix", "in:daily/"), ("meta", "type:decision")]
        rows = app.main_screen.query_one("ResultsPane")
        paths = {row.path for row in rows.rows}  # type: ignore[attr-defined]
        assert paths == {"daily/2026-03-09/Stack choice.md", "daily/2026-03-12/Summaries cost.md"}
        [meta_chip] = [c for c in bar.query(Chip) if c.kind == "meta"]
        await pilot.click(meta_chip)
        await settle(pilot)
        assert bar.state.filters.meta == ()
        assert [c.kind for c in bar.query(Chip)] == ["prefix"]


async def test_preview_links_to_sources_are_followable(reme_root: Path, settings: Settings) -> None:
    from reme_tui.ui.widgets.markdown_body import MarkdownBody
    from reme_tui.ui.widgets.preview import Preview

    app = _app(reme_root, settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory("digest/procedure/release-orbit.md")
        await settle(pilot, quiet=0.5)
        body = app.main_screen.query_one(Preview).query_one(MarkdownBody)
        assert "(<wiki:session/dialog/s-20260312-bug.jsonl>)" in body.source  # followable
        assert "~~session/dialog/s-20260320-demo.jsonl~~" in body.source  # missing: struck
        body.post_message(MarkdownBody.LinkClicked("wiki:session/dialog/s-20260312-bug.jsonl"))
        await settle(pilot)
        assert isinstance(app.screen, TranscriptScreen)
