"""Escape and control characters read from the workspace are shown, never obeyed.

Textual's `Content` and rich's `Text` keep ESC and the other C0/C1 controls (Textual drops
only BEL, BS, VT, FF and CR), so a memory named ``"b\\e[31mred"`` (a YAML escape: a real
ESC) or a body holding ``ESC ] 0;title BEL`` sent the sequence to the terminal wherever it
was shown. The engine keeps them (the files are the truth); every place the app shows
them makes them visible text (``\\x1b``). These tests drive each view over such a
workspace and read every segment the compositor paints."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from reme_tui.engine.history.entries import Observed
from reme_tui.engine.reme import parse_transcript
from reme_tui.ui.app import RemeApp
from reme_tui.ui.screens.changes import ChangesScreen, Timeline, group_title
from reme_tui.ui.screens.diagnostics import DiagnosticsScreen
from reme_tui.ui.screens.transcript import TranscriptScreen
from reme_tui.ui.tag_draft import Suggestion
from reme_tui.ui.widgets.neighbours import NeighboursList
from reme_tui.ui.widgets.tag_editor import TagEditor

from .conftest import SIZE, AppFactory, open_dupes, settle, show_memory, wait_for

pytestmark = pytest.mark.anyio

# What must never reach the terminal raw: C0 but tab and newline, DEL, C1, bidi overrides.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

ESC_MEMO = "daily/2026-03-12/esc.md"
EVIL = "daily/e\x1bcvil.md"  # ESC c resets the terminal
EMBEDDED = "digest/raw.md"
# YAML double-quoted escapes: \e is ESC, \a BEL, \x9b the C1 CSI.
ESC_TEXT = (
    '---\nname: "b\\e[31mred\\x9b2J"\ndescription: "x\\e]0;title\\a desc"\n'
    'memory_tags: ["t\\e[1mag", project_atlas]\n---\n'
    "# Head\x1b[2J\n\nzanzibar body \x1b[2J with \x9b31m and \x1b]0;title\x07, "
    "and a reference &#x202e; decoded.\n\n"
    f"Links to [[digest/atlas.md#Atlas\x1bc|al\x9b2J]] and [[nope\x1bc.md]] and [[{EVIL}]].\n\n"
    f"![[{EMBEDDED}]]\n"
)
EVIL_TEXT = (
    '---\nname: "evil\\e[5m"\ndescription: "d\\x9b1m"\nmemory_tags: ["t\\e[1mag"]\n---\n'
    f"zanzibar evil \x1b[2J line\n\nSee [[{ESC_MEMO}#Head\x1bc]].\n"
)
EMBEDDED_TEXT = "---\nname: Raw\n---\nembedded \x1b]0;pwned\x07 text \x9b2J\n"


@pytest.fixture
def escape_workspace(workspace: Path) -> Path:
    for path, text in ((ESC_MEMO, ESC_TEXT), (EVIL, EVIL_TEXT), (EMBEDDED, EMBEDDED_TEXT)):
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_text(text, encoding="utf-8")
    return workspace


def painted(app: RemeApp) -> list[str]:
    """Every line of the frame the compositor would write now, as the text of its segments
    (the screen on top and what shows of the screens under it)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return ["".join(s.text for strip in strips for s in strip) for strips in update.strips]


def assert_shown_not_obeyed(app: RemeApp, *shown: str) -> None:
    """No raw control character anywhere on screen, and each of ``shown`` visible."""
    lines = painted(app)
    leaks = [line.strip() for line in lines if RAW.search(line)]
    assert not leaks, "raw control characters painted:\n" + "\n".join(map(repr, leaks))
    screen = "\n".join(lines)
    for text in shown:
        assert text in screen, f"{text!r} is not on screen"


def prompts(listing: NeighboursList) -> list[str]:
    return [listing.get_option_at_index(i).prompt.plain for i in range(listing.option_count)]


