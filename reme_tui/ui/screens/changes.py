"""The Changes view (key ``c``): what the agent changed, reviewed and reverted here.

A timeline of the change history (engine/history/database.py), newest first, grouped by day and by
burst; selecting an entry shows its diff with tag and frontmatter changes called out above
the body diff. Reading the history and computing diffs run in thread workers; reverts go
through ``Engine.revert`` (the engine's write path) after a dry-run listing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Label, Static
from textual.widgets.data_table import CellDoesNotExist

from reme_tui.engine.history import (
    Burst,
    ChangeDiff,
    ChangeEntry,
    ChangeFilter,
    HistoryError,
    HistoryStats,
    bursts,
    diff_entry,
    tag_churn,
)
from reme_tui.engine.write import RevertError, RevertPlan, plan_undo, plan_version
from reme_tui.ui.focus import OrderedInput
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.screens.dry_run import DryRunConfirmScreen, diff_line_style
from reme_tui.ui.worker_failures import ShowsWorkerFailures

_KIND_MARK = {"created": "+", "modified": "~", "deleted": "−", "moved": "→"}
_KIND_STYLE = {"created": "green", "modified": "yellow", "deleted": "red", "moved": "cyan"}
_SOURCE_WORDS = {
    "watch": "agent",
    "start": "while closed",
    "edit": "tag edit here",
    "merge": "merge here",
    "undo": "undo here",
    "revert": "revert here",
}
# Paths and names are cut to this many cells so the summary column stays in view.
MEMORY_WIDTH = 40
# The timeline reads this many entries at a time (more as the cursor nears the end).
PAGE = 200
# Diffs longer than this many lines are cut in the view (scripts get all of it).
_MAX_DIFF_LINES = 2000


@dataclass
class TimelineLoaded(Message):
    entries: list[ChangeEntry]
    stats: HistoryStats
    matching: int

    def __post_init__(self) -> None:
        super().__post_init__()
        self.groups = bursts(self.entries)


@dataclass
class DiffLoaded(Message):
    diff: ChangeDiff


@dataclass
class HistoryFailed(Message):
    """Reading or marking the history failed with ``text``."""

    text: str


@dataclass
class Marked(Message):
    count: int


@dataclass
class Reverted(Message):
    result: Any  # revert.RevertResult
    delta: Any  # the engine's Delta


@dataclass
class ChurnReady(Message):
    view: Any  # a renderable for the diff pane


@dataclass
class HistoryChanged(Message):
    """The history recorded something new (live updates, reviews, reverts)."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, HistoryChanged)


