"""The tag editor screen: reads the memory's tags with a stamp, saves them conflict-checked.

It opens over the preview's header (so the editor sits where the chips are) and is
modal: nothing else reacts to keys while a list is being edited. Reads and writes run
in thread workers that post messages; a save goes through ``Engine.edit_tags`` with the
stamp taken when the editor opened; the engine re-indexes the file and the ``Delta`` it
returns is published like a watcher batch, so the sidebar, the results and the preview
update at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.message import Message
from textual.screen import ModalScreen

from reme_tui.engine import EditError
from reme_tui.engine.files import ConflictError, FileStamp, PathRefused, read_memory
from reme_tui.engine.parse import SetTags, read_tags
from reme_tui.engine.write import EditResult
from reme_tui.ui.file_notes import tags_unread, warning_line
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.tag_draft import Suggestion
from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.tag_editor import TagEditor
from reme_tui.ui.worker_failures import ShowsWorkerFailures

MIN_INLINE_WIDTH = 50


@dataclass
class Loaded(Message):
    """The file's tags as written and the stamp of the bytes they came from."""

    tags: list[str]
    stamp: FileStamp
    existing: list[tuple[str, int]]
    proposals: list[Suggestion]
    unread_notes: list[str]


@dataclass
class Failed(Message):
    """Reading or saving failed; ``close`` when the editor cannot go on."""

    message: str
    close: bool


@dataclass
class Saved(Message):
    result: EditResult


@dataclass
class Conflicted(Message):
    """The file changed since it was read: its tags and stamp now (None: it is gone)."""

    message: str
    tags: list[str] | None
    stamp: FileStamp | None
    mine: list[str]


