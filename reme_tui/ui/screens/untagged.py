"""Untagged memories, each with the tags the engine suggests: accept with one key.

ReMe tags only what the agent itself writes, so memories added or edited by hand stay
untagged (and a tag filter never finds them). This review lists them newest first with
the engine's suggestions (``Engine.suggest_tags``), computed in a thread worker as the
list is read; ``a`` adds the first suggestion, ``2``/``3`` the second or third, through
the one write door (``Engine.edit_tags``), and the memory leaves the list. ``t`` opens
the tag editor, Enter opens the memory, Esc closes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Label

from reme_tui.engine import Code, EditError, Engine
from reme_tui.engine.files import ConflictError, PathRefused
from reme_tui.engine.parse import AddTag
from reme_tui.engine.tags import Suggestion
from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.widgets.line_list import LineList
from reme_tui.ui.worker_failures import ShowsWorkerFailures

ROW_SUGGESTIONS = 3


def untagged_paths(engine: Engine) -> list[str]:
    """Memories written without tags (the ``no-tags`` diagnostic: not those whose tags
    are broken, which the diagnostics list with their fix), newest first, undated last."""
    dates: dict[str, str | None] = {}
    for path in engine.paths():
        memory = engine.memory(path)
        if memory is not None and any(d.code == Code.NO_TAGS for d in memory.diagnostics):
            dates[path] = memory.date
    found = list(dates)
    dated = sorted((p for p in found if dates[p]), key=lambda p: (dates[p], p), reverse=True)
    return dated + sorted(p for p in found if not dates[p])


class UntaggedList(LineList):
    """Two lines a memory: its path and name, then its suggestions (… while computing)."""

    ROW_HEIGHT: ClassVar[int] = 2

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.paths: list[str] = []
        self.names: dict[str, str] = {}
        self.suggestions: dict[str, tuple[Suggestion, ...]] = {}

    def row_content(self, index: int, width: int) -> Content:
        path = self.paths[index]
        name = self.names.get(path, "")
        head = Content.assemble(
            for_terminal_line(path), ("  " + for_terminal_line(name), "$text-muted")
        )
        found = self.suggestions.get(path)
        if found is None:
            tail = Content.styled("   suggestions…", "$text-muted")
        elif not found:
            tail = Content.styled("   no suggestion: type one with t", "$text-muted")
        else:
            parts: list[Content | tuple[str, str] | str] = ["  "]
            for rank, suggestion in enumerate(found, 1):
                key = "a" if rank == 1 else str(rank)
                reason = suggestion.evidence[0].brief if suggestion.evidence else ""
                parts += [
                    (f" {key} ", "bold $accent"),
                    (for_terminal_line(suggestion.tag), "bold"),
                    (f" {reason}" if reason else "", "italic $text-muted"),
                ]
            tail = Content.assemble(*parts)
        return Content("\n").join([head, tail])

    @property
    def current(self) -> str | None:
        index = self.highlighted
        return self.paths[index] if index is not None and index < len(self.paths) else None


@dataclass
class Suggested(Message):
    """Suggestions for a run of memories (a few at a time, as they are computed)."""

    found: dict[str, tuple[Suggestion, ...]]


@dataclass
class Tagged(Message):
    path: str
    tag: str
    error: str | None


class UntaggedScreen(PacedFrames, ShowsWorkerFailures, ModalScreen[str | None]):
    """Dismisses with a path to open, or None."""

    DEFAULT_CSS = """
    UntaggedScreen { align: center middle; }
    #untagged-body {
        width: 95%; height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    #untagged-title { margin-bottom: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss_screen", "Close", id="untagged.close"),
        Binding("a", "accept(1)", "Add the first suggestion", id="untagged.accept"),
        Binding("2", "accept(2)", "Add the second", show=False, id="untagged.accept_2"),
        Binding("3", "accept(3)", "Add the third", show=False, id="untagged.accept_3"),
        Binding("t", "edit_tags", "Tag editor", id="untagged.edit"),
        Binding("j", "cursor(1)", "Down", show=False, id="untagged.down"),
        Binding("k", "cursor(-1)", "Up", show=False, id="untagged.up"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.serial = 0  # suggestions from an older listing are dropped

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    @property
    def listing(self) -> UntaggedList:
        return self.query_one(UntaggedList)

    def compose(self) -> ComposeResult:
        with Vertical(id="untagged-body"):
            yield Label("", id="untagged-title")
            yield UntaggedList(id="untagged-list")

    def on_mount(self) -> None:
        self.reload()
        self.listing.focus()

    def on_screen_resume(self) -> None:
        self.reload()  # the tag editor may have tagged one

    def reload(self) -> None:
        engine = self.reme.engine
        listing = self.listing
        keep = listing.current
        listing.paths = untagged_paths(engine)
        listing.names = {
            p: (m.name or "") for p in listing.paths if (m := engine.memory(p)) is not None
        }
        index = listing.paths.index(keep) if keep in listing.paths else 0
        listing.reset(len(listing.paths), index if listing.paths else None)
        self._title()
        self.serial += 1
        self._suggest(self.serial, [p for p in listing.paths if p not in listing.suggestions])

    def _title(self) -> None:
        count = len(self.listing.paths)
        text = (
            f"{count:,} untagged memories: no tag filter finds them. "
            "a: add the first suggestion · 2, 3: another · t: edit · Enter: open · Esc"
            if count
            else "Every memory carries a tag."
        )
        self.query_one("#untagged-title", Label).update(text)

    @work(thread=True, exclusive=True, group="untagged-suggest", exit_on_error=False)
    def _suggest(self, serial: int, paths: list[str]) -> None:
        engine = self.reme.engine
        batch: dict[str, tuple[Suggestion, ...]] = {}
        for path in paths:
            if serial != self.serial:
                return
            try:
                batch[path] = engine.suggest_tags(path, ROW_SUGGESTIONS).suggestions
            except KeyError:  # gone since the listing was made
                batch[path] = ()
            if len(batch) >= 20:
                self.post_message(Suggested(batch))
                batch = {}
        if batch:
            self.post_message(Suggested(batch))

    @on(Suggested)
    def _suggested(self, message: Suggested) -> None:
        self.listing.suggestions.update(message.found)
        self.listing.refresh_rows()

    # -- actions -------------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        if delta > 0:
            self.listing.action_cursor_down()
        else:
            self.listing.action_cursor_up()

    def action_accept(self, rank: int) -> None:
        path = self.listing.current
        if path is None:
            return
        found = self.listing.suggestions.get(path)
        if not found or len(found) < rank:
            self.notify("No such suggestion for this memory", severity="warning", timeout=3)
            return
        self._add(path, found[rank - 1].tag)

    @work(thread=True, group="untagged-write", exit_on_error=False)
    def _add(self, path: str, tag: str) -> None:
        engine = self.reme.engine
        try:
            result = engine.edit_tags(path, AddTag(tag))
        except (ConflictError, PathRefused, EditError, OSError) as error:
            self.post_message(Tagged(path, tag, str(error)))
            return
        self.app.call_from_thread(self.reme.publish, result.delta)
        self.post_message(Tagged(path, tag, None))

    @on(Tagged)
    def _tagged(self, message: Tagged) -> None:
        if message.error is not None:
            self.notify(message.error, title=f"{message.path} not tagged", severity="error")
            return
        self.notify(f"{message.path}: tagged {message.tag}", timeout=3)
        self.listing.suggestions.clear()  # the tag counts moved: suggestions may too
        self.reload()

    def action_edit_tags(self) -> None:
        path = self.listing.current
        if path is not None:
            self.reme.open_tag_editor(path)

    @on(LineList.Selected)
    def _open(self, message: LineList.Selected) -> None:
        path = self.listing.current
        if path is not None:
            self.dismiss(path)

    def action_dismiss_screen(self) -> None:
        self.dismiss(None)