def _when(time_ns: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(time_ns / 1e9)


def format_size(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return f"{size} B"


def group_title(group: Burst) -> Text:
    start, end = _when(group.start_ns), _when(group.end_ns)
    span = start.strftime("%Y-%m-%d %H:%M")
    if end.strftime("%H:%M") != start.strftime("%H:%M"):
        span += f"–{end.strftime('%H:%M')}"
    count = len(group.entries)
    who = _SOURCE_WORDS.get(group.source, group.source)
    text = Text(f"{span}  {who}: {count} change{'s' if count != 1 else ''}", style="bold")
    if group.label:
        text.append(f" — {group.label}")
    if group.undo:
        text.append(f" (undo: d, then u · journal {group.undo})", style="dim")
    if group.unreviewed:
        text.append(f"  {group.unreviewed} to review", style="bold yellow")
    return text


def group_cells(group: Burst) -> tuple[Text, Text, Text, Text]:
    """A group's row: when, who and how many, then what it was (label, undo)."""
    count = len(group.entries)
    who = _SOURCE_WORDS.get(group.source, group.source)
    title = Text(f"{who}: {count} change{'s' if count != 1 else ''}", style="bold")
    if group.unreviewed:
        title.append(f", {group.unreviewed} to review", style="bold yellow")
    label = Text(group.label, style="bold")
    if group.undo:
        label.append(" (undo: d, then u)", style="dim")
    when = Text(f"{_when(group.start_ns):%m-%d %H:%M}", style="bold")
    return Text("▾", style="bold"), when, title, label


def entry_cells(entry: ChangeEntry) -> tuple[Text, Text, Text, Text]:
    mark = Text("●" if not entry.reviewed else " ", style="yellow")
    kind = Text(f"{_KIND_MARK[entry.kind]} {entry.kind}", style=_KIND_STYLE.get(entry.kind, ""))
    where = Text(entry.path, overflow="ellipsis", no_wrap=True)
    if entry.name:
        where.append(f"  {entry.name}", style="dim")
    where.truncate(MEMORY_WIDTH, overflow="ellipsis")
    return mark, kind, where, Text(entry.summary)


def diff_view(diff: ChangeDiff) -> Text:
    """The call-outs (tags, frontmatter) above the body diff."""
    entry = diff.entry
    text = Text()
    text.append(f"{entry.kind} {entry.path}", style="bold")
    if entry.old_path:
        text.append(f"  (was {entry.old_path})")
    text.append(f"\n#{entry.id} · {_when(entry.time_ns):%Y-%m-%d %H:%M:%S}")
    text.append(f" · {_SOURCE_WORDS.get(entry.source, entry.source)}")
    if entry.name:
        text.append(f" · {entry.name}")
    text.append(f"\n{entry.summary}\n", style="italic")
    if diff.error:
        text.append(f"\n{diff.error}\n", style="bold red")
        return text
    if diff.tags_before != diff.tags_after:
        removed = [t for t in diff.tags_before if t not in diff.tags_after]
        added = [t for t in diff.tags_after if t not in diff.tags_before]
        text.append("\nTags  ", style="bold")
        for tag in removed:
            text.append(f"−{tag} ", style="red")
        for tag in added:
            text.append(f"+{tag} ", style="green")
        if not removed and not added:
            text.append("reordered ")
        text.append(f"\n      now: {', '.join(diff.tags_after) or '(none)'}\n", style="dim")
    if diff.fields:
        text.append("\nFrontmatter\n", style="bold")
        for change in diff.fields:
            text.append(f"  {change.key}: ")
            text.append(change.before if change.before is not None else "(absent)", style="red")
            text.append(" → ")
            text.append(change.after if change.after is not None else "(absent)", style="green")
            text.append("\n")
    if entry.note:
        text.append(f"\n{entry.note}\n", style="cyan")
    text.append("\nBody\n", style="bold")
    lines = diff.body_diff.splitlines()
    if not lines:
        text.append("  (no change to the body)\n", style="dim")
    for line in lines[:_MAX_DIFF_LINES]:
        text.append(line + "\n", style=diff_line_style(line))
    if len(lines) > _MAX_DIFF_LINES:
        text.append(f"… {len(lines) - _MAX_DIFF_LINES} more lines (--changes --json has all)\n")
    return text


def churn_view(entries: list[ChangeEntry]) -> Text:
    churn = tag_churn(entries)
    text = Text("Tag churn (added / removed, every recorded change)\n\n", style="bold")
    if not churn:
        text.append("No tag was added or removed.\n", style="dim")
    ordered = sorted(churn.items(), key=lambda kv: (-(kv[1]["added"] + kv[1]["removed"]), kv[0]))
    for tag, counts in ordered:
        text.append(f"  {tag:<32}")
        text.append(f"+{counts['added']:<5}", style="green")
        text.append(f"−{counts['removed']}\n", style="red")
    return text


class RevertConfirmScreen(DryRunConfirmScreen):
    """The dry run of a revert: every file it will write, restore or remove."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Revert", id="changes.revert_confirm"),
        Binding("escape,n,q", "cancel", "Cancel", id="changes.revert_cancel"),
    ]

    def __init__(self, plan: RevertPlan) -> None:
        super().__init__()
        self.plan = plan

    def compose(self) -> ComposeResult:
        count = len(self.plan.steps)
        with Vertical(id="revert-body"):
            yield Label(
                f"{self.plan.label}: {count} file{'s' if count != 1 else ''} — "
                "y reverts, Esc cancels (refused for any file changed since)",
                id="revert-title",
            )
            with VerticalScroll(id="revert-scroll"):
                yield Static("\n".join(self.plan.listing()), id="revert-listing")
            yield Footer()


class ChangesScreen(ShowsWorkerFailures, Screen[None]):
    """The timeline on the left, the selected change's diff on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="changes.close"),
        Binding("space", "mark_reviewed", "Reviewed", id="changes.mark"),
        Binding("M", "mark_all", "All reviewed", id="changes.mark_all"),
        Binding("u", "toggle_unreviewed", "To review", id="changes.unreviewed"),
        Binding("slash", "focus_filter", "Filter", id="changes.filter"),
        Binding("r", "revert", "Revert", id="changes.revert"),
        Binding("R", "revert_group", "Revert group", id="changes.revert_group"),
        Binding("v", "restore_version", "This version", id="changes.version"),
        Binding("T", "churn", "Tag churn", id="changes.churn"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[Burst] = []
        self.entries: dict[int, ChangeEntry] = {}
        self.group_of_row: dict[str, Burst] = {}
        self.unreviewed_only = False
        self.filter = ChangeFilter()
        self.shown: ChangeDiff | None = None
        self.loaded_entries: list[ChangeEntry] = []
        self.more_left = False
        self.loaded = False

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    def compose(self) -> ComposeResult:
        yield Label("Changes — reading the history…", id="changes-title")
        with Horizontal(id="changes-filter-row"):
            yield OrderedInput(
                placeholder="filter: kind:modified tag:project_atlas path:digest/",
                id="changes-filter",
            )
            yield Label("", id="changes-mode")
        with Horizontal(id="changes-body"):
            yield DataTable(id="changes-table", cursor_type="row", zebra_stripes=False)
            with VerticalScroll(id="changes-diff-scroll"):
                yield Static("Select a change to see its diff.", id="changes-diff")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("", width=1)
        table.add_column("kind", width=11)
        table.add_column("memory", width=MEMORY_WIDTH)
        table.add_column("what changed")
        self._show_mode()

    def on_screen_resume(self) -> None:
        """Each visit reads the history afresh (it may have grown while away)."""
        self.query_one(DataTable).focus()
        self.load()

    # -- loading -------------------------------------------------------------

    @work(thread=True, exclusive=True, group="changes-load", exit_on_error=False)
    def load(self, more: bool = False) -> None:
        """The newest page of entries passing the filters (``more``: the next page too);
        a reload keeps as many entries as are shown."""
        history = self.reme.engine.history
        if history is None:
            return
        kept = self.loaded_entries if more else []
        before = (kept[-1].time_ns, kept[-1].id) if kept else None
        limit = PAGE if more else max(PAGE, len(self.loaded_entries))
        try:
            page = history.entries(where=self.filter, limit=limit, before=before)
            stats = history.stats()
            matching = history.count(self.filter)
        except HistoryError as error:
            self.post_message(HistoryFailed(str(error)))
            return
        self.post_message(TimelineLoaded([*kept, *page], stats, matching))

    @on(HistoryFailed)
    def _history_failed(self, message: HistoryFailed) -> None:
        self.notify(message.text, severity="error")

    @on(TimelineLoaded)
    def _loaded(self, message: TimelineLoaded) -> None:
        table = self.query_one(DataTable)
        if message.entries == self.loaded_entries and table.row_count:
            # A revisit with nothing new (the usual case): rebuilding the same rows was
            # most of the time it took to open the view again.
            self._show_title(message)
            self.loaded = True
            return
        selected = self._selected_key()
        table.clear()
        self.loaded_entries = message.entries
        self.more_left = len(message.entries) < message.matching
        self.groups = message.groups
        self.entries = {}
        self.group_of_row = {}
        rows: list[tuple[object, ...]] = []
        keys: list[str] = []
        for group in message.groups:
            key = f"g:{group.key}"
            self.group_of_row[key] = group
            rows.append(group_cells(group))
            keys.append(key)
            for entry in group.entries:
                self.entries[entry.id] = entry
                self.group_of_row[f"e:{entry.id}"] = group
                rows.append(entry_cells(entry))
                keys.append(f"e:{entry.id}")
        for row, key in zip(rows, keys, strict=True):
            table.add_row(*row, key=key)
        stats = self._show_title(message)
        if not rows:
            self.query_one("#changes-diff", Static).update(
                "No changes recorded yet." if not stats.entries else "No change matches."
            )
        if selected in keys:
            table.move_cursor(row=keys.index(selected), animate=False)
        elif len(keys) > 1:
            table.move_cursor(row=1, animate=False)
        self.loaded = True

    def _show_title(self, message: TimelineLoaded) -> HistoryStats:
        stats = message.stats
        shown = len(message.entries)
        title = (
            f"Changes — {stats.entries} recorded, {stats.unreviewed} to review"
            f" · history {format_size(stats.size_bytes)}"
        )
        if shown != stats.entries:
            title += f" · showing {shown} of {message.matching}"
        self.query_one("#changes-title", Label).update(title)
        return stats

    def _selected_key(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        try:
            return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        except CellDoesNotExist:
            return None

    def selected_entry(self) -> ChangeEntry | None:
        key = self._selected_key()
        if key and key.startswith("e:"):
            return self.entries.get(int(key[2:]))
        return None

    def selected_group(self) -> Burst | None:
        key = self._selected_key()
        return self.group_of_row.get(key) if key else None

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        table = self.query_one(DataTable)
        if self.more_left and table.cursor_row >= table.row_count - 10:
            self.more_left = False  # one page at a time
            self.load(more=True)
        entry = self.selected_entry()
        if entry is not None:
            self.load_diff(entry)
        elif (group := self.selected_group()) is not None:
            self.query_one("#changes-diff", Static).update(
                Text.assemble(
                    group_title(group),
                    "\n\nR reverts the whole group (dry run first); space marks it reviewed.",
                )
            )

    @work(thread=True, exclusive=True, group="changes-diff", exit_on_error=False)
    def load_diff(self, entry: ChangeEntry) -> None:
        history = self.reme.engine.history
        if history is None:
            return
        self.post_message(DiffLoaded(diff_entry(history, entry, self.reme.engine.config.tag_field)))

    @on(DiffLoaded)
    def _diff_loaded(self, message: DiffLoaded) -> None:
        self.shown = message.diff
        self.query_one("#changes-diff", Static).update(diff_view(message.diff))

    @on(HistoryChanged)
    def _history_changed(self) -> None:
        self.load()

    # -- filters -------------------------------------------------------------

    @on(Input.Changed, "#changes-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter = ChangeFilter.parse(event.value, unreviewed=self.unreviewed_only)
        self.load()

    @on(Input.Submitted, "#changes-filter")
    def _filter_submitted(self) -> None:
        self.query_one(DataTable).focus()

    def action_focus_filter(self) -> None:
        self.query_one("#changes-filter", Input).focus()

    def action_toggle_unreviewed(self) -> None:
        self.unreviewed_only = not self.unreviewed_only
        text = self.query_one("#changes-filter", Input).value
        self.filter = ChangeFilter.parse(text, unreviewed=self.unreviewed_only)
        self._show_mode()
        self.load()

    def _show_mode(self) -> None:
        mode = "since last review (u: all)" if self.unreviewed_only else "all (u: to review)"
        self.query_one("#changes-mode", Label).update(mode)

    # -- review --------------------------------------------------------------

    def action_mark_reviewed(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            ids = [entry.id]
        elif (group := self.selected_group()) is not None:
            ids = [e.id for e in group.entries]
        else:
            return
        self._mark(ids)

    def action_mark_all(self) -> None:
        self._mark(None)

    @work(thread=True, exclusive=True, group="changes-mark", exit_on_error=False)
    def _mark(self, ids: list[int] | None) -> None:
        history = self.reme.engine.history
        if history is None:
            return
        try:
            count = history.mark_reviewed(ids) if ids is not None else history.mark_reviewed_until()
        except HistoryError as error:
            self.post_message(HistoryFailed(str(error)))
            return
        self.post_message(Marked(count))

    @on(Marked)
    def _marked(self, message: Marked) -> None:
        self.reme.history_changed()
        self.notify(f"{message.count} marked reviewed", timeout=2)

    # -- revert --------------------------------------------------------------

    def action_revert(self) -> None:
        entry = self.selected_entry()
        if entry is None:
            self.action_revert_group()
            return
        self._confirm(plan_undo([entry]))

    def action_revert_group(self) -> None:
        group = self.selected_group()
        if group is None:
            return
        self._confirm(plan_undo(list(group.entries), label=f"revert {group.label or 'group'}"))

    def action_restore_version(self) -> None:
        entry = self.selected_entry()
        history = self.reme.engine.history
        if entry is None or history is None:
            return
        try:
            plan = plan_version(history, entry.path, entry.id)
        except (RevertError, HistoryError) as error:
            self.notify(str(error), severity="warning")
            return
        self._confirm(plan)

    def _confirm(self, plan: RevertPlan) -> None:
        if not plan.steps:
            self.notify("Nothing to revert: the files already hold those versions", timeout=3)
            return

        def chosen(confirmed: bool | None) -> None:
            if confirmed:
                self.run_revert(plan)

        self.app.push_screen(RevertConfirmScreen(plan), chosen)

    @work(thread=True, exclusive=True, group="changes-revert", exit_on_error=False)
    def run_revert(self, plan: RevertPlan) -> None:
        result, delta = self.reme.engine.revert(plan)
        self.post_message(Reverted(result, delta))

    @on(Reverted)
    def _reverted(self, message: Reverted) -> None:
        self.reme.publish(message.delta)
        for path, why in message.result.refused:
            self.notify(f"{path}: {why}", title="Not reverted", severity="warning", timeout=8)
        if message.result.written:
            self.notify(f"Reverted {len(message.result.written)} file(s)", timeout=3)

    # -- tag churn and closing -----------------------------------------------

    @work(thread=True, exclusive=True, group="changes-churn", exit_on_error=False)
    def action_churn(self) -> None:
        """Tag churn over every entry passing the filters (not only the loaded pages)."""
        history = self.reme.engine.history
        if history is None:
            return
        try:
            entries = history.entries(where=self.filter)
        except HistoryError as error:
            self.post_message(HistoryFailed(str(error)))
            return
        self.post_message(ChurnReady(churn_view(entries)))

    @on(ChurnReady)
    def _churn_ready(self, message: ChurnReady) -> None:
        self.query_one("#changes-diff", Static).update(message.view)

    def action_close(self) -> None:
        self.app.pop_screen()
