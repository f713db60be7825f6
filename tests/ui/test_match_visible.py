"""The match, visible: snippets around the matched words, the query's words highlighted in
the preview with n/N between them, wikilink anchors and embeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reme_tui.ui.rows import snippet, term_pattern
from reme_tui.ui.widgets.markdown_body import MarkdownBody
from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.results import ResultList

from .conftest import SIZE, AppFactory, settle

pytestmark = pytest.mark.anyio

LONG = (
    "We spent most of the week pairing on the technical sessions remotely (15-hour time "
    "difference, which made every call an early one) before anyone looked at the budget "
    "for the next quarter."
)


def test_snippet_shows_the_matched_word_within_the_visible_width() -> None:
    out = snippet(LONG, term_pattern(["budget"]), visible=40)
    assert "budget" in out[:40]


def write_long(workspace: Path, body: str) -> None:
    note = workspace / "daily" / "2026-03-14" / "long.md"
    note.parent.mkdir(parents=True)
    note.write_text(f"---\nname: Long\n---\n{body}\n", encoding="utf-8")


async def test_result_rows_show_the_match_in_view(app_factory: AppFactory, workspace: Path) -> None:
    write_long(workspace, LONG)
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*"budget")
        await settle(pilot)
        result_list = app.screen.query_one(ResultList)
        prompt = result_list.prompt(0)
        snippet_line = str(prompt).split("\n")[1]
        assert "budget" in snippet_line[: result_list.content_size.width - 2]


async def test_snippets_are_cut_to_the_list_and_cut_again_when_it_widens(
    app_factory: AppFactory, workspace: Path
) -> None:
    """Rows hold no more text than the list shows (cropping long lines was most of the
    paint of a keystroke); a wider terminal gets rows cut for its width."""
    write_long(workspace, f"{LONG} {LONG}")
    app = app_factory()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*"budget")
        await settle(pilot)
        result_list = app.screen.query_one(ResultList)

        def snippet_line() -> str:
            return str(result_list.prompt(0)).split("\n")[1]

        narrow = len(snippet_line())
        assert result_list.content_size.width <= narrow < result_list.content_size.width + 12
        await pilot.resize_terminal(200, 30)
        await settle(pilot)
        assert len(snippet_line()) >= result_list.content_size.width > narrow


async def test_preview_highlights_query_words_and_n_jumps(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"postgres")
        await settle(pilot)
        await pilot.press("enter")  # open the first result
        await settle(pilot)
        preview = app.screen.query_one(Preview)
        body = preview.query_one(MarkdownBody)
        assert preview.body_hits
        for block in preview.body_hits:
            assert "postgres" in body.blocks[block].text.lower()
        painted = [seg for y in range(body.line_count) for seg in body.render_line(y)]
        hits = [seg for seg in painted if seg.text.lower() == "postgres"]
        assert hits and all(seg.style is not None and seg.style.bold for seg in hits)
        await pilot.press("n")
        assert preview.hit_index == 0 and body.current == preview.body_hits[0]
        await pilot.press("N")
        assert preview.hit_index == len(preview.body_hits) - 1
        assert "· n/N" in preview.border_subtitle
        assert body.current == preview.body_hits[preview.hit_index]


def write_plan(workspace: Path) -> None:
    filler = "\n".join(f"Line {i} of the long plan." for i in range(60))
    (workspace / "digest" / "plan.md").write_text(
        "---\nname: Plan\n---\n# Plan\n\n"
        f"{filler}\n\n## Budget\n\nThe budget is 12k.\n\n## Rollback\n\nRestore the snapshot.\n"
        "Then page the on-call.\n\n## Later\n\nNothing here.\n",
        encoding="utf-8",
    )
    (workspace / "daily" / "2026-03-14").mkdir(parents=True, exist_ok=True)
    (workspace / "daily" / "2026-03-14" / "links.md").write_text(
        "---\nname: Links\n---\n# Links\n\nSee [[digest/plan.md#Budget]].\n\n"
        "![[digest/plan.md#Rollback]]\n\nThe zebra paragraph after the embed.\n",
        encoding="utf-8",
    )


async def open_links_memory(pilot: Any) -> Preview:
    """The memory with the anchor link and the embed, opened from a search."""
    await settle(pilot)
    await pilot.press(*"zebra", "enter")
    await settle(pilot)
    return pilot.app.screen.query_one(Preview)


def matched_texts(body: MarkdownBody) -> list[str]:
    return [body.blocks[index].text for index in sorted(body.matched)]


async def test_wikilink_anchor_opens_at_the_heading(
    app_factory: AppFactory, workspace: Path
) -> None:
    write_plan(workspace)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_links_memory(pilot)
        assert preview.path == "daily/2026-03-14/links.md"
        body = preview.query_one(MarkdownBody)
        body.post_message(MarkdownBody.LinkClicked("wiki:digest/plan.md#Budget"))
        await settle(pilot, quiet=0.1)
        assert preview.path == "digest/plan.md"
        matched = matched_texts(body)
        assert matched and matched[0] == "## Budget"
        assert "Restore" not in " ".join(matched)
        assert preview.query_one(MarkdownBody).scroll_y > 10


async def test_embed_renders_the_embedded_section(app_factory: AppFactory, workspace: Path) -> None:
    write_plan(workspace)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        body = (await open_links_memory(pilot)).query_one(MarkdownBody)
        assert "> Restore the snapshot." in body.source
        assert "Nothing here" not in body.source  # only the Rollback section
        assert "zebra" in " ".join(matched_texts(body))  # lines still map


async def test_enter_on_a_link_with_a_heading_opens_at_the_heading(
    app_factory: AppFactory, workspace: Path
) -> None:
    """Issue 22: Enter on `→ Plan … #Budget` in the Links panel opened the top of the file,
    where a click on the same link in the preview opens at the heading."""
    from reme_tui.ui.widgets.neighbours import NeighboursList

    write_plan(workspace)
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        preview = await open_links_memory(pilot)
        links = app.screen.query_one(NeighboursList)
        links.focus()
        await settle(pilot)
        index = next(
            i for i in range(links.option_count)
            if links.get_option_at_index(i).id == "out:digest/plan.md"
        )  # fmt: skip
        links.highlighted = index
        await pilot.press("enter")
        await settle(pilot, quiet=0.1)
        assert preview.path == "digest/plan.md"
        matched = matched_texts(preview.query_one(MarkdownBody))
        assert matched and matched[0] == "## Budget"
        assert preview.query_one(MarkdownBody).scroll_y > 10
