"""The inline tag editor (issue #5): Pilot tests for behaviour, snapshots for looks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot

from reme_tui.engine.parse.frontmatter import read_tags
from reme_tui.ui.screens.edit_tags import TagEditorScreen
from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.tag_draft import TagDraft, pack, suggest
from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.tag_chips import TagChips
from reme_tui.ui.widgets.tag_editor import EditChip, SuggestionList, TagEditor
from reme_tui.ui.widgets.tag_sidebar import TagSidebar

from .conftest import SIZE, AppFactory, settle, steady_cursors

KICKOFF = "daily/2026-01-05/kickoff.md"  # [project_atlas, alice, meeting]
SCHEMA = "daily/2026-01-19/schema.md"  # [project_atlas, bob]
GARDEN = "daily/2026-02-20.md"  # [garden]

anyio = pytest.mark.anyio


async def open_editor(pilot: Pilot[Any], path: str) -> TagEditor:
    await settle(pilot)
    pilot.app.main_screen.open_memory(path)
    await settle(pilot)
    await pilot.press("t")
    await settle(pilot)
    assert isinstance(pilot.app.screen, TagEditorScreen)
    return pilot.app.screen.query_one(TagEditor)


def warnings_text(editor: TagEditor) -> str:
    return str(editor.query_one("#tag-editor-warnings").render())


def banner_text(editor: TagEditor) -> str:
    return str(editor.query_one("#tag-editor-banner").render())


def chip(editor: TagEditor, index: int) -> EditChip:
    return list(editor.query(EditChip))[index]


def record_notifications(app: Any) -> list[tuple[str, str]]:
    """(title, message) of every notification from now on (a spy on ``app.notify``)."""
    seen: list[tuple[str, str]] = []
    notify = app.notify

    def spy(message: str, **options: Any) -> None:
        seen.append((str(options.get("title", "")), str(message)))
        notify(message, **options)

    app.notify = spy
    return seen


def tags_on_disk(workspace: Path, rel: str) -> list[str]:
    return read_tags((workspace / rel).read_text(encoding="utf-8"))


# -- the pure model ------------------------------------------------------------------


def test_suggestions_prefer_the_existing_spelling_then_most_used() -> None:
    existing = [("project_atlas", 5), ("meeting", 3), ("atlas_notes", 1), ("projectx", 1)]
    found = suggest("Project-Atlas", existing)
    assert [s.tag for s in found] == ["project_atlas"] and found[0].exact
    assert [s.tag for s in suggest("proj", existing)] == ["project_atlas", "projectx"]
    assert [s.tag for s in suggest("atlas", existing)] == ["atlas_notes", "project_atlas"]
    assert suggest("atlas", existing, exclude=["Project Atlas"])[0].tag == "atlas_notes"
    assert suggest("  -_ ", existing) == []


def test_draft_moves_renames_and_counts_the_typed_tag() -> None:
    draft = TagDraft(["a", "b", "c"])
    assert draft.move(0, 1) == 1 and draft.tags == ["b", "a", "c"]
    assert draft.move(2, 5) == 2
    draft.rename(1, "  z ")
    assert draft.tags == ["b", "z", "c"]
    draft.rename(1, "")
    assert draft.tags == ["b", "c"]
    assert [w.kind for w in TagDraft(["a", "b", "c"]).warnings("d")] == ["overflow"]
    assert TagDraft(["a", "b"]).warnings("A", renaming=1)[0].kind == "duplicate"
    assert pack([5, 5, 5], 11) == [[0, 1], [2]]
    assert pack([20], 10) == [[0]]


# -- opening ---------------------------------------------------------------------------


@anyio
async def test_t_opens_the_editor_on_the_previewed_memory(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory(KICKOFF)
        await settle(pilot)
        header = list(app.main_screen.query_one(Preview).query_one(TagChips).tags)
        assert header == ["project_atlas", "alice", "meeting"]
        editor = await open_editor(pilot, KICKOFF)
        assert editor.tags == ["project_atlas", "alice", "meeting"]
        assert [c.tag for c in editor.query(EditChip)] == editor.tags
        assert app.focused is editor.input
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


@anyio
async def test_edit_tags_is_in_the_command_palette(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory(SCHEMA)
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Tags")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TagEditorScreen)


@anyio
async def test_paths_outside_the_memory_folders_are_refused(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = record_notifications(app)
        app.open_tag_editor("notes/not-a-memory.md")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("refusing" in message for _title, message in seen)


@anyio
async def test_control_characters_are_refused_with_a_notice(
    app_factory: AppFactory, workspace: Path
) -> None:
    path = workspace / "daily" / "2026-03-01" / "ff.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"---\nname: a\x0cb\nmemory_tags: [x]\n---\nbody budget\n")
    before = path.read_bytes()
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = record_notifications(app)
        app.open_tag_editor("daily/2026-03-01/ff.md")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any(
            title == "Tags not editable" and "refusing to edit" in message
            for title, message in seen
        )
    assert path.read_bytes() == before


# -- autocomplete ----------------------------------------------------------------------


@anyio
async def test_autocomplete_offers_existing_tags_with_counts(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SCHEMA)
        await pilot.press(*"Meet")
        assert [(s.tag, s.count) for s in editor.suggestions] == [("meeting", 3)]
        assert editor.picked is None  # a prefix: Enter would add what was typed
        await pilot.press("tab")
        assert editor.tags == ["project_atlas", "bob", "meeting"]
        assert editor.input.value == ""
        # a new variant of an existing tag: offered first, but Enter takes what was typed
        # (issue 22: `Project-Atlas` + Enter silently added `project_atlas`)
        await pilot.press(*"Gar-Den")
        assert editor.suggestions[0].tag == "garden" and editor.suggestions[0].exact
        assert editor.picked is None
        await pilot.press("enter")
        assert editor.tags == ["project_atlas", "bob", "meeting", "Gar-Den"]
        await pilot.press("backspace")  # the chip goes again
        await pilot.press(*"Gar-Den", "down", "enter")  # picked with Down: the spelling
        assert editor.tags == ["project_atlas", "bob", "meeting", "garden"]
        # tags already in the list are not offered again
        await pilot.press(*"projec")
        assert "project_atlas" not in [s.tag for s in editor.suggestions]
        await pilot.press("escape")
        await settle(pilot)
        assert tags_on_disk(workspace, SCHEMA) == ["project_atlas", "bob"]


@anyio
async def test_down_picks_a_suggestion_and_up_leaves_it(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press("a")
        offered = [s.tag for s in editor.suggestions]
        # tags starting with the input first, then tags holding it; most used first in each
        assert offered == ["alice", "project_atlas"]
        await pilot.press("down", "down")
        assert editor.picked == offered[1]
        listing = editor.query_one(SuggestionList)
        marks = [str(listing.get_option_at_index(i).prompt)[:2] for i in range(len(offered))]
        assert marks == ["  ", "▸ "]  # the state shows as text, not only as a faint tint
        await pilot.press("up", "up")
        assert editor.picked is None
        assert not any(str(o.prompt).startswith("▸") for o in listing.options)
        await pilot.press("down", "enter")
        assert editor.tags == ["garden", offered[0]]


# -- warnings --------------------------------------------------------------------------


@anyio
async def test_warnings_show_while_typing_and_on_chips(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press(*"!!!")
        assert "normalizes to nothing" in warnings_text(editor)
        assert editor.input.has_class("-error")
        await pilot.press("enter")
        assert chip(editor, 1).has_class("-invalid")
        await pilot.press(*("x" * 65))
        assert "longer than 64 characters" in warnings_text(editor)
        await pilot.press("ctrl+u", *"GARDEN")
        assert "is the same tag as 'garden'" in warnings_text(editor)
        await pilot.press("up", "enter")  # add the variant anyway
        assert chip(editor, 2).has_class("-duplicate")
        # the invalid tag blocks the save
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TagEditorScreen)
        assert "Fix or remove '!!!'" in banner_text(editor)


@anyio
async def test_a_fourth_tag_is_marked_as_falling_off(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, KICKOFF)
        await pilot.press(*"ops")
        assert "only the first 3 tags; 'ops' falls off" in warnings_text(editor)
        await pilot.press("enter")
        assert chip(editor, 3).has_class("-overflow")
        assert not chip(editor, 2).has_class("-overflow")
        # moving it to the front pushes "meeting" off instead
        await pilot.press("left")
        assert app.focused is chip(editor, 3)
        await pilot.press("ctrl+left", "ctrl+left", "ctrl+left")
        assert editor.tags == ["ops", "project_atlas", "alice", "meeting"]
        assert app.focused is chip(editor, 0)
        assert chip(editor, 3).has_class("-overflow")
        assert "'meeting' falls off" in warnings_text(editor)


@anyio
async def test_near_duplicate_offers_the_existing_spelling(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press(*"Project-Atlas")
        text = warnings_text(editor)
        assert "looks like the existing tag 'project_atlas'" in text
        assert "ctrl+y uses 'project_atlas'" in text
        await pilot.press("up", "enter")  # insist on the variant
        assert editor.tags == ["garden", "Project-Atlas"]
        assert chip(editor, 1).has_class("-near")
        await pilot.press("ctrl+y")  # one key takes the existing spelling
        assert editor.tags == ["garden", "project_atlas"]
        assert "looks like" not in warnings_text(editor)


# -- remove, reorder, rename, save, cancel ---------------------------------------------


@anyio
async def test_save_changes_only_the_tag_line(app_factory: AppFactory, workspace: Path) -> None:
    path = workspace / KICKOFF
    before = path.read_bytes()
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, KICKOFF)
        seen = record_notifications(app)
        await pilot.press("backspace")  # empty input: removes the last tag
        assert editor.tags == ["project_atlas", "alice"]
        await pilot.press("left", "ctrl+left")  # select "alice", move it first
        assert editor.tags == ["alice", "project_atlas"]
        await pilot.press("right", "f2", "ctrl+u", *"Atlas Project", "enter")  # rename
        assert editor.tags == ["alice", "Atlas Project"]
        await pilot.press(*"ops", "enter")
        await pilot.press("enter")  # empty input: save
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        after = path.read_bytes()
        old_line = b"memory_tags: [project_atlas, alice, meeting]"
        new_line = b"memory_tags: [alice, Atlas Project, ops]"
        assert after == before.replace(old_line, new_line)
        # the watcher's change path ran: engine, sidebar and preview agree at once
        assert app.engine.memory(KICKOFF).tags == ("alice", "atlas_project", "ops")
        sidebar_tags = dict(app.engine.list_tags())
        assert sidebar_tags["meeting"] == 2 and sidebar_tags["atlas_project"] == 1
        assert ("atlas_project", 1) in app.main_screen.query_one(TagSidebar).tags
        header = list(app.main_screen.query_one(Preview).query_one(TagChips).tags)
        assert header == ["alice", "atlas_project", "ops"]
        assert ("Tags saved", f"{KICKOFF}: #alice #Atlas Project #ops") in seen


@anyio
async def test_clicking_a_chip_removes_it(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SCHEMA)
        await pilot.click(chip(editor, 0))
        await settle(pilot)
        assert editor.tags == ["bob"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert tags_on_disk(workspace, SCHEMA) == ["bob"]


@anyio
async def test_cancel_leaves_the_file_untouched(app_factory: AppFactory, workspace: Path) -> None:
    path = workspace / KICKOFF
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, KICKOFF)
        await pilot.press("backspace", "backspace", *"new_tag", "enter")
        assert editor.tags == ["project_atlas", "new_tag"]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == mtime


@anyio
async def test_escape_while_renaming_only_stops_the_rename(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SCHEMA)
        await pilot.press("left", "r")
        assert editor.renaming == 1 and editor.input.value == "bob"
        await pilot.press("escape")
        assert editor.renaming is None and editor.input.value == ""
        assert isinstance(app.screen, TagEditorScreen)
        assert editor.tags == ["project_atlas", "bob"]


# -- conflicts -------------------------------------------------------------------------


@anyio
async def test_a_change_behind_the_editor_is_never_overwritten(
    app_factory: AppFactory, workspace: Path
) -> None:
    path = workspace / KICKOFF
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, KICKOFF)
        await pilot.press(*"mine", "enter")
        # an agent rewrites the file while the editor is open
        theirs = path.read_text().replace("[project_atlas, alice, meeting]", "[agent_tag]")
        theirs += "\nA line the agent appended.\n"
        path.write_text(theirs)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TagEditorScreen)
        assert path.read_text() == theirs  # refused: nothing written
        assert "changed on disk since you opened it" in banner_text(editor)
        assert editor.tags == ["agent_tag"]  # the fresh version is offered
        assert "#project_atlas #alice #meeting #mine" in banner_text(editor)
        assert app.engine.memory(KICKOFF).tags == ("agent_tag",)  # the app saw it too
        await pilot.press("ctrl+r")  # re-apply my list over the new version
        assert editor.tags == ["project_atlas", "alice", "meeting", "mine"]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        expected = theirs.replace("[agent_tag]", "[project_atlas, alice, meeting, mine]")
        assert path.read_text() == expected


@anyio
async def test_a_deleted_file_is_reported_not_recreated(
    app_factory: AppFactory, workspace: Path
) -> None:
    path = workspace / SCHEMA
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SCHEMA)
        await pilot.press(*"x1", "enter")
        path.unlink()
        await pilot.press("enter")
        await settle(pilot)
        assert "was deleted since you opened it" in banner_text(editor)
        assert not path.exists()


@anyio
async def test_keys_typed_right_after_enter_start_the_next_tag(
    app_factory: AppFactory, workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press(*"one", "enter", *"two", "enter", *"thr")
        await settle(pilot)
        assert editor.tags == ["garden", "one", "two"]
        assert editor.input.value == "thr"
        assert tags_on_disk(workspace, GARDEN) == ["garden"]


# -- snapshots -------------------------------------------------------------------------


async def editor_with_warnings(pilot: Pilot[Any]) -> None:
    await open_editor(pilot, KICKOFF)
    await pilot.press(*"Project-Atlas", "up", "enter", *"!!!", "enter", *"ops")
    await settle(pilot)
    await steady_cursors(pilot)


async def editor_with_dropdown(pilot: Pilot[Any]) -> None:
    await open_editor(pilot, GARDEN)
    await pilot.press(*"a", "down")
    await settle(pilot)
    await steady_cursors(pilot)


def test_snapshot_editor_with_warnings(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=editor_with_warnings)


def test_snapshot_autocomplete_dropdown(snap_compare: Any, app_factory: AppFactory) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=editor_with_dropdown)


@anyio
async def test_typed_variant_of_a_tag_is_what_enter_adds_with_the_main_spelling_offered(
    app_factory: AppFactory, workspace: Path
) -> None:
    """As in sample_workspace/: project_atlas on many memories, project-atlas on one. Typing
    ``Project-Atlas`` + Enter adds what was typed (issue 22: it silently took the offered
    ``project_atlas``); the warning names the main spelling, and ctrl+y takes it."""
    outage = workspace / "daily/2026-02-21/outage.md"
    outage.parent.mkdir(parents=True, exist_ok=True)
    outage.write_text("---\nname: Outage\nmemory_tags: [project-atlas]\n---\nLogin outage.\n")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press(*"Project-Atlas")
        assert [s.tag for s in editor.suggestions][:2] == ["project_atlas", "project-atlas"]
        assert "looks like the existing tag 'project_atlas'" in warnings_text(editor)
        await pilot.press("enter")
        assert editor.tags == ["garden", "Project-Atlas"]
        assert "looks like the existing tag 'project_atlas'" in warnings_text(editor)
        await pilot.press("ctrl+y")
        assert editor.tags == ["garden", "project_atlas"]


@anyio
async def test_saving_a_new_variant_warns_first(app_factory: AppFactory, workspace: Path) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, GARDEN)
        await pilot.press(*"Project-Atlas", "up", "enter")  # insist on the variant
        assert editor.tags == ["garden", "Project-Atlas"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, TagEditorScreen)  # not saved: warned first
        assert "would add a new spelling" in banner_text(editor)
        assert tags_on_disk(workspace, GARDEN) == ["garden"]
        await pilot.press("ctrl+s")  # saving again keeps the chosen spelling
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert tags_on_disk(workspace, GARDEN) == ["garden", "Project-Atlas"]


# -- the engine's proposals -------------------------------------------------------------

SYNC = "daily/2026-03-20/sync.md"
SYNC_TEXT = "---\nname: Sync with Alice\ndescription: Weekly sync\n---\nAlice on the migration.\n"


@pytest.fixture
def with_sync(workspace: Path) -> Path:
    """The fixture workspace plus an untagged note the engine has tags to propose for."""
    (workspace / SYNC).parent.mkdir(parents=True)
    (workspace / SYNC).write_text(SYNC_TEXT, encoding="utf-8")
    return workspace


async def editor_with_proposals(pilot: Pilot[Any]) -> None:
    await open_editor(pilot, SYNC)
    await settle(pilot)
    await steady_cursors(pilot)


@anyio
async def test_the_editor_opens_with_the_tags_the_engine_proposes(
    app_factory: AppFactory, with_sync: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SYNC)
        await settle(pilot)
        first = editor.suggestions[0]
        assert (first.tag, first.reason) == ("alice", "named in its title")
        await pilot.press("down", "enter")  # a picked proposal is taken, not saved
        await settle(pilot)
        assert editor.tags == ["alice"]
        assert "alice" not in [s.tag for s in editor.suggestions]
        await pilot.press("enter")  # nothing picked: Enter on the empty input saves
        await settle(pilot)
        assert not isinstance(app.screen, TagEditorScreen)
    assert tags_on_disk(with_sync, SYNC) == ["alice"]


@anyio
async def test_enter_without_picking_a_proposal_still_saves_as_before(
    app_factory: AppFactory, with_sync: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, SYNC)
        await settle(pilot)
        assert editor.suggestions
        await pilot.press(*"ops", "enter", "enter")
        await settle(pilot)
    assert tags_on_disk(with_sync, SYNC) == ["ops"]


def test_snapshot_editor_with_proposals(
    snap_compare: Any, app_factory: AppFactory, with_sync: Path
) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=editor_with_proposals)


@anyio
async def test_a_scalar_tag_entry_is_not_shown_as_tags_reme_reads(
    app_factory: AppFactory, workspace: Path
) -> None:
    """Issue 22: `memory_tags: alice` (a scalar: ReMe reads no tag) showed no warning in the
    preview, and the tag editor showed `alice ✕` as if ReMe saw it. Both now say why, the
    chip is struck until the list is changed, and saving writes a list ReMe reads."""
    scalar = "daily/2026-03-02/scalar.md"
    (workspace / "daily/2026-03-02").mkdir(parents=True, exist_ok=True)
    (workspace / scalar).write_text("---\nname: Scalar\nmemory_tags: alice\n---\nA note.\n")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.open_memory(scalar)
        await settle(pilot)
        notes = app.main_screen.query_one("#preview-notes")
        assert notes.display and "not a list" in str(notes.render())
        editor = await open_editor(pilot, scalar)
        chips = list(editor.query(EditChip))
        assert [chip.tag for chip in chips] == ["alice"] and chips[0].has_class("-unread")
        assert "not a list" in warnings_text(editor)
        await pilot.press(*"bob", "enter")
        assert not any(chip.has_class("-unread") for chip in editor.query(EditChip))
        await pilot.press("enter")  # saves
        await settle(pilot)
        assert tags_on_disk(workspace, scalar) == ["alice", "bob"]
        assert app.engine.memory(scalar).tags == ("alice", "bob")


@anyio
@pytest.mark.parametrize("theme", ["reme-dusk", "reme-forest", "reme-paper"])
async def test_the_picked_suggestion_is_told_apart_as_painted(
    app_factory: AppFactory, theme: str
) -> None:
    """Issue 22: in reme-paper the picked row's tint was 1.05:1 against the list, and the
    contrast test, reading theme variables, never saw that state. Here the rows are read as
    painted: every character of both rows reads as text (4.5:1), and the picked row differs
    from the other either by a background at 3:1 or by a mark the other row lacks."""
    from textual.color import Color
    from textual.geometry import Region

    from .test_theme_contrast import AA, NON_TEXT, contrast

    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        editor = await open_editor(pilot, GARDEN)
        await pilot.press("a", "down")
        await settle(pilot)
        assert editor.picked == "alice"
        listing = editor.query_one(SuggestionList)
        strips = listing.render_lines(Region(0, 0, *listing.region.size))
        rows = [s for s in strips if "alice" in s.text or "project_atlas" in s.text]
        assert len(rows) == 2 and "alice" in rows[0].text

        def cells(strip: Any) -> list[tuple[str, Color, Color]]:
            out = []
            for segment in strip:
                style = segment.style
                assert style is not None and style.color and style.bgcolor, segment
                fg = Color.from_rich_color(style.color)
                bg = Color.from_rich_color(style.bgcolor)
                out += [(char, fg, bg) for char in segment.text]
            return out

        picked, other = cells(rows[0]), cells(rows[1])
        for char, fg, bg in picked + other:
            if not char.isspace():
                assert contrast(fg, bg) >= AA, (theme, char, fg.hex, bg.hex)
        backgrounds = contrast(picked[-1][2], other[-1][2])
        marks = {c for c, _, _ in picked if not c.isalnum() and not c.isspace()} - {
            c for c, _, _ in other
        }
        assert backgrounds >= NON_TEXT or marks, (theme, round(backgrounds, 2), marks)
