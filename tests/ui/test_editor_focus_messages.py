"""Tag editor: after deleting a chip typing works at once; a file whose tags cannot be
edited is explained in one human line."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from reme_tui.ui.widgets.tag_editor import EditChip, TagInput

from .conftest import SIZE, AppFactory, settle
from .test_keys_focus import burst
from .test_tag_editor import KICKOFF, open_editor, record_notifications

pytestmark = pytest.mark.anyio


async def test_after_deleting_a_chip_typing_goes_into_the_input(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot, KICKOFF)
        editor.query(EditChip).first().focus()
        await settle(pilot)
        app.post_message(events.Key("delete", None))
        burst(app, "tombecker")
        await settle(pilot)
        assert isinstance(app.focused, TagInput)
        assert app.focused.value == "tombecker"
        assert editor.renaming is None  # the `r` of the word did not start a rename
        assert editor.tags == ["alice", "meeting"]


async def test_tags_not_editable_is_one_human_line(
    app_factory: AppFactory, workspace: Path
) -> None:
    bad = workspace / "daily" / "2026-03-14" / "bad.md"
    bad.parent.mkdir(parents=True)
    bad.write_text("---\nname: Bad\nmemory_tags: [a, b\ndescription: y\n---\nbody\n", "utf-8")
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = record_notifications(app)
        app.main_screen.open_memory("daily/2026-03-14/bad.md")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        message = next(m for title, m in seen if title == "Tags not editable")
        assert "\n" not in message and "<unicode string>" not in message
        assert "daily/2026-03-14/bad.md" in message and "line 3" in message
