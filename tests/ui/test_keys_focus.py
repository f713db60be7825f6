"""Keys go where the focus says: bursts after `/`, the tag filter, ANY/ALL, remapping."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.widgets import Input

from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.widgets.results import ResultList
from reme_tui.ui.widgets.search_bar import QueryInput, SearchBar
from reme_tui.ui.widgets.tag_sidebar import TagFilter, TagList

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio


def burst(app: Any, text: str) -> None:
    """Queue every key at once, the way a fast typist or a paste from tmux delivers them."""
    for char in text:
        key = {"/": "slash", "?": "question_mark", " ": "space"}.get(char, char)
        app.post_message(events.Key(key, char))


async def test_a_burst_after_slash_goes_into_the_search_box(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.query_one(ResultList).focus()
        await settle(pilot)
        burst(app, "/tidy")
        await settle(pilot)
        assert app.screen is screen  # `t` did not open the tag editor, `d` not the dupes
        assert screen.query_one(QueryInput).value == "tidy"


async def test_escape_slash_word_never_triggers_commands(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for word in ("budget", "quote", "edit"):
            app.post_message(events.Key("escape", None))
            burst(app, "/")
            burst(app, word)
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
            assert app.screen.query_one(QueryInput).value.endswith(word)
            assert app.is_running


async def test_tag_list_typing_filters_but_commands_keep_their_meaning(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.query_one(TagList).focus()
        await pilot.press("question_mark")
        await settle(pilot)
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await settle(pilot)
        screen.query_one(TagList).focus()
        await pilot.press("b", "o")
        assert screen.query_one(TagFilter).value == "bo"
        burst(app, "/atlas")
        await settle(pilot)
        assert screen.query_one(TagFilter).value == "bo"
        assert screen.query_one(QueryInput).value == "atlas"
        assert isinstance(app.focused, QueryInput)


async def test_any_all_switch_works_inside_the_query_and_from_the_results(
    app_factory: AppFactory,
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"tag:alice tag:meeting ")
        await settle(pilot)
        bar = app.screen.query_one(SearchBar)
        assert isinstance(app.focused, QueryInput)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert bar.state.filters.all_tags
        app.screen.query_one(ResultList).focus()
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert not bar.state.filters.all_tags


async def test_help_lists_every_key_and_the_real_config_path(
    app_factory: AppFactory, no_user_config: Any
) -> None:
    from reme_tui.config import Settings

    app = app_factory(config=Settings())  # no file given: the XDG location is in effect
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(ResultList).focus()
        await pilot.press("question_mark")
        await settle(pilot)
        from textual.widgets import Markdown

        from reme_tui.ui.screens.help import HelpScreen

        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        rows = {(key, action, binding_id) for key, action, binding_id, _ in help_screen.shown()}
        ids = {binding_id for *_, binding_id in rows}
        assert {
            ("s", "Sort tags", "tags.sort"),
            ("-, x", "Exclude tag", "tags.exclude"),
            ("ctrl+o", "Tags ANY/ALL", "any_all"),
            ("[", "Back", "back"),
        } <= rows
        assert {"dupes.merge", "dupes.next_member", "tag_editor.save", "tag_editor.rename"} <= ids
        text = help_screen.query_one(Markdown).source
        config = no_user_config / "xdg_config_home" / "reme-tui" / "config.toml"
        assert f"`{config}`" in text
        assert "~/.config" not in text
        assert "table above" in text


async def test_help_can_be_searched(app_factory: AppFactory) -> None:
    """Issue 22: help could not be searched. Typing narrows the key table to the rows that
    hold every word typed; Escape clears the filter first, then closes the help."""
    from reme_tui.ui.screens.help import HelpScreen

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(ResultList).focus()
        await pilot.press("question_mark")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        everything = len(help_screen.shown())
        await pilot.press(*"revert")
        await settle(pilot)
        # every key typed, the first (which moves the focus to the box) too: the box took
        # focus by selecting what the first key wrote, and "e" replaced it ("evert")
        assert help_screen.query_one("#help-filter", Input).value == "revert"
        shown = help_screen.shown()
        assert shown and len(shown) < everything
        assert all("revert" in " ".join(row).lower() for row in shown)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is help_screen and len(help_screen.shown()) == everything
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_palette_spells_keys_for_people(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        helps = {title: help_text for title, help_text, _ in app.palette_commands()}
        assert helps["Back"].endswith("([)")
        assert "left_square_bracket" not in " ".join(helps.values())


async def test_unknown_keymap_id_is_reported(app_factory: AppFactory, tmp_path: Any) -> None:
    from reme_tui.config import load_settings

    path = tmp_path / "keys.toml"
    path.write_text('[keymap]\nfocus_serch = "ctrl+f"\n"results.down" = "n"\n', encoding="utf-8")
    app = app_factory(config=load_settings(path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notes = [message for message, _ in app.startup_notes]
        assert any("'focus_serch'" in note for note in notes)
        assert not any("results.down" in note for note in notes)


async def test_dupes_member_keys_are_bindings_that_can_be_remapped() -> None:
    from reme_tui.ui.screens.dupes import DupesScreen

    ids = {b.id: b.key for b in DupesScreen.BINDINGS if hasattr(b, "id")}
    assert ids["dupes.next_member"] == "j"
    assert not hasattr(DupesScreen, "key_j")


async def test_capital_y_copies_the_absolute_path(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(ResultList).focus()
        await pilot.press("Y")
        assert app.clipboard == str(app.engine.root / "daily/2026-03-10/cjk.md")
        await pilot.press("y")
        assert app.clipboard == "daily/2026-03-10/cjk.md"


async def test_dangling_links_are_reachable_by_keyboard(app_factory: AppFactory, workspace) -> None:  # type: ignore[no-untyped-def]
    from reme_tui.ui.widgets.neighbours import NeighboursList

    hub = workspace / "digest" / "hub.md"
    targets = []
    for i in range(30):
        target = workspace / "digest" / f"spoke-{i:02d}.md"
        target.write_text(f"---\nname: Spoke {i}\n---\nspoke\n", encoding="utf-8")
        targets.append(f"[[digest/spoke-{i:02d}.md]]")
    hub.write_text(
        "---\nname: Hub\n---\nhubword " + " ".join(targets) + " [[nowhere/gone.md]]\n",
        encoding="utf-8",
    )
    app = app_factory()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press(*"hubword", "enter")
        await settle(pilot)
        links = app.screen.query_one(NeighboursList)
        links.focus()
        await pilot.press("end")
        option = links.get_option_at_index(links.highlighted or 0)
        assert option.id == "dangling:nowhere/gone.md"
        await pilot.press("enter")  # says what it is instead of doing nothing
        await settle(pilot)
        assert isinstance(app.focused, NeighboursList)


async def test_editing_keys_keep_their_order_with_the_letters_typed_around_them(
    app_factory: AppFactory,
) -> None:
    """Textual inserts letters as the input handles them but ran a binding (Ctrl+U,
    Backspace, Left) only after its key had bubbled up to the app: in one burst,
    `ctrl+u budget` left the box empty and `ab<backspace>c` gave "ab"."""
    cases = [
        (QueryInput, ["launch", "ctrl+u", "budget"], "budget"),
        (QueryInput, ["ctrl+u", "ab", "backspace", "c", "left", "x"], "axc"),
        (TagFilter, ["pro", "backspace", "x"], "prx"),
    ]
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for widget_type, parts, expected in cases:
            widget = app.screen.query_one(widget_type)
            widget.focus()
            await settle(pilot)
            for part in parts:  # all queued at once, then handled
                if part in ("ctrl+u", "backspace", "left"):
                    app.post_message(events.Key(part, None))
                else:
                    burst(app, part)
            await settle(pilot)
            assert widget.value == expected


def _keys(text_and_keys: list[str]) -> list[tuple[str, str | None]]:
    """Named keys ("tab", "shift+tab", "escape") stay whole; other parts are typed letters."""
    names = {"/": "slash", " ": "space", "-": "minus"}
    keys: list[tuple[str, str | None]] = []
    for part in text_and_keys:
        if part in ("tab", "shift+tab", "escape", "enter"):
            keys.append((part, None))
        else:
            keys.extend((names.get(char, char), char) for char in part)
    return keys


async def _typed(app_factory: AppFactory, parts: list[str], *, at_once: bool) -> dict[str, Any]:
    """Where the keys landed: every input's value and the focused widget's id, the keys
    queued in one burst or handled one at a time."""
    from textual.widgets import Input

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(ResultList).focus()
        await settle(pilot)
        for key, character in _keys(parts):
            app.post_message(events.Key(key, character))
            if not at_once:
                await settle(pilot)
        await settle(pilot)
        landed: dict[str, Any] = {box.id or "": box.value for box in app.screen.query(Input)}
        landed["focused"] = app.focused.id if app.focused else None
        return landed


@pytest.mark.parametrize(
    "parts",
    [
        ["escape", "shift+tab", "shift+tab", "dev"],
        ["/budget", "tab", "2026-10-01"],
        ["/budget", "tab", "2026-10-01", "tab", "2026-10-31"],
        ["/", "tab", "tab", "tab", "tab", "tab", "atl"],
    ],
    ids=["shift-tab-into-tag-filter", "tab-to-since", "since-then-until", "tab-past-strict"],
)
async def test_keys_typed_right_after_tab_go_where_tab_moved_the_focus(
    app_factory: AppFactory, parts: list[str]
) -> None:
    """Tab's binding ran only once the key had bubbled back to the app, by when the keys
    behind it were in the old widget: `/budget<Tab>2026-10-01` put the date into the search
    box, Esc Shift+Tab Shift+Tab `dev` gave the tag filter `vde`. In one burst the keys
    must land exactly where they land typed one at a time."""
    slowly = await _typed(app_factory, parts, at_once=False)
    assert await _typed(app_factory, parts, at_once=True) == slowly


async def test_the_palettes_keys_command_opens_the_help_that_escape_closes(
    app_factory: AppFactory,
) -> None:
    """Issue 22: palette → "Keys" opened Textual's keys panel, which Escape did not close."""
    from reme_tui.ui.screens.help import HelpScreen

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        keys = [c for c in app.get_system_commands(app.screen) if c.title == "Keys"]
        assert len(keys) == 1
        keys[0].callback()
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and not app.screen.query("HelpPanel")
