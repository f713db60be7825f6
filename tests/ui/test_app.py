"""Pilot tests: drive the app with keys and the mouse, assert on widget state."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input, ProgressBar, Sparkline

from reme_tui.config import Settings, load_settings
from reme_tui.engine.codes import Code
from reme_tui.ui.screens.diagnostics import DiagnosticsScreen
from reme_tui.ui.screens.help import HelpScreen
from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.widgets.chips import Chip
from reme_tui.ui.widgets.markdown_body import MarkdownBody
from reme_tui.ui.widgets.neighbours import NeighboursList
from reme_tui.ui.widgets.preview import Preview, plain_body
from reme_tui.ui.widgets.results import ResultList, ResultsPane
from reme_tui.ui.widgets.search_bar import QueryInput, SearchBar
from reme_tui.ui.widgets.status_bar import StatusBar
from reme_tui.ui.widgets.tag_chips import TagChips
from reme_tui.ui.widgets.tag_sidebar import TagFilter, TagList, TagSidebar

from .conftest import SIZE, AppFactory, settle, wait_for

pytestmark = pytest.mark.anyio


def rows_of(screen: MainScreen) -> list[str]:
    return [row.path for row in screen.query_one(ResultsPane).rows]


def label_text(screen: MainScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def type_query(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*text)
    await settle(pilot)


# -- start-up and index ------------------------------------------------------------


async def test_first_paint_does_not_wait_for_the_index(app_factory: AppFactory) -> None:
    app = app_factory(build=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        status = screen.query_one(StatusBar)
        assert status.query_one(ProgressBar).display
        assert label_text(screen, "#status-index") == "scanning…"
        assert screen.query_one("#results-empty").display
        app.build_index()
        await settle(pilot)
        assert not status.query_one(ProgressBar).display
        assert label_text(screen, "#status-index") == "index ready"
        assert label_text(screen, "#status-count") == "8 memories"
        assert label_text(screen, "#status-updated") == "updated 09:30:00"
        assert label_text(screen, "#status-diagnostics") == "⚠ 2 diagnostics"
        assert label_text(screen, "#status-workspace") == "ws"


async def test_empty_query_lists_memories_newest_first(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rows = rows_of(app.main_screen)
        assert rows[0] == "daily/2026-03-10/cjk.md"
        assert rows[-2:] == ["digest/atlas.md", "digest/broken.md"]  # undated last
        assert isinstance(app.focused, QueryInput)


# -- tag sidebar ---------------------------------------------------------------------


async def test_tag_sidebar_counts_sort_and_filter(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sidebar = app.main_screen.query_one(TagSidebar)
        tag_list = sidebar.query_one(TagList)
        assert label_text(app.main_screen, "#tag-count") == "8 tags"
        assert [t for t, _ in sidebar.visible_tags()][:2] == ["project_atlas", "meeting"]
        assert tag_list.tag_at(0) == "project_atlas"
        tag_list.focus()
        await pilot.press("s")
        assert label_text(app.main_screen, "#tag-sort") == "by name"
        assert tag_list.tag_at(0) == "alice"
        # type-to-filter: printable keys on the list go to the filter box
        await pilot.press("g", "a", "r")
        assert isinstance(app.focused, TagFilter)
        assert sidebar.query_one(TagFilter).value == "gar"
        assert tag_list.row_count == 1
        assert label_text(app.main_screen, "#tag-count") == "1/8 tags"
        await pilot.press("enter")
        await settle(pilot)
        assert app.main_screen.query_one(SearchBar).state.filters.tags == ("garden",)
        assert rows_of(app.main_screen) == ["daily/2026-02-20.md"]


async def test_tag_list_enter_adds_chip_and_minus_excludes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.query_one(TagList).focus()
        await pilot.press("enter")  # project_atlas
        await settle(pilot)
        await pilot.press("j", "j", "minus")  # alice -> excluded
        await settle(pilot)
        state = screen.query_one(SearchBar).state
        assert state.filters.tags == ("project_atlas",) and state.filters.exclude_tags == ("alice",)
        assert set(rows_of(screen)) == {
            "daily/2026-01-19/schema.md",
            "daily/2026-03-03/retro.md",
            "digest/atlas.md",
        }
        chips = list(screen.query(Chip))
        assert [(c.tag, c.excluded) for c in chips] == [("project_atlas", False), ("alice", True)]
        assert chips[1].has_class("-excluded")


async def test_tag_sidebar_stays_fast_with_thousands_of_tags(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sidebar = app.main_screen.query_one(TagSidebar)
        built_before = sidebar.query_one(TagList).rows_built
        sidebar.set_tags([(f"tag_{i:05d}", 5000 - i) for i in range(5000)])
        await pilot.pause()
        assert sidebar.query_one(TagList).row_count == 5000
        assert label_text(app.main_screen, "#tag-count") == "5000 tags"
        tag_list = sidebar.query_one(TagList)
        assert tag_list.rows_built - built_before <= tag_list.size.height  # rows on screen
        sidebar.query_one(TagFilter).value = "tag_0499"
        await pilot.pause()
        assert tag_list.row_count == 10


async def test_tag_counts_stay_whole_and_right_aligned_beside_long_tags(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sidebar = app.main_screen.query_one(TagSidebar)
        long_tag = "a_very_long_tag_name_that_cannot_fit_in_the_sidebar_at_all"
        sidebar.set_tags([(long_tag, 12345), ("short", 7)])
        await pilot.pause()
        tag_list = sidebar.query_one(TagList)
        lines = [tag_list.render_line(y).text for y in range(2)]
        assert lines[0].rstrip().endswith("…  12345") or lines[0].rstrip().endswith("… 12345")
        assert lines[1].rstrip().endswith(" 7")
        assert len(lines[0].rstrip()) == len(lines[1].rstrip())  # counts end in one column


async def test_tag_sidebar_shows_what_draws_nothing(app_factory: AppFactory) -> None:
    # Issue 26: a tag with a zero-width space looked exactly like its twin in the sidebar.
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sidebar = app.main_screen.query_one(TagSidebar)
        sidebar.set_tags([("alice", 2), ("ali\u200bce", 1), ("ali\u202ece", 1)])
        await pilot.pause()
        tag_list = sidebar.query_one(TagList)
        lines = [tag_list.render_line(y).text.split()[0] for y in range(3)]
        assert lines == ["alice", "ali\\u200bce", "ali\\u202ece"]


# -- search bar ----------------------------------------------------------------------


async def test_typing_searches_and_highlights_terms(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "postgres")
        screen = app.main_screen
        pane = screen.query_one(ResultsPane)
        assert rows_of(screen)[:2] == ["daily/2026-01-05/kickoff.md", "daily/2026-01-19/schema.md"]
        assert pane.terms == ["postgres"]
        assert pane.border_title == f"{len(pane.rows)} results"
        prompt = screen.query_one(ResultList).prompt(0)
        matched = [
            prompt.plain[s.start : s.end] for s in prompt.spans if "$warning" in str(s.style)
        ]
        assert matched and all(m.lower() == "postgres" for m in matched)
        assert screen.query_one(SearchBar).query_one("#search-mode").render().plain == "BM25"


async def test_query_tokens_become_chips_and_dates(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tag:alice -tag:ops since:2026-1-1 until:2026-3-31 migration")
        bar = app.main_screen.query_one(SearchBar)
        assert bar.state.filters.tags == ("alice",)
        assert bar.state.filters.exclude_tags == ("ops",)
        assert bar.state.filters.since == "2026-01-01" and bar.state.filters.until == "2026-03-31"
        assert bar.state.text == "migration"
        assert bar.query_one(QueryInput).value == "migration"
        assert bar.query_one("#since", Input).value == "2026-01-01"
        assert rows_of(app.main_screen) == ["daily/2026-01-05/kickoff.md"]


async def test_backspace_and_click_remove_chips(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tag:alice tag:bob ")
        bar = app.main_screen.query_one(SearchBar)
        assert bar.state.filters.tags == ("alice", "bob")
        await pilot.press("backspace")  # empty query: removes the last chip
        await settle(pilot)
        assert bar.state.filters.tags == ("alice",)
        await pilot.click(Chip)
        await settle(pilot)
        assert bar.state.filters.tags == ()
        assert not bar.query_one("#chips").display
        assert len(rows_of(app.main_screen)) == 8


async def test_any_all_switch(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tag:alice tag:meeting ")
        screen = app.main_screen
        assert len(rows_of(screen)) == 4  # ANY
        await pilot.click("#any-all")
        await settle(pilot)
        assert screen.query_one(SearchBar).state.filters.all_tags
        assert rows_of(screen) == ["daily/2026-01-05/kickoff.md"]
        assert str(screen.query_one("#any-all").label) == "ALL"


async def test_date_fields_validate_as_you_type_and_strict_switch(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        since = screen.query_one("#since", Input)
        await pilot.click("#since")
        await pilot.press(*"2026-13")
        await settle(pilot)
        assert since.has_class("-invalid")
        assert "expected a date" in label_text(screen, "#search-message")
        assert screen.query_one(SearchBar).state.filters.since is None
        await pilot.press("backspace", "backspace", *"3-1")
        await settle(pilot)
        assert not since.has_class("-invalid")
        assert screen.query_one(SearchBar).state.filters.since == "2026-03-01"
        rows = rows_of(screen)
        assert "digest/atlas.md" in rows  # undated passes unless strict
        assert "daily/2026-02-20.md" not in rows
        await pilot.press("enter")
        assert since.value == "2026-03-01"  # normalised
        await pilot.click("#strict")
        await settle(pilot)
        assert rows_of(screen) == ["daily/2026-03-10/cjk.md", "daily/2026-03-03/retro.md"]


async def test_search_error_is_shown_not_raised(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "a")  # a lone letter yields no tokens
        screen = app.main_screen
        assert rows_of(screen) == []
        assert screen.query_one("#results-empty").display


# -- results, preview, links, history ------------------------------------------


async def test_results_keys_move_and_enter_opens_preview(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "postgres")
        screen = app.main_screen
        preview = screen.query_one(Preview)
        assert preview.path == "daily/2026-01-05/kickoff.md"  # first result previews
        await pilot.press("escape")
        assert isinstance(app.focused, ResultList)
        await pilot.press("j")
        await settle(pilot)
        assert preview.path == "daily/2026-01-19/schema.md"
        await pilot.press("k", "j", "enter")
        await settle(pilot)
        assert isinstance(app.focused, MarkdownBody)
        assert label_text(screen, "#preview-name") == "Atlas schema review"
        assert label_text(screen, "#preview-description") == "Reviewed the new billing schema"
        assert list(screen.query_one(TagChips).tags) == ["project_atlas", "bob"]
        assert "score" in label_text(screen, "#preview-meta")


async def test_preview_marks_the_matched_lines(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "archive")
        screen = app.main_screen
        assert screen.query_one(Preview).path == "daily/2026-03-03/retro.md"
        body = screen.query_one(MarkdownBody)
        assert body.matched == set(range(len(body.blocks)))  # the retro is one chunk
        assert "[[" not in body.source


async def test_cursor_preview_paints_plain_text_first_then_markdown(
    app_factory: AppFactory,
) -> None:
    """Moving the cursor shows the body as plain text at once (the Markdown render waits
    for the cursor to settle), and the Markdown then replaces it."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "postgres")
        screen = app.main_screen
        preview = screen.query_one(Preview)
        markdown = preview.query_one(MarkdownBody)
        data = screen._read_plain("daily/2026-01-19/schema.md", None, None, None)
        assert data.markdown.startswith("# ") or data.markdown.strip()
        assert "memory_tags" not in data.markdown  # the body only: the header shows the rest
        await preview.show_plain(data)
        await pilot.pause()
        assert preview.path == "daily/2026-01-19/schema.md"
        assert label_text(screen, "#preview-name") == "Atlas schema review"
        assert markdown.plain is not None  # the same widget shows the plain text
        first = next(line for line in data.markdown.splitlines() if line.strip())
        shown = ["".join(s.text for s in markdown.render_line(y)) for y in range(3)]
        assert first in [line.rstrip() for line in shown]
        await pilot.press("escape", "j")
        await settle(pilot)
        assert preview.path == "daily/2026-01-19/schema.md"
        assert markdown.plain is None
        assert "[[" not in markdown.source