class TagEditorScreen(PacedFrames, ShowsWorkerFailures, ModalScreen[EditResult | None]):
    """Edit the tags of memory ``path``; dismisses with the EditResult of a save."""

    DEFAULT_CSS = """
    TagEditorScreen {
        background: $background 40%;
        align: left top;
    }
    TagEditorScreen.-centered {
        align: center middle;
    }
    TagEditorScreen.-centered TagEditor {
        width: 80%;
        max-width: 100;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),  # before the editor is ready
    ]

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.stamp: FileStamp | None = None
        self.closed = False
        self.saving = False
        self.deferred: tuple[EditResult | None] | None = None  # a close waiting to be on top

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    @property
    def editor(self) -> TagEditor:
        return self.query_one(TagEditor)

    def compose(self) -> ComposeResult:
        yield TagEditor(self.path, id="tag-editor")

    def on_mount(self) -> None:
        self._place()
        self._load()

    def close(self, result: EditResult | None) -> None:
        """Dismiss once, and only while on top (a palette above us must not be popped)."""
        if self.closed:
            return
        if not self.is_active:
            self.deferred = (result,)
            return
        self.closed = True
        self.dismiss(result)

    def on_screen_resume(self) -> None:
        if self.deferred is not None:
            (result,) = self.deferred
            self.deferred = None
            self.close(result)

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self._place)

    def _place(self) -> None:
        """Sit over the preview's header; centred when the preview is hidden or narrow."""
        region = self.reme.main_screen.query_one(Preview).region
        inline = region.width >= MIN_INLINE_WIDTH and region.height > 0
        self.set_class(not inline, "-centered")
        editor = self.editor
        if inline:
            editor.styles.offset = (region.x, region.y)
            editor.styles.width = region.width
        else:
            editor.styles.offset = (0, 0)
            editor.styles.clear_rule("width")

    # -- reading -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="tag-editor-io", exit_on_error=False)
    def _load(self) -> None:
        engine = self.reme.engine
        try:
            text, stamp = read_memory(engine.root, self.path)
            tags = read_tags(text, engine.config.tag_field)
        except PathRefused as error:
            self.post_message(Failed(f"Cannot edit tags here: {error}", close=True))
            return
        except (EditError, OSError) as error:
            self.post_message(Failed(f"Cannot edit the tags of {self.path}: {error}", close=True))
            return
        memory = engine.memory(self.path)
        unread = [warning_line(d) for d in tags_unread(memory)] if memory is not None else []
        self.post_message(Loaded(tags, stamp, engine.list_tags(), self._proposals(), unread))

    def _proposals(self) -> list[Suggestion]:
        """The engine's suggestions for this memory, the strongest evidence as the reason."""
        try:
            report = self.reme.engine.suggest_tags(self.path)
        except KeyError:  # not indexed (yet): autocomplete only
            return []
        return [
            Suggestion(s.tag, s.files, False, s.evidence[0].brief if s.evidence else "")
            for s in report.suggestions
        ]

    @on(Loaded)
    async def _loaded(self, message: Loaded) -> None:
        self.stamp = message.stamp
        await self.editor.load(
            message.tags, message.existing, message.proposals, message.unread_notes
        )

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.saving = False
        if message.close:
            self.notify(message.message, title="Tags not editable", severity="error", timeout=8)
            self.close(None)
            return
        self.editor.set_banner(f"✗ {message.message}")

    # -- saving --------------------------------------------------------------------

    @on(TagEditor.Cancelled)
    def action_cancel(self) -> None:
        if not self.saving:  # a save under way finishes and closes the editor itself
            self.close(None)

    @on(TagEditor.SaveRequested)
    def _save_requested(self, message: TagEditor.SaveRequested) -> None:
        if self.closed or self.saving or self.deferred is not None:
            return  # a second Enter while a save runs must not race it
        if message.tags == self.editor.original:
            self.notify("Tags unchanged", timeout=2)
            self.close(None)
            return
        self.editor.border_subtitle = "saving…"
        self.saving = True
        self._save(message.tags, self.stamp)

    @work(thread=True, exclusive=True, group="tag-editor-io", exit_on_error=False)
    def _save(self, tags: list[str], stamp: FileStamp | None) -> None:
        engine = self.reme.engine
        try:
            result = engine.edit_tags(self.path, SetTags(tags), expected=stamp)
        except ConflictError as error:
            self.post_message(self._conflict(tags, error))
            return
        except PathRefused as error:
            if not (engine.root / self.path).exists():
                gone = f"{self.path} was deleted since you opened it"
                self.post_message(Conflicted(gone, None, None, tags))
            else:
                self.post_message(Failed(f"Refused: {error}", close=False))
            return
        except (EditError, OSError) as error:
            self.post_message(Failed(f"Not saved: {error}", close=False))
            return
        self.post_message(Saved(result))

    def _conflict(self, mine: list[str], error: ConflictError) -> Conflicted:
        """Read the fresh version (in the save worker) so the editor can offer it."""
        engine = self.reme.engine
        if error.current is None:
            return Conflicted(f"{self.path} was deleted since you opened it", None, None, mine)
        try:
            text, stamp = read_memory(engine.root, self.path)
            tags = read_tags(text, engine.config.tag_field)
        except (EditError, OSError) as exc:
            return Conflicted(
                f"{self.path} changed on disk and cannot be read: {exc}", None, None, mine
            )
        return Conflicted(f"{self.path} changed on disk since you opened it", tags, stamp, mine)

    @on(Conflicted)
    async def _conflicted(self, message: Conflicted) -> None:
        self.saving = False
        self.editor.border_subtitle = "not saved"
        self.notify(message.message, title="Not saved", severity="warning", timeout=6)
        self.app.run_worker(self.reme.apply_changes([self.path]), group="apply")
        if message.tags is None or message.stamp is None:
            self.editor.set_banner(f"✗ {message.message}. Nothing was written.")
            return
        self.stamp = message.stamp
        await self.editor.show_conflict(message.tags, message.mine, message.message)

    @on(Saved)
    def _saved(self, message: Saved) -> None:
        self.close(message.result)


def open_tag_editor(app: App[Any], path: str) -> None:
    """Push the editor for ``path``; after a save, apply the change like the watcher would."""

    def done(result: EditResult | None) -> None:
        if result is None:
            return
        host_of(app).publish(result.delta)  # the engine re-indexed what it wrote
        shown = " ".join(f"#{tag}" for tag in result.new_tags) or "no tags"
        app.notify(f"{result.path}: {shown}", title="Tags saved", timeout=3)
        for note in result.notes:
            app.notify(note, title="Saved, but", severity="warning", timeout=10)

    if not isinstance(app.screen, TagEditorScreen):
        app.push_screen(TagEditorScreen(path), done)
