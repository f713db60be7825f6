"""RemeApp: themes, keymap, the command palette, and the index/watcher workers.

``make_app`` is the one factory the CLI (through ``run_app``) and the tests share.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import App, SuspendNotSupported, SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme
from textual.timer import Timer

from reme_tui.config import (
    DEFAULT_THEME,
    ConfigSaveError,
    Settings,
    default_config_path,
    load_settings,
    save_theme,
    user_themes_dir,
)
from reme_tui.engine import Delta, Engine, WorkspaceError
from reme_tui.engine.files import PathOutsideWorkspace, awatch_batches
from reme_tui.engine.history import ChangeHistory, HistoryError
from reme_tui.engine.index import drop_standby_pool
from reme_tui.engine.write import Journal
from reme_tui.safe_text import for_terminal
from reme_tui.ui import lazy_strips
from reme_tui.ui.commands import RemeCommands
from reme_tui.ui.focus import bindings_ran
from reme_tui.ui.host import Command, Host
from reme_tui.ui.keys import KeyRow, KeySections, display_keys, key_table, unknown_keymap_ids
from reme_tui.ui.messages import (
    HistoryCounted,
    IndexBuilt,
    IndexLoaded,
    IndexProgress,
    IndexUpdated,
    IndexUpdating,
    OpenSource,
)
from reme_tui.ui.options import AppOptions, Clock
from reme_tui.ui.paint_guard import PAINT_GUARD
from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.semantic_progress import start_semantic
from reme_tui.ui.startup import EarlyStart, app_engine, start_early, with_overrides
from reme_tui.ui.themes import load_bundled_themes, load_themes
from reme_tui.ui.widgets.tag_sidebar import TagSidebar
from reme_tui.ui.worker_failures import ShowsWorkerFailures

SAVE_DELAY = 2.0  # seconds after the last change before the index is saved
# How long a warm start's check for changes waits for the screen to show the saved index,
# and a build for the watcher to start (bounds: a closing app shows and starts nothing).
SHOWN_WAIT_S = 1.0
ARM_WAIT_S = 2.0

_LINE_EDITORS = {"vi", "vim", "nvim", "nano", "emacs", "micro", "hx", "kak", "helix", "joe"}


def key_sections() -> KeySections:
    """(where, bindings with an id) for every screen and widget that binds keys: the
    one table the help screen, the palette and the keymap check read."""
    # Imported here and where each screen opens: the first screen needs none of them,
    # and they were ~45 ms of every start (the help screen alone brings DataTable and
    # the Markdown widget).
    from reme_tui.ui.screens.changes import (
        ChangesFilter,
        ChangesScreen,
        RevertConfirmScreen,
        Timeline,
    )
    from reme_tui.ui.screens.diagnostics import DiagnosticsScreen
    from reme_tui.ui.screens.dupes import DismissedPairsScreen, DupesScreen, MergeConfirmScreen
    from reme_tui.ui.screens.explain import ExplainScreen, WhyNotScreen
    from reme_tui.ui.screens.help import HelpFilter, HelpScreen
    from reme_tui.ui.screens.untagged import UntaggedScreen
    from reme_tui.ui.widgets.chips import Chip
    from reme_tui.ui.widgets.markdown_body import MarkdownBody
    from reme_tui.ui.widgets.neighbours import NeighboursList
    from reme_tui.ui.widgets.results import ResultList
    from reme_tui.ui.widgets.tag_editor import EditChip, TagEditor
    from reme_tui.ui.widgets.tag_sidebar import TagFilter, TagList

    sections: list[tuple[str, list[object]]] = [
        ("Everywhere", [*MainScreen.BINDINGS, *RemeApp.BINDINGS]),
        ("Results list", list(ResultList.BINDINGS)),
        ("Tag list", [*TagList.BINDINGS, *TagFilter.BINDINGS]),
        ("Search chips", list(Chip.BINDINGS)),
        ("Preview", list(MarkdownBody.BINDINGS)),
        ("Links", list(NeighboursList.BINDINGS)),
        ("Tag editor (t)", [*TagEditor.BINDINGS, *EditChip.BINDINGS]),
        (
            "Near-duplicate tags (d)",
            [*DupesScreen.BINDINGS, *MergeConfirmScreen.BINDINGS, *DismissedPairsScreen.BINDINGS],
        ),
        (
            "Changes (c)",
            [
                *ChangesScreen.BINDINGS,
                *Timeline.BINDINGS,
                *ChangesFilter.BINDINGS,
                *RevertConfirmScreen.BINDINGS,
            ],
        ),
        ("Diagnostics (!)", list(DiagnosticsScreen.BINDINGS)),
        ("Untagged memories (u)", list(UntaggedScreen.BINDINGS)),
        ("Why this, why not that (w, W)", [*ExplainScreen.BINDINGS, *WhyNotScreen.BINDINGS]),
        ("Help (?)", [*HelpScreen.BINDINGS, *HelpFilter.BINDINGS]),
    ]
    return [
        (title, [b for b in bindings if isinstance(b, Binding) and b.id])
        for title, bindings in sections
    ]


def _post_progress(screen: MainScreen, done: int, total: int) -> None:
    screen.post_message(IndexProgress(done, total))


class RemeApp(ShowsWorkerFailures, App[None]):
    """A terminal browser for one ReMe memory workspace."""

    # From the package's resources (a wheel, a zip or a checkout alike), not a file path.
    CSS = (resources.files("reme_tui.ui") / "reme.tcss").read_text(encoding="utf-8")
    TITLE = "reme-tui"
    COMMANDS = App.COMMANDS | {RemeCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
    ]

    def __init__(
        self, engine: Engine, settings: Settings, options: AppOptions | None = None
    ) -> None:
        # Here, not in make_app: run_app makes its app directly (a warm start), and ran
        # with Textual's eager strip caches until a keystroke's frame was profiled.
        lazy_strips.install()
        super().__init__()
        options = options or AppOptions()
        self.engine = engine
        self.settings = settings
        self.watch_enabled = settings.index.watch if options.watch is None else options.watch
        self.build_enabled = options.build
        self.clock: Clock = options.clock or dt.datetime.now
        self.persist_theme = options.persist_theme
        self.build_cancel = threading.Event()
        self.index_unsaved = False
        self.save_lock = threading.Lock()
        self._save_timer: Timer | None = None
        self._told_save_error: str | None = None
        self.watch_stop = asyncio.Event()
        self.watch_armed = threading.Event()
        self.saved_index_shown = threading.Event()
        self.main_screen = MainScreen()
        self.startup_notes: list[tuple[str, str]] = []
        user_dirs = options.theme_dirs if options.theme_dirs is not None else [user_themes_dir()]
        loaded = load_themes(*user_dirs)
        self.reme_themes: list[str] = []
        for loaded_theme in [*load_bundled_themes(), *loaded.themes]:
            self.register_theme(loaded_theme)
            if loaded_theme.name not in self.reme_themes:
                self.reme_themes.append(loaded_theme.name)
        for error in loaded.errors:
            self.startup_notes.append((f"Theme skipped: {error}", "warning"))
        for warning in settings.warnings:
            self.startup_notes.append((f"Config: {warning}", "warning"))
        self.requested_theme = options.theme or settings.theme
        unknown = unknown_keymap_ids(settings.keymap, key_sections()) if settings.keymap else []
        for binding_id in unknown:
            self.startup_notes.append(
                (
                    f"Config: [keymap] {binding_id!r} is not a key binding id (see ? for them)",
                    "warning",
                )
            )
        if settings.keymap:
            self.set_keymap(settings.keymap)
        if settings.history.enabled and engine.history is None:
            try:
                engine.attach_history(
                    ChangeHistory.for_workspace(
                        engine.root, retention_days=settings.history.retention_days
                    )
                )
            except HistoryError as error:
                self.startup_notes.append((f"No change history: {error}", "warning"))
        if engine.history is not None and engine.history.notice:
            self.startup_notes.append((f"Change history: {engine.history.notice}", "warning"))

    # -- keys follow the focus ------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            event.handed_to = self.focused  # type: ignore[attr-defined]
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        """A key no widget used comes back here to run the bindings. If an earlier key
        (its binding) moved the focus meanwhile, the key was typed for the new place: hand
        it there instead of running the old place's single-key commands (ui/focus.py)."""
        if bindings_ran(event):
            event.prevent_default()  # the widget it was handed to ran them in order
            return
        target = getattr(event, "handed_to", None)
        focused = self.focused
        if target is not None and focused is not None and focused is not target:
            event.prevent_default()  # App._on_key would run the bindings
            follow = events.Key(event.key, event.character)
            follow.handed_to = focused  # type: ignore[attr-defined]
            focused._forward_event(follow)

    # -- lifecycle ----------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        return self.main_screen

    def get_line_filters(self) -> Sequence[LineFilter]:
        # Every widget asks this for each line it paints: the guard sees all painted text.
        return [*super().get_line_filters(), PAINT_GUARD]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast is plain text (``markup`` is ignored): its words come from file
        names, tags and errors, and Textual would read them as markup. A memory named
        ``[@click=app.quit]x.md`` made a rename toast a link that quit the app, and
        "[history] enabled = false" lost its brackets. Screens and widgets pass
        ``markup=True`` by default, so it cannot be a default here."""
        super().notify(
            for_terminal(message),
            title=for_terminal(title),  # it may name the file too ("daily/x.md not tagged")
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def on_mount(self) -> None:
        self._apply_theme(self.requested_theme)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        for message, severity in self.startup_notes:
            self.notify(message, severity=severity, timeout=8)  # type: ignore[arg-type]
        if self.build_enabled:
            self.build_index()  # starts the watcher just before it scans (arm_watcher)
        if self.settings.index.model:
            self.load_model()
        if self.watch_enabled and not self.build_enabled:
            self.watch_workspace()
        self._quit_on_sigterm(True)

    def _quit_on_sigterm(self, on: bool) -> None:
        """SIGTERM quits the way `q` does (terminal restored, index saved) instead of the
        default action killing the app mid-screen with unsaved changes (issue 26)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            if on:
                loop.add_signal_handler(signal.SIGTERM, self.exit)
            else:
                loop.remove_signal_handler(signal.SIGTERM)

    def on_unmount(self) -> None:
        self.build_cancel.set()
        self.watch_stop.set()
        self.engine.stop_embedding(timeout=2.0)
        # On quit: wait for a save under way (its thread would die with the process), then
        # save what is left, so the next start comes up warm with every change.
        with self.save_lock:
            if self.index_unsaved and self.engine.is_built:
                self.engine.save()
        self._quit_on_sigterm(False)

    def _apply_theme(self, name: str) -> None:
        if name in self.available_themes:
            self.theme = name
            return
        self.notify(f"Unknown theme {name!r}; using {DEFAULT_THEME}", severity="warning")
        self.theme = DEFAULT_THEME  # bundled: its absence stops the app at start

    def _theme_changed(self, theme: Theme) -> None:
        if not self.persist_theme or theme.name == self.settings.theme:
            return
        try:
            save_theme(theme.name, self.settings.config_path)
        except (OSError, ConfigSaveError) as error:
            self.notify(f"Could not save the theme: {error}", severity="warning")
            return
        self.settings = replace(self.settings, theme=theme.name)

    def now(self) -> str:
        return self.clock().strftime("%H:%M:%S")

    # -- workers ------------------------------------------------------------

    @work(thread=True, exclusive=True, group="index", name="index", exit_on_error=False)
    def build_index(self) -> None:
        """The first full scan (or the saved index), in a thread; the screen paints before
        it finishes. Saving a fresh index waits until the screen has it."""
        screen = self.main_screen
        started = time.perf_counter()
        notices: list[str] = []  # a saved index rebuilt or not saved: told, not fatal
        checking = threading.Event()

        def progress(done: int, total: int) -> None:
            if not checking.is_set():  # the check after a restore: the screen says so
                _post_progress(screen, done, total)

        def before_scan() -> None:
            if self.engine.is_built:  # the saved index, restored: shown before the check
                checking.set()
                screen.post_message(IndexLoaded(time.perf_counter() - started))
                # Painted before the scan and the watcher's set-up compete for the GIL.
                self.saved_index_shown.wait(SHOWN_WAIT_S)
            self.arm_watcher()

        try:
            outcome = self.engine.build(
                progress=progress,
                cancel=self.build_cancel,
                notice=notices.append,
                save=False,
                before_scan=before_scan,
            )
        except (OSError, WorkspaceError) as error:
            screen.post_message(IndexBuilt(time.perf_counter() - started, error=str(error)))
            return
        if self.build_cancel.is_set():
            return
        elapsed = time.perf_counter() - started
        # Marked before the screen hears of it: a quit right after "index ready" must find
        # the index unsaved and save it (the history's baseline below takes seconds at 10k,
        # and a quit during it used to leave no saved index at all).
        self.index_unsaved = self.index_unsaved or outcome.unsaved
        screen.post_message(IndexBuilt(elapsed, notices=notices, warm=outcome.warm))
        if outcome.unsaved:
            self.save_index_now()
        self.record_history_at_start()
        self.prune_merge_journal()

    def record_history_at_start(self) -> None:
        """What changed while reme-tui was closed (the first time: a silent baseline), then
        the retention period; runs in the index thread, after the index is usable."""
        history = self.engine.history
        if history is None:
            return
        try:
            self.engine.sync_history()
            history.prune()
        except HistoryError as error:
            self.main_screen.post_message(HistoryCounted(None, 0, str(error)))
            return
        self.count_history()

    def prune_merge_journal(self) -> None:
        """Finished merge-journal entries older than the history's retention period go
        (each holds whole memories); unfinished ones stay for undo or resume."""
        # Problems are reported when the journal is used (undo, resume), not here.
        with contextlib.suppress(OSError):
            Journal(self.engine.root).prune(self.settings.history.retention_days)

    def index_changed(self) -> None:
        """Save the index a little after the last change of a burst, in the background."""
        self.index_unsaved = True
        if self._save_timer is not None:
            self._save_timer.stop()
        self._save_timer = self.set_timer(SAVE_DELAY, self.save_index)

    @work(thread=True, exclusive=True, group="save", name="save", exit_on_error=False)
    def save_index(self) -> None:
        self.save_index_now()

    def save_index_now(self) -> None:
        with self.save_lock:
            self.index_unsaved = False
            if not self.engine.save():
                self.index_unsaved = True  # kept for the next change or the quit
            error = self.engine.save_error
            if error is not None and error != self._told_save_error:
                # Told once per reason (a full cache dir fails every save of a burst);
                # notify() is thread-safe, and this runs in the index or save thread.
                self.notify(error, title="Saved index", severity="warning", timeout=10)
            self._told_save_error = error

    @work(thread=True, exclusive=True, group="model", name="model", exit_on_error=False)
    def load_model(self) -> None:
        """Load the embedding model (semantic search) while the index builds."""
        index, post = self.settings.index, self.main_screen.post_message
        start_semantic(self.engine, index.model, index.allow_download, post)

    def index_shown(self) -> None:
        """The screen has painted the restored saved index (the check may begin)."""
        self.saved_index_shown.set()

    def arm_watcher(self) -> None:
        """From the build's thread, just before it scans: start watching the workspace and
        wait until the watcher is being set up, so a change after the scan is seen. (At
        mount its set-up, ~0.1 s at 10k memories and ~0.35 s at 50k holding the GIL, fell
        between the start and the first screen.)"""
        if self.watch_enabled and self.call_later(self.watch_workspace):
            self.watch_armed.wait(ARM_WAIT_S)

    @work(exclusive=True, group="watcher", name="watcher", exit_on_error=False)
    async def watch_workspace(self) -> None:
        """Live updates: apply each batch of file changes and tell the screen."""
        pending: list[str] = []
        all_markdown = self.engine.config.all_markdown
        async for batch in awatch_batches(
            self.engine.root,
            stop_event=self.watch_stop,
            all_markdown=all_markdown,
            also=self.engine.is_link_target,
            roots=self.engine.config.memory_roots,
            on_start=self.watch_armed.set,
        ):
            pending.extend(batch)
            if not self.engine.is_built:
                continue  # the build in progress will see these files
            changes, pending = pending, []
            await self.apply_changes(changes)

    async def apply_changes(self, changes: list[str]) -> None:
        """Route changed paths through the engine and refresh what the delta touches.

        The engine works in a thread; the status bar says an update is under way, so
        nothing claims to be current until the delta is published."""
        self.main_screen.post_message(IndexUpdating(len(changes)))
        try:
            delta = await asyncio.to_thread(self.engine.apply, changes)
        finally:
            self.main_screen.post_message(IndexUpdating(0))
        self.publish(delta)

    def publish(self, delta: Delta | None) -> None:
        """Tell the screens what an engine change (a batch, an edit, a merge) moved."""
        if delta is not None and not delta.is_empty:
            self.main_screen.post_message(IndexUpdated(delta))
            self.history_changed()
            self.index_changed()

    def history_changed(self) -> None:
        """The history recorded or marked something: recount, refresh an open Changes view."""
        from reme_tui.ui.screens.changes import ChangesScreen, HistoryChanged

        if self.engine.history is None:
            return
        self.count_history()
        for screen in self.screen_stack:
            if isinstance(screen, ChangesScreen):
                screen.post_message(HistoryChanged())

    @work(
        thread=True,
        exclusive=True,
        group="history-count",
        name="history-count",
        exit_on_error=False,
    )
    def count_history(self) -> None:
        history = self.engine.history
        if history is None:
            return
        try:
            count, size = history.unreviewed_count(), history.size_bytes()
        except HistoryError as error:
            self.main_screen.post_message(HistoryCounted(None, 0, str(error)))
            return
        self.main_screen.post_message(HistoryCounted(count, size))

    # -- actions used by the screen ----------------------------------------

    def open_in_editor(self, path: str, line: int | None = None) -> None:
        """Suspend the app, run $VISUAL/$EDITOR on the memory, then re-read it."""
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        command = shlex.split(editor)
        if line and Path(command[0]).name in _LINE_EDITORS:
            command.append(f"+{line}")
        try:
            real = self.engine.resolve(path)
        except PathOutsideWorkspace:
            self.notify(f"{path} leads outside the workspace; not opened", severity="error")
            return
        command.append(str(real))
        try:
            try:
                with self.suspend():
                    subprocess.run(command, check=False)
            except SuspendNotSupported:
                if not self.is_headless:
                    message = "This terminal cannot suspend the app for an editor"
                    self.notify(message, severity="error")
                    return
                subprocess.run(command, check=False)  # no terminal to hand over
        except OSError as error:
            self.notify(f"Could not run {command[0]}: {error}", severity="error")
            return
        self.refresh()
        # Applied here, before the watcher's batch for the same write can run: this edit
        # is the person's, not an agent's (issue 22: the Changes view said "agent").
        self.publish(self.engine.apply([path], source="editor", label=f"e in {command[0]}"))

    def on_open_source(self, message: OpenSource) -> None:
        message.stop()
        self.open_source(message.path, message.kind)

    def open_source(self, path: str, kind: str) -> None:
        """A conversation opens in the transcript viewer; an image with the system opener;
        any other source in $EDITOR."""
        from reme_tui.engine.reme import IMAGE_SUFFIXES
        from reme_tui.ui.screens.transcript import TranscriptScreen

        if not kind and Path(path).suffix.lower() in IMAGE_SUFFIXES:
            kind = "image"
        if kind == "conversation" or path.lower().endswith(".jsonl"):
            try:
                transcript = self.engine.read_transcript(path)
            except PathOutsideWorkspace:
                self.notify(f"{path} leads outside the workspace; not opened", severity="error")
                return
            except OSError as error:
                reason = getattr(error, "strerror", None) or str(error)
                self.notify(f"Cannot read {path}: {reason}", severity="error")
                return
            self.push_screen(TranscriptScreen(path, transcript))
        elif kind == "image":
            self.open_with_system(path)
        else:
            self.open_in_editor(path)

    def open_with_system(self, path: str) -> None:
        """Hand a file (an image) to the desktop's opener, without waiting for it."""
        try:
            real = self.engine.resolve(path)
        except PathOutsideWorkspace:
            self.notify(f"{path} leads outside the workspace; not opened", severity="error")
            return
        opener = "open" if sys.platform == "darwin" else "xdg-open"
        try:
            subprocess.Popen(
                [opener, str(real)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            self.notify(f"Could not run {opener}: {error.strerror or error}", severity="error")

    def open_tag_editor(self, path: str | None) -> None:
        """The inline tag editor (issue #5) for the previewed memory; `t` lands here."""
        from reme_tui.ui.screens.edit_tags import open_tag_editor

        if path is None:
            self.notify("Open a memory first", severity="warning")
            return
        open_tag_editor(self, path)

    def open_tag_dupes(self) -> None:
        """The near-duplicate tag review (issue #6); `d` lands here."""
        from reme_tui.ui.screens.dupes import DupesScreen

        if not isinstance(self.screen, DupesScreen):
            self.push_screen(DupesScreen())

    def action_changes(self) -> None:
        """The Changes view (issue 15); `c` lands here."""
        from reme_tui.ui.screens.changes import ChangesScreen

        if self.engine.history is None:
            self.notify("The change history is off ([history] enabled = false)", severity="warning")
            return
        if isinstance(self.screen, ChangesScreen):
            return
        # Installed once: a second visit reuses the composed screen and only reloads.
        if not self.is_screen_installed("changes"):
            self.install_screen(ChangesScreen(), "changes")
        screen = self.get_screen("changes")
        assert isinstance(screen, ChangesScreen)
        screen.loaded = False  # until this visit's reload is shown
        self.push_screen(screen)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own commands, but "Keys" opens the help screen: Textual's keys panel
        stayed open on Escape (the main screen's Escape leaves the input first) and listed
        only the focused widget's keys."""
        for command in super().get_system_commands(screen):
            if command.title != "Keys":
                yield command
        yield SystemCommand("Keys", "Every key of every screen (?)", self.action_help)

    def action_help(self) -> None:
        from reme_tui.ui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        config = self.settings.config_path or default_config_path()
        self.push_screen(HelpScreen(self.key_table(), config))

    def action_diagnostics(self) -> None:
        from reme_tui.ui.screens.diagnostics import DiagnosticsScreen

        if isinstance(self.screen, DiagnosticsScreen):
            return
        self.push_screen(DiagnosticsScreen(self.engine.diagnostics()), self._diagnostic_chosen)

    def action_untagged(self) -> None:
        """The untagged review with the engine's suggestions; `u` lands here."""
        from reme_tui.ui.screens.untagged import UntaggedScreen

        if not isinstance(self.screen, UntaggedScreen):
            self.push_screen(UntaggedScreen(), self._diagnostic_chosen)

    def _diagnostic_chosen(self, path: str | None) -> None:
        if path is not None:
            self.main_screen.open_memory(path)

    def action_reindex(self) -> None:
        self.build_index()

    def key_table(self) -> list[tuple[str, list[KeyRow]]]:
        """Every binding by where it works, with its keys as remapped by the keymap."""
        sections = key_table(self, self.settings.keymap, key_sections())
        sections[0][1].append(KeyRow("ctrl+p", "Command palette", "command_palette"))
        return sections

    def palette_commands(self) -> list[Command]:
        """Every action, for the command palette."""
        screen = self.main_screen
        commands: list[Command] = []
        for binding in MainScreen.BINDINGS:
            if not isinstance(binding, Binding) or binding.id in {"leave_input", None}:
                continue
            keys = display_keys(self, binding, self.settings.keymap)
            help_text = f"{binding.tooltip or binding.description} ({keys})"
            commands.append(
                (binding.description, help_text, partial(self.run_action, binding.action, screen))
            )
        for pane in ("search", "tags", "results", "preview", "links"):
            commands.append(
                (
                    f"Focus {pane}",
                    f"Move the cursor to the {pane} pane",
                    partial(screen.action_focus_pane, pane),
                )
            )
        sidebar = screen.query_one(TagSidebar)
        commands += [
            ("Sort tags by name / count", "Switch the tag sidebar order", sidebar.toggle_sort),
            (
                "Clear search and filters",
                "Empty the query, chips and dates",
                screen.action_clear_search,
            ),
            (
                "Show diagnostics",
                "What ReMe would silently drop, per file",
                self.action_diagnostics,
            ),
            (
                "Review near-duplicate tags",
                "Merge, undo or dismiss tag spellings of one entity (d)",
                self.open_tag_dupes,
            ),
            (
                "Review changes",
                "What the agent changed: diffs, review marks, revert (c)",
                self.action_changes,
            ),
            ("Toggle sidebar", "Show or hide the tag sidebar", screen.action_toggle_sidebar),
            ("Re-index workspace", "Scan every file again", self.action_reindex),
        ]
        for name in sorted(self.available_themes):
            mark = " (current)" if name == self.theme else ""
            commands.append(
                (
                    f"Theme: {name}{mark}",
                    "Switch theme (remembered)",
                    partial(setattr, self, "theme", name),
                )
            )
        return commands


def make_app(
    workspace: Path,
    config: Settings | None = None,
    options: AppOptions | None = None,
    *,
    engine: Engine | None = None,
) -> RemeApp:
    """Build the app for ``workspace`` (tests pass options without a watcher and a fixed
    clock); raises WorkspaceError when the workspace cannot be opened."""
    options = options or AppOptions()
    settings = with_overrides(config or load_settings(), options)
    if engine is None:
        engine = app_engine(workspace, settings, options)
    return RemeApp(engine, settings, options)


def run_app(
    workspace: Path,
    options: AppOptions | None = None,
    config_path: Path | None = None,
    *,
    early: EarlyStart | None = None,
) -> int:
    """Run the terminal app; returns the process exit code (WorkspaceError propagates).

    ``early``: what `start_early` set up before this module (and Textual) was imported,
    the saved index already being read; without it, it is set up here."""
    if early is None:
        early = start_early(workspace, options, config_path)
    app = RemeApp(early.engine, early.settings, options)
    try:
        app.run()
    finally:
        drop_standby_pool()
    return app.return_code or 0


if TYPE_CHECKING:

    def _satisfies_host(app: RemeApp) -> Host:
        return app  # mypy checks here that the app offers what screens expect
