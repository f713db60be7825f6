"""The preview: a header (name, description, tag chips) over the memory rendered as Markdown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.widgets import Label

from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.cells import cut_left
from reme_tui.ui.file_notes import warning_line, warnings_of
from reme_tui.ui.messages import OpenMemory, OpenSource
from reme_tui.ui.rows import term_pattern
from reme_tui.ui.widgets.border_title import set_border_title
from reme_tui.ui.widgets.markdown_body import MarkdownBody
from reme_tui.ui.widgets.steady_label import SteadyLabel
from reme_tui.ui.widgets.tag_chips import TagChips
from reme_tui.ui.wikilinks import expand_embeds, linkify, parse_wiki_href, rendered_index

MAX_PREVIEW_CHARS = 400_000
PLAIN_MAX_LINES = 200  # a screenful and more; the Markdown render follows within BROWSE_DELAY


@dataclass(frozen=True, slots=True)
class PreviewData:
    """What a preview load worker hands the widget (computed off the UI thread)."""

    path: str
    memory: Any  # engine Memory, or None when the file is gone
    markdown: str
    line: int | None
    end_line: int | None
    explain: str | None = None
    inserted: tuple[tuple[int, int], ...] = ()  # lines embeds added (wikilinks.expand_embeds)


NOTES_SHOWN = 2  # warning lines in the header; the rest are counted


class Preview(Vertical):
    """Shows one memory. ``show`` is awaited by the screen after a worker loaded the text."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.path: str | None = None
        self.memory: Any = None
        self.meta = ""
        self.meta_parts = ("", "")  # (path, "  ·  date  ·  lines a–b") the meta line is made of
        self.line: int | None = None
        self.explain: str | None = None
        self.terms: list[str] = []  # the query's words, highlighted in the body
        self.body_hits: list[int] = []  # the body's blocks holding them, in reading order
        self.hit_index = -1
        self.inserted: tuple[tuple[int, int], ...] = ()
        set_border_title(self, "Preview")

    def compose(self) -> ComposeResult:
        with Vertical(id="preview-header"):
            yield SteadyLabel("", id="preview-name")
            yield SteadyLabel("", id="preview-description")
            notes = SteadyLabel("", id="preview-notes")
            notes.display = False
            yield notes
            yield TagChips(id="preview-tags")
            yield SteadyLabel("", id="preview-meta")
        yield MarkdownBody(id="preview-body")

    def on_mount(self) -> None:
        self.show_placeholder("Select a result to preview it here.")

    def show_placeholder(self, message: str) -> None:
        self.path = None
        self.memory = None
        self.explain = None
        self.query_one("#preview-name", Label).update(message)
        for field in ("#preview-description", "#preview-meta"):
            self.query_one(field, Label).update("")
        self.query_one("#preview-notes", Label).display = False
        self.query_one(TagChips).show(())
        self._show_body("")
        set_border_title(self, "Preview")

    async def show_plain(self, data: PreviewData) -> None:
        """A fast first paint while the cursor moves: the header and the body as plain
        text. `show` replaces it with the rendered Markdown once the cursor settles."""
        if not await self._show_header(data):
            return
        self.body_hits, self.hit_index = [], -1
        self.border_subtitle = ""
        body = self.query_one(MarkdownBody)
        body.set_plain(data.markdown, term_pattern(self.terms))
        body.scroll_home(animate=False)

    async def show(self, data: PreviewData, *, keep_scroll: bool = False) -> None:
        """Render ``data``; scroll to its matched lines unless ``keep_scroll`` (live refresh)."""
        body = self.query_one(MarkdownBody)
        previous_y = body.scroll_y
        if not await self._show_header(data):
            self._show_body("")
            return
        self.inserted = data.inserted
        self._show_body(data.markdown)
        if keep_scroll:
            body.scroll_to(y=previous_y, animate=False)
        else:
            self._mark_lines(data.memory, data.line, data.end_line)

    def _show_body(self, markdown: str) -> None:
        """The body, drawn line by line (MarkdownBody): Textual's Markdown widget mounted a
        widget per block, 0.5-1 s for a 10-14 KB memory and most of what a keystroke cost
        while the preview followed the typing (issue 19)."""
        self.body_hits, self.hit_index = [], -1
        self.border_subtitle = ""
        body = self.query_one(MarkdownBody)
        body.set_body(markdown, term_pattern(self.terms))
        if body.pattern is not None:
            # After the first paint: counting hits renders every block.
            self.call_after_refresh(self._count_body_hits, body, body.generation)

    def _count_body_hits(self, body: MarkdownBody, generation: int) -> None:
        if body.generation != generation:
            return  # another body was shown since
        self.body_hits = body.hit_blocks()
        if self.body_hits:
            count = len(self.body_hits)
            blocks = "1 block" if count == 1 else f"{count} blocks"
            self.border_subtitle = f"query words in {blocks} · n/N"

    async def _show_header(self, data: PreviewData) -> bool:
        """Name, description, tag chips and location of ``data``; False when it is gone."""
        memory = data.memory
        self.path, self.memory = data.path, memory
        set_border_title(self, data.path)
        if memory is None:
            await self.show_deleted(data.path)
            return False
        name = memory.name or data.path.rsplit("/", 1)[-1]
        # Content keeps an ESC: the name (a file's frontmatter) is shown, never obeyed.
        self.query_one("#preview-name", Label).update(
            Content.styled(for_terminal_line(name), "bold")
        )
        self.query_one("#preview-description", Label).update(memory.description or "")
        self._show_notes(memory)
        tail = f"  ·  {memory.date or 'undated'}"
        if data.line is not None and data.end_line is not None:
            tail += f"  ·  lines {data.line}–{data.end_line}"
        self.meta_parts = (data.path, tail)
        self.meta, self.line = self._fitted_meta(), data.line
        self.set_explain(data.explain)
        self.query_one(TagChips).show(memory.tags)
        return True

    def _fitted_meta(self) -> str:
        """Path, date and lines in the header's width: the path is cut from the left, so
        the date and the line range always show (they were cut off at 80 columns)."""
        path, tail = self.meta_parts
        width = self.content_size.width - 2  # the header's padding
        if width > 0 and cell_len(path + tail) > width:
            if width - cell_len(tail) < 12:
                tail = tail.replace("  ·  ", " · ")
            path = cut_left(path, max(4, width - cell_len(tail)))
        return path + tail

    def on_resize(self, event: Resize) -> None:
        if self.memory is not None and self.meta_parts[0]:
            self.meta = self._fitted_meta()
            self.set_explain(self.explain)

    def _show_notes(self, memory: Any) -> None:
        """The file's own warnings (a scalar ``memory_tags``, a voided frontmatter): what
        ReMe silently drops from this memory, said where the memory is shown."""
        found = warnings_of(memory)
        lines = [warning_line(d) for d in found[:NOTES_SHOWN]]
        if len(found) > NOTES_SHOWN:
            lines.append(f"… {len(found) - NOTES_SHOWN} more (! lists them)")
        label = self.query_one("#preview-notes", Label)
        label.update(Content.styled(for_terminal("\n".join(lines)), "$text-warning"))
        label.display = bool(lines)

    async def show_deleted(self, path: str) -> None:
        self.path, self.memory, self.explain = path, None, None
        set_border_title(self, path)
        self.query_one("#preview-name", Label).update(
            Content.styled(f"{for_terminal_line(path)} was deleted", "bold $text-error")
        )
        self.query_one("#preview-description", Label).update("The file is gone from the workspace.")
        self.query_one("#preview-meta", Label).update("")
        self.query_one("#preview-notes", Label).display = False
        self.query_one(TagChips).show(())
        self._show_body("")

    @property
    def shows_deleted(self) -> bool:
        return self.path is not None and self.memory is None

    def set_explain(self, explain: str | None, *, stale: bool = False) -> None:
        """The ranking line under the path; ``stale`` when the list no longer shows it."""
        self.explain = explain
        text = self.meta
        if explain:
            text += f"\n{explain}" + ("  (from before the last change)" if stale else "")
        self.query_one("#preview-meta", Label).update(text)

    def set_terms(self, terms: list[str]) -> None:
        self.terms = list(terms)

    def jump_hit(self, step: int) -> None:
        """Scroll to the next (``step`` 1) or previous (-1) block holding a query word."""
        body = self.query_one(MarkdownBody)
        if not self.body_hits:
            self.body_hits = body.hit_blocks() if body.pattern is not None else []
        if not self.body_hits:
            self.notify("No query words in this memory", timeout=1.5)
            return
        self.hit_index = (self.hit_index + step) % len(self.body_hits)
        block = self.body_hits[self.hit_index]
        body.mark(body.matched, current=block)
        self._scroll_body_to(body, block)
        self.border_subtitle = f"{self.hit_index + 1}/{len(self.body_hits)} · n/N"

    def _scroll_body_to(self, body: MarkdownBody, block: int) -> None:
        body.scroll_to(y=body.block_line(block), animate=False)

    def _mark_body_lines(self, start: int | None, end: int | None) -> None:
        body = self.query_one(MarkdownBody)
        blocks = body.blocks_within(start, end) if start is not None and end is not None else []
        body.mark(set(blocks))
        if not blocks or body.blocks[blocks[0]].start == 0:
            body.scroll_home(animate=False)
        else:
            self._scroll_body_to(body, blocks[0])

    def _mark_lines(self, memory: Any, line: int | None, end_line: int | None) -> None:
        """Highlight the blocks holding the matched lines and scroll the first into view."""
        start = end = None
        if line is not None:
            inserted = list(self.inserted)
            start = rendered_index(line - memory.body_start_line, inserted)
            last = (end_line if end_line is not None else line) - memory.body_start_line
            end = rendered_index(last, inserted) + 1
        self._mark_body_lines(start, end)

    @on(MarkdownBody.LinkClicked)
    def _body_link(self, event: MarkdownBody.LinkClicked) -> None:
        event.stop()
        self.follow_href(event.href)

    def follow_href(self, href: str) -> None:
        """A link clicked in the body: a memory (at its heading), a source, or a web page."""
        wiki = parse_wiki_href(href)
        if wiki is None:
            if href.startswith(("http://", "https://")):
                self.app.open_url(href)
            else:
                self.notify(f"Not a memory link: {href}", severity="warning")
            return
        target, anchor = wiki
        engine = getattr(self.app, "engine", None)
        if engine is not None and engine.memory(target) is None and engine.is_source(target):
            self.post_message(OpenSource(target, ""))  # a transcript, resource or image
            return
        self.post_message(OpenMemory(target, anchor=anchor))