def test_plain_body_is_the_body_lines_capped() -> None:
    memory = SimpleNamespace(body_start_line=3)
    text = "---\nname: x\n" + "\n".join(f"line {i}" for i in range(500))
    assert plain_body(text, memory, max_lines=2) == "line 0\nline 1"
    assert plain_body("---\nname: x\nonly", memory) == "only"


async def test_neighbours_enter_opens_and_history_goes_back(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "rehearsal")
        screen = app.main_screen
        preview = screen.query_one(Preview)
        assert preview.path == "daily/2026-02-02/cutover.md"
        links = screen.query_one(NeighboursList)
        assert links.counts == (1, 0, 1)  # schema.md out, nothing in, one dangling
        ids = [links.get_option_at_index(i).id for i in range(links.option_count)]
        assert "out:daily/2026-01-19/schema.md" in ids and "dangling:notes/missing.md" in ids
        links.focus()
        await pilot.press("down", "enter")
        await settle(pilot)
        assert preview.path == "daily/2026-01-19/schema.md"
        assert links.counts == (1, 1, 0)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert preview.path == "daily/2026-02-02/cutover.md"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert preview.path == "daily/2026-01-19/schema.md"


async def test_wikilinks_in_the_preview_are_followable(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "running summary")
        screen = app.main_screen
        body = screen.query_one(MarkdownBody)
        assert "(<wiki:digest/atlas.md>)" in body.source
        body.post_message(MarkdownBody.LinkClicked("wiki:digest/atlas.md"))
        await settle(pilot)
        assert screen.query_one(Preview).path == "digest/atlas.md"


