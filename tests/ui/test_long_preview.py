"""Long memories (and any with a table) are drawn line by line (MarkdownBody), not by a
widget per block: what is on screen is all a preview costs. The matched lines, the query
words and n/N, links and the looks are those of the short-memory preview."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets.markdown import MarkdownBlock

from reme_tui.ui.markdown_lines import split_blocks
from reme_tui.ui.widgets.markdown_body import MarkdownBody
from reme_tui.ui.widgets.preview import Preview

from .conftest import SIZE, AppFactory, settle, steady_cursors, wait_for

pytestmark = pytest.mark.anyio

LONG_PATH = "digest/handbook.md"


def long_body() -> str:
    parts = []
    for n in range(1, 81):
        parts.append(f"## Part {n}\n")
        parts.append(f"Paragraph {n} about the rollout and its owners, written at length. " * 3)
        parts.append("")
        if n == 3:
            parts.append("| item | owner | cost |\n|---|---|---|\n| disks | ops | 12k |")
            parts.append("")
        if n == 70:
            parts.append("The zanzibar budget lives here, see [[digest/atlas.md]].")
            parts.append("")
    return "\n".join(parts)


@pytest.fixture
def long_workspace(workspace: Path) -> Path:
    note = workspace / LONG_PATH
    note.write_text(
        f"---\nname: Handbook\ndescription: Long\nmemory_tags: [ops]\n---\n{long_body()}\n",
        encoding="utf-8",
    )
    return workspace


def test_top_level_blocks_keep_their_source_lines() -> None:
    body = "# A\n\npara one\nstill one\n\n- x\n- y\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    blocks = split_blocks(body)  # a list keeps its trailing blank line
    assert [(b.start, b.end) for b in blocks] == [(0, 1), (2, 4), (5, 8), (8, 11)]
    assert blocks[3].text.startswith("| a | b |")


def test_a_reference_link_resolves_in_the_block_that_uses_it() -> None:
    blocks = split_blocks("See [the doc][d].\n\n[d]: https://example.org\n")
    assert len(blocks) == 1 and "[D]: <https://example.org>" in blocks[0].text  # labels fold


@asynccontextmanager
async def long_preview(
    app_factory: AppFactory, query: str
) -> AsyncIterator[tuple[Pilot[Any], Preview, MarkdownBody]]:
    """The app searching ``query``, its preview on the long memory."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_long(pilot, query)
        yield pilot, preview, preview.query_one(MarkdownBody)


def drawn(body: MarkdownBody, line: int) -> Strip:
    """Body line ``line`` as the body draws it (it draws the rows of its view)."""
    return body.render_line(line - body.scroll_offset.y)


async def open_long(pilot: Pilot[Any], query: str) -> Preview:
    await settle(pilot)
    await pilot.press("slash", *query, "enter")
    await settle(pilot)
    preview = pilot.app.screen.query_one(Preview)
    await wait_for(pilot, lambda: preview.path == LONG_PATH)
    await settle(pilot)
    return preview


async def test_a_long_memory_draws_only_its_visible_lines_and_mounts_no_block(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    async with long_preview(app_factory, "rollout owners") as (_pilot, preview, body):
        assert body.display and not list(preview.query(MarkdownBlock))
        assert body.complete  # the rest followed the first paint
        # Each paint draws the lines on screen, however long the memory is.
        assert 0 < body.lines_built <= 3 * body.size.height < body.line_count


async def test_the_matched_lines_are_marked_and_scrolled_to(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    async with long_preview(app_factory, "zanzibar") as (_pilot, _preview, body):
        assert body.matched
        zanzibar = next(i for i, b in enumerate(body.blocks) if "zanzibar" in b.text)
        assert zanzibar in body.matched
        assert body.scroll_y > 20
        assert "zanzibar" in drawn(body, body.block_line(zanzibar)).text


async def test_n_and_N_walk_the_blocks_holding_query_words(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_long(pilot, "zanzibar budget")
        await wait_for(pilot, lambda: "n/N" in str(preview.border_subtitle))
        body = preview.query_one(MarkdownBody)
        hits = body.hit_blocks()
        assert hits and all(
            "zanzibar" in body.blocks[i].text or "budget" in body.blocks[i].text for i in hits
        )
        preview.jump_hit(1)
        await settle(pilot)
        assert body.current == hits[0]
        assert body.scroll_y == min(body.block_line(hits[0]), body.max_scroll_y) > 0
        assert preview.border_subtitle == f"1/{len(hits)} · n/N"


async def test_a_wikilink_in_a_long_body_opens_its_memory(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    """A click on a link lands on the line shown there, the body being scrolled."""
    async with long_preview(app_factory, "zanzibar") as (pilot, preview, body):
        line = body.block_line(next(i for i, b in enumerate(body.blocks) if "zanzibar" in b.text))
        body.scroll_to(y=line - 2, animate=False)
        await pilot.pause()
        x = 0
        for segment in drawn(body, line):
            if segment.style is not None and "@click" in segment.style.meta:
                assert segment.style.meta["@click"].startswith("follow(")
                break
            x += segment.cell_length
        else:
            raise AssertionError("no link on the line")
        left, top = body.content_offset
        await pilot.click(body, offset=(left + x, top + 2))
        await wait_for(pilot, lambda: preview.path == "digest/atlas.md")


async def test_keys_the_wheel_and_a_live_refresh_scroll_the_long_body(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    """The body is the preview's scroll view: focused by the pane key, j/k and the wheel
    scroll it, and a live refresh keeps it where it was."""
    from textual.events import MouseScrollDown

    async with long_preview(app_factory, "rollout owners") as (pilot, _preview, body):
        screen = pilot.app.main_screen
        screen.action_focus_pane("preview")
        assert pilot.app.focused is body
        await pilot.press("j", "j", "j", "k")
        await pilot.wait_for_scheduled_animations()
        assert body.scroll_y == 2
        body.post_message(MouseScrollDown(body, 5, 5, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert body.scroll_y > 2
        scrolled = body.scroll_y
        screen.load_preview(LONG_PATH, None, None, keep_scroll=True)
        await settle(pilot)
        assert body.scroll_y == scrolled and body.complete


async def show_long(pilot: Pilot[Any]) -> None:
    await open_long(pilot, "rollout owners")
    await steady_cursors(pilot)


def test_long_preview_snapshot(
    snap_compare: Any, app_factory: AppFactory, long_workspace: Path
) -> None:
    assert snap_compare(app_factory(), terminal_size=SIZE, run_before=show_long)


def test_control_characters_in_a_body_are_shown_not_sent() -> None:
    from types import SimpleNamespace

    from reme_tui.ui.widgets.preview import plain_body, render_preview

    text = "---\nname: x\n---\nHello \x1b]0;PWNED\x07 world \x1b[2J \u202egnp.exe\n"
    memory = SimpleNamespace(body_start_line=4)
    for shown in (plain_body(text, memory), render_preview(text, memory, lambda _: True)[0]):
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
        assert "\\x1b]0;PWNED" in shown


async def test_a_long_body_draws_no_escape_character(
    app_factory: AppFactory, long_workspace: Path
) -> None:
    note = long_workspace / LONG_PATH
    note.write_text(note.read_text().replace("Part 1\n", "Part 1 \x1b[2J\x1b]0;x\x07\n"))
    async with long_preview(app_factory, "rollout owners") as (_pilot, _preview, body):
        text = "".join(drawn(body, y).text for y in range(body.line_count))
        assert "\x1b" not in text and "\\x1b[2J" in text