def plain_body(text: str, memory: Any, max_lines: int = PLAIN_MAX_LINES) -> str:
    """The first lines of the body, as they are in the file (the fast first paint), with
    control characters shown, not obeyed."""
    lines = text.split("\n", memory.body_start_line - 1 + max_lines)
    first = lines[memory.body_start_line - 1 : memory.body_start_line - 1 + max_lines]
    return for_terminal("\n".join(first))


def render_markdown(text: str, memory: Any, exists: Any) -> str:
    """The body (frontmatter stripped: the header shows it) with wikilinks made followable."""
    return render_preview(text, memory, exists)[0]


def body_of(text: str, memory: Any) -> str:
    return "\n".join(text.split("\n")[memory.body_start_line - 1 :])


def render_preview(
    text: str,
    memory: Any,
    exists: Callable[[str], bool],
    section: Callable[[str, str | None], list[str] | None] | None = None,
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The body as Markdown: wikilinks followable, embeds (``![[x#Section]]``) shown as
    the embedded section when ``section`` reads it; with the lines the embeds added."""
    # An ESC in a memory would reach the terminal through both renderers: shown instead.
    body = for_terminal(body_of(text, memory))
    if not body.strip():
        return "*This memory has no body: only its frontmatter.*", ()
    if len(body) > MAX_PREVIEW_CHARS:
        body = body[:MAX_PREVIEW_CHARS] + "\n\n*… preview truncated; press `e` to open the file.*"
    inserted: list[tuple[int, int]] = []
    if section is not None and "![[" in body:
        body, inserted = expand_embeds(body, section)
        body = for_terminal(body)  # the embedded sections are other files' raw text
    return linkify(body, exists), tuple(inserted)