async def test_the_preview_and_its_links_show_escapes_as_text(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    """The preview's name, body (an embedded section and a decoded character reference
    included) and the links panel: names, paths, anchors, descriptions, dangling targets."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zanzibar")
        await settle(pilot)
        await show_memory(pilot, ESC_MEMO)
        assert_shown_not_obeyed(
            app,
            r"b\x1b[31mred\x9b2J",  # the name
            r"x\x1b]0;title\x07 desc",  # the description
            r"zanzibar body \x1b[2J with \x9b31m",  # the body
            r"\u202e decoded",  # &#x202e; decoded by the Markdown parser
            r"embedded \x1b]0;pwned\x07 text \x9b2J",  # another file's section
        )
        listed = prompts(app.main_screen.query_one(NeighboursList))
        assert not any(RAW.search(prompt) for prompt in listed)
        assert any(r"#Atlas\x1bc" in prompt for prompt in listed)  # an anchor
        assert any(r"evil\x1b[5m" in p and rf"{EVIL[:7]}\x1bcvil.md" in p for p in listed)
        assert any(r"d\x9b1m" in prompt for prompt in listed)  # a linked description
        assert any(r"nope\x1bc.md" in prompt for prompt in listed)  # dangling

        await show_memory(pilot, EVIL)
        assert_shown_not_obeyed(app, r"evil\x1b[5m", r"#Head\x1bc")  # a backlink's anchor

        (escape_workspace / EVIL).unlink()
        await app.apply_changes([EVIL])
        await settle(pilot)
        await app.main_screen.query_one("Preview").show_deleted(EVIL)  # type: ignore[attr-defined]
        await settle(pilot)
        assert_shown_not_obeyed(app, r"daily/e\x1bcvil.md was deleted")


async def test_the_changes_view_shows_escapes_as_text(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    """Timeline rows (path, name, summary, the group's source, label and journal) and the
    diff (tags, frontmatter, body): all read back from the history store."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = ESC_TEXT.replace("zanzibar body", "zanzibar \x1b[2Jchanged body")
        text = text.replace("b\\e[31mred", "c\\e[32mgreen").replace('"t\\e[1mag", ', '"u\\e[4m", ')
        (escape_workspace / ESC_MEMO).write_text(text, encoding="utf-8")
        (escape_workspace / EVIL).unlink()
        await app.apply_changes([ESC_MEMO, EVIL])
        await settle(pilot)
        # A group as a hostile history store could hold it.
        app.engine.history.record(
            [Observed("daily/x\x1bc.md", b"new \x1b[2J\n", ("t\x9b1m",), "n\x1b[5m")],
            source="agent\x1b[2J",
            label="merge t\x1b[1mag into \x9b2J",
            undo="j\x1bc",
        )
        app.action_changes()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ChangesScreen)
        timeline = screen.query_one(Timeline)
        await wait_for(pilot, lambda: len(timeline.rows) == 5)
        assert_shown_not_obeyed(
            app, r"merge t\x1b[1mag into \x9b2J", r"e\x1bcvil.md  evil\x1b[5m", r"c\x1b[32mgreen"
        )
        for index, row in enumerate(timeline.rows):
            timeline.move_to(index)
            await settle(pilot)
            assert_shown_not_obeyed(app)
            if row.entry is not None and row.entry.path == ESC_MEMO:
                await wait_for(pilot, lambda: "changed body" in "\n".join(painted(app)))
                assert_shown_not_obeyed(
                    app, r"−t\x1b[1mag +u\x1b[4m", r"+zanzibar \x1b[2Jchanged body \x1b[2J"
                )
            elif row.entry is None and "merge" in row.group.label:
                assert_shown_not_obeyed(app, r"agent\x1b[2J: 1 change")
                assert r"journal j\x1bc)" in group_title(row.group).plain  # wrapped on screen
        await pilot.press("T")  # tag churn
        await settle(pilot)
        assert_shown_not_obeyed(app, r"t\x9b1m")


async def test_a_transcript_shows_escapes_as_text(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        call = {"type": "tool_use", "name": "tool\x1b[2J", "input": {"q": "\x1b]0;t\x07"}}
        records = [
            {"role": "user", "name": "me\x1bc", "content": "say \x1b[31mred\x9b2J"},
            {"role": "assistant", "content": [call]},
        ]
        text = "\n".join(map(json.dumps, records)) + "\nnot json \x1b[2J\n"
        app.push_screen(TranscriptScreen("session/dialog/s\x1bc.jsonl", parse_transcript(text)))
        await settle(pilot)
        assert_shown_not_obeyed(
            app, r"s\x1bc.jsonl", r"say \x1b[31mred\x9b2J", r"tool call: tool\x1b[2J"
        )


async def test_the_tag_editor_shows_escapes_as_text(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    """The editor's chips, conflict banner, warnings and suggestions."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await show_memory(pilot, ESC_MEMO, edit_tags=True)
        editor = app.screen.query_one(TagEditor)
        assert_shown_not_obeyed(app, r"t\x1b[1mag ✕")
        await editor.show_conflict(
            ["t\x1b[1mag"], ["m\x1bcine"], f"{EVIL} changed on disk \x1b]0;t\x07"
        )
        await settle(pilot)
        assert_shown_not_obeyed(app, r"daily/e\x1bcvil.md changed on disk", r"#m\x1bcine")
        # A tag proposed before anything is typed (the list autocomplete fills too).
        editor.draft.proposals = [Suggestion("s\x1b[2Jx", 2, False, "named in its name")]
        editor._refresh_suggestions()
        await settle(pilot)
        assert_shown_not_obeyed(app, r"s\x1b[2Jx  2 memories  suggested: named in its name")
        await editor.commit("t\x1b[1m-ag")  # a near-duplicate of the tag on disk
        await settle(pilot)
        assert_shown_not_obeyed(app, r"looks like the existing tag 't\x1b[1mag'")


async def test_diagnostics_and_toasts_show_escapes_as_text(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.action_diagnostics()
        await settle(pilot)
        assert isinstance(app.screen, DiagnosticsScreen)
        assert_shown_not_obeyed(app, r"[[nope\x1bc.md]] does not name a memory")
        await pilot.press("escape")
        await settle(pilot)
        app.notify(f"{EVIL}: refused \x9b2J", title=f"{EVIL} not tagged")
        await wait_for(pilot, lambda: "refused" in "\n".join(painted(app)))
        assert_shown_not_obeyed(app, r"daily/e\x1bcvil.md not tagged", r"refused \x9b2J")


def assert_box_shows(box: Input, value: str, shown: str) -> None:
    """``box`` holds ``value`` as it is and paints it as ``shown``, by itself (the paint
    guard behind it would only drop the controls)."""
    assert box.value == value
    line = box.render_line(0).text
    assert not RAW.search(line), f"the input paints {line!r}"
    assert shown in line


async def test_the_rename_box_shows_escapes_and_keeps_the_tag(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    """Renaming a tag holding ESC: the box shows ``\\x1b``, the cursor moves over it as one
    character of four cells, and what is typed lands in the real tag."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await show_memory(pilot, ESC_MEMO, edit_tags=True)
        editor = app.screen.query_one(TagEditor)
        editor.start_rename(0)
        await settle(pilot)
        box = editor.input
        assert_box_shows(box, "t\x1b[1mag", r"t\x1b[1mag")
        assert_shown_not_obeyed(app, r"t\x1b[1mag")
        box.cursor_blink = False  # the cursor stays painted
        left = box.content_region.x
        await pilot.press("home", "right")
        assert box.cursor_screen_offset.x == left + 1
        # The cursor on the ESC covers its four cells: a segment of its own.
        assert [s.text for s in box.render_line(0)][:3] == ["t", r"\x1b", "[1mag"]
        await pilot.press("right")
        assert box.cursor_screen_offset.x == left + 5
        x, y = box.content_region.offset - box.region.offset
        for cell, position in ((0, 0), (3, 1), (5, 2)):  # a click inside the escape: on it
            await pilot.click(box, offset=(x + cell, y))
            assert box.cursor_position == position
        await pilot.press("Z", "enter")
        await settle(pilot)
        assert editor.draft.tags[0] == "t\x1bZ[1mag"


async def test_the_merge_target_box_shows_escapes_and_keeps_the_tag(
    app_factory: AppFactory, escape_workspace: Path
) -> None:
    """A merge target holding ESC (pasted; the suggested one is cleaned by the engine):
    the box shows it escaped, and the merge would go into the real text."""
    (escape_workspace / "digest/twin.md").write_text(
        '---\nname: Twin\nmemory_tags: ["t\\e[1m_ag"]\n---\nTwin.\n', encoding="utf-8"
    )
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_dupes(pilot)
        await pilot.press("T")
        box = screen.query_one("#dupes-target", Input)
        assert app.focused is box
        box.value = ""
        box.post_message(events.Paste("proj\x1b[31mx"))
        await settle(pilot)
        assert screen.targets[screen.clusters[0].tags] == "proj\x1b[31mx"
        assert_box_shows(box, "proj\x1b[31mx", r"proj\x1b[31mx")
        assert_shown_not_obeyed(app, r"proj\x1b[31mx")