async def test_clicking_a_preview_tag_filters_by_it(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tomatoes")
        await pilot.click(TagChips, offset=(2, 0))  # inside the first chip
        await settle(pilot)
        assert app.main_screen.query_one(SearchBar).state.filters.tags == ("garden",)


async def test_preview_tags_show_what_draws_nothing(
    app_factory: AppFactory, workspace: Path
) -> None:
    # Issue 26: a zero-width space made '#ali​ce' look exactly like '#alice'.
    (workspace / "digest" / "twin.md").write_text(
        '---\nname: Twin\nmemory_tags: [alice, "ali\\u200bce"]\n---\nzucchini twin\n',
        "utf-8",
    )
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "zucchini")
        await settle(pilot)
        chips = app.main_screen.query_one(TagChips)
        assert str(chips.render()) == " #alice   #ali\\u200bce "
        assert chips.tags == ("alice", "ali\u200bce")  # what it filters by


async def test_matches_over_time_chart(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "migration")
        screen = app.main_screen
        data = list(screen.query_one(Sparkline).data or [])
        assert sum(data) == 3  # three dated matches, the digest is undated
        assert label_text(screen, "#chart-first") == "2026-01-05"
        assert "+1 undated" in label_text(screen, "#chart-last")


# -- status bar, diagnostics, help, palette --------------------------------------


async def test_diagnostics_count_opens_the_list_and_enter_opens_a_file(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.click("#status-diagnostics")
        await pilot.pause()
        assert isinstance(app.screen, DiagnosticsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        await pilot.press("j")
        await pilot.pause()
        chosen = Code(app.screen.diagnostics[1].code)
        assert label_text(app.screen, "#diagnostics-explanation") == (
            f"{chosen}: {chosen.explanation}"
        )
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.main_screen.query_one(Preview).path == "digest/broken.md"


async def test_help_screen_lists_keys(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {row.binding_id for _, rows in app.screen.sections for row in rows}
        assert {"focus_search", "back", "forward", "edit", "copy_path", "edit_tags"} <= ids
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_command_palette_lists_every_action_and_switches_theme(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [title for title, _, _ in app.palette_commands()]
        for binding in MainScreen.BINDINGS:
            if binding.id != "leave_input":  # type: ignore[union-attr]
                assert binding.description in titles  # type: ignore[union-attr]
        assert "Theme: reme-paper" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"reme-paper")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.theme == "reme-paper"


async def test_keymap_from_config_remaps_bindings(app_factory: AppFactory, tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('[keymap]\nfocus_search = "ctrl+f"\ncopy_path = "c"\n', encoding="utf-8")
    app = app_factory(config=load_settings(path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.query_one(ResultList).focus()
        await pilot.press("ctrl+f")
        assert isinstance(app.focused, QueryInput)
        await pilot.press("escape", "c")
        assert app.clipboard == "daily/2026-03-10/cjk.md"
        rows = [row for _, section in app.key_table() for row in section]
        assert ("ctrl+f", "Search", "focus_search") in [
            (r.keys, r.description, r.binding_id) for r in rows
        ]


async def test_copy_path_and_hooks_for_tags_and_dupes(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    calls: list[tuple[str, str | None]] = []
    monkeypatch.setattr(app, "open_tag_editor", lambda path: calls.append(("tags", path)))
    monkeypatch.setattr(app, "open_tag_dupes", lambda: calls.append(("dupes", None)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "y")
        assert app.clipboard == "daily/2026-03-10/cjk.md"
        await pilot.press("t", "d")
        await pilot.pause()
        assert calls == [("tags", "daily/2026-03-10/cjk.md"), ("dupes", None)]


async def test_editor_runs_and_the_memory_is_reread(
    app_factory: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "fake_editor.py"
    script.write_text(
        "import sys\nopen(sys.argv[-1], 'a', encoding='utf-8').write('\\nEdited zucchini.\\n')\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tomatoes")
        await pilot.press("escape", "e")
        await settle(pilot)
        assert "zucchini" in app.main_screen.query_one(MarkdownBody).source
        await pilot.press("slash", "ctrl+a")
        assert app.focused is not None


# -- live updates, themes, small terminals ---------------------------------------


async def test_live_update_keeps_selection_and_refreshes(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "postgres")
        screen = app.main_screen
        await pilot.press("escape", "j")
        await settle(pilot)
        assert screen.query_one(ResultsPane).selected.path == "daily/2026-01-19/schema.md"
        new = workspace / "daily" / "2026-03-12" / "new.md"
        new.parent.mkdir(parents=True)
        new.write_text(
            "---\nname: New\ndescription: d\nmemory_tags: [fresh]\n---\nPostgres again.\n",
            encoding="utf-8",
        )
        schema = workspace / "daily" / "2026-01-19" / "schema.md"
        schema.write_text(schema.read_text(encoding="utf-8") + "\nMore postgres.\n", "utf-8")
        await app.apply_changes([str(new), str(schema)])
        await settle(pilot)
        assert screen.query_one(ResultsPane).selected.path == "daily/2026-01-19/schema.md"
        assert "daily/2026-03-12/new.md" in rows_of(screen)
        assert label_text(screen, "#status-count") == "9 memories"
        assert "fresh" in [t for t, _ in screen.query_one(TagSidebar).tags]
        assert "More postgres" in screen.query_one(MarkdownBody).source
        messages = [n.message for n in app._notifications]
        assert any("added daily/2026-03-12/new.md" in m for m in messages)


async def test_deleted_selected_memory_is_said_so(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_query(pilot, "tomatoes")
        screen = app.main_screen
        assert screen.query_one(Preview).path == "daily/2026-02-20.md"
        (workspace / "daily" / "2026-02-20.md").unlink()
        await app.apply_changes([str(workspace / "daily" / "2026-02-20.md")])
        await settle(pilot)
        assert "was deleted" in label_text(screen, "#preview-name")
        assert rows_of(screen) == []


async def test_watcher_worker_applies_file_changes(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory(watch=True)
    async with app.run_test(size=SIZE) as pilot:
        sidebar = app.main_screen.query_one(TagSidebar)
        await wait_for(pilot, lambda: bool(sidebar.tags))
        assert any(w.name == "watcher" for w in app.workers)
        await pilot.pause(0.3)  # let the watcher arm
        path = workspace / "digest" / "late.md"
        path.write_text("---\nname: Late\nmemory_tags: [late]\n---\nLate news.\n", "utf-8")
        await wait_for(pilot, lambda: "late" in [t for t, _ in sidebar.tags], 10)
        assert app.engine.memory("digest/late.md") is not None
        app.watch_stop.set()


async def test_theme_option_unknown_theme_and_broken_theme_file(
    app_factory: AppFactory, tmp_path: Path
) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "broken.toml").write_text('name = "broken"\nprimary = "nope"\n', "utf-8")
    app = app_factory(theme="reme-forest", theme_dirs=(themes,))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "reme-forest"
        assert "broken" not in app.available_themes
        messages = [n.message for n in app._notifications]
        assert any("broken.toml" in m for m in messages)
    app = app_factory(theme="no-such-theme")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.theme == "reme-dusk"


async def test_chosen_theme_persists(app_factory: AppFactory, tmp_path: Path) -> None:
    path = tmp_path / "persist.toml"
    app = app_factory(config=Settings(config_path=path), persist_theme=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "reme-paper"
        await settle(pilot)
    assert load_settings(path).theme == "reme-paper"


async def test_80x24_collapses_the_sidebar(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main_screen
        assert screen.has_class("-narrow") and screen.has_class("-short")
        assert not screen.query_one(TagSidebar).display
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert screen.query_one(TagSidebar).display
        await type_query(pilot, "postgres")
        assert rows_of(screen)


async def test_tab_moves_between_panes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = []
        for _ in range(12):
            await pilot.press("tab")
            seen.append(type(app.focused).__name__)
        assert {"TagList", "ResultList", "MarkdownBody", "NeighboursList", "QueryInput"} <= set(
            seen
        )
        await pilot.press("shift+tab")
        assert app.focused is not None


async def test_mouse_scroll_and_click_on_results(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        result_list = app.main_screen.query_one(ResultList)
        await pilot.click(ResultList, offset=(5, 2))
        await settle(pilot)
        assert result_list.highlighted == 1
        assert app.main_screen.query_one(Preview).path == rows_of(app.main_screen)[1]


async def test_a_failing_worker_is_shown_and_the_app_keeps_running(
    app_factory: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def broken(*_args: object) -> None:
            raise RuntimeError("search exploded")

        monkeypatch.setattr(app.main_screen, "compute", broken)
        await pilot.press(*"budget")  # not type_query(): its settle() re-raises the failure

        def shown() -> bool:
            return any("RuntimeError: search exploded" in n.message for n in app._notifications)

        await wait_for(pilot, shown, timeout=60)
        assert app.is_running and isinstance(app.screen, MainScreen)


async def test_an_edit_made_with_e_is_recorded_as_the_persons_not_an_agents(
    app_factory: AppFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: the Changes view labelled an edit made through the app's own `e` "agent":
    the watcher's batch, not the app, recorded it. The app applies it as soon as the editor
    returns, so the watcher later finds nothing new."""
    garden = "daily/2026-02-20.md"

    def editor(command: list[str], **_: object) -> None:
        with open(command[-1], "a", encoding="utf-8") as file:
            file.write("\nWatered the basil.\n")

    monkeypatch.setenv("EDITOR", "nano")
    monkeypatch.setattr("subprocess.run", editor)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.engine.history is not None
        before = len(app.engine.history.entries())
        app.open_in_editor(garden)
        await settle(pilot)
        entries = app.engine.history.entries()
        assert len(entries) == before + 1
        assert (entries[0].source, entries[0].path) == ("editor", garden)
        assert "nano" in entries[0].label
        app.engine.apply([str(workspace / garden)])  # the watcher's batch for the same write
        assert len(app.engine.history.entries()) == before + 1
