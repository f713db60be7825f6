"""The Changes view (key ``c``): what the agent changed, reviewed and reverted here.

A timeline of the change history (engine/history/database.py), newest first, grouped by day and by
burst; selecting an entry shows its diff with tag and frontmatter changes called out above
the body diff. Reading the history and computing diffs run in thread workers; reverts go
through ``Engine.revert`` (the engine's write path) after a dry-run listing.

The timeline holds every entry passing the filters, so a group is always whole (its count,
its review mark and its revert cover all of it) however long the history; the list draws
only the rows on screen (a line-API list), so 10,000 entries cost what 30 do.
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
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Static

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
from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.focus import FollowsFocus, OrderedInput, focus_now
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.plain import plain_line
from reme_tui.ui.screens.dry_run import DryRunConfirmScreen, diff_line_style
from reme_tui.ui.widgets.line_list import LineList
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
KIND_WIDTH = 11
# The newest entries shown first, while the rest are read (10,000 take ~0.1-0.2 s).
FIRST_PAGE = 200
TIMELINE_HEADER = f"  {'kind':<{KIND_WIDTH}} {'memory':<{MEMORY_WIDTH}} what changed"
# Diffs longer than this many lines are cut in the view (scripts get all of it).
_MAX_DIFF_LINES = 2000


@dataclass
class TimelineLoaded(Message):
    """Entries for the timeline: the newest page first, then (``complete``) all of them."""

    entries: list[ChangeEntry]
    stats: HistoryStats
    complete: bool
    generation: int

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


# Everything an entry or a group says (paths, names, tags, summaries, labels, diffs, even
# the source and journal words) is read back from the history store, and came from the
# memories: `Text` and `Content` keep an ESC, so each piece is shown through
# `for_terminal` / `for_terminal_line` (``\x1b`` as text, never obeyed).


def _who(source: str) -> str:
    return for_terminal_line(_SOURCE_WORDS.get(source, source))


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
    who = _who(group.source)
    text = Text(f"{span}  {who}: {count} change{'s' if count != 1 else ''}", style="bold")
    if group.label:
        text.append(f" — {for_terminal_line(group.label)}")
    if group.undo:
        text.append(f" (undo: d, then u · journal {for_terminal_line(group.undo)})", style="dim")
    if group.unreviewed:
        text.append(f"  {group.unreviewed} to review", style="bold yellow")
    return text


def group_row(group: Burst) -> Content:
    """A group's row: when, who and how many, then what it was (label, undo)."""
    count = len(group.entries)
    who = _who(group.source)
    parts = [
        Content.styled("▾ ", "bold"),
        Content.styled(f"{_when(group.start_ns):%m-%d %H:%M}", "bold"),
        Content("  "),
        Content.styled(f"{who}: {count} change{'s' if count != 1 else ''}", "bold"),
    ]
    if group.unreviewed:
        parts.append(Content.styled(f", {group.unreviewed} to review", "bold $text-warning"))
    if group.label:
        parts.append(Content.styled(f"  {for_terminal_line(group.label)}", "bold"))
    if group.undo:
        parts.append(Content.styled(" (undo: d, then u)", "dim"))
    return Content.assemble(*parts)


def entry_row(entry: ChangeEntry) -> Content:
    """An entry's row: review mark, kind, memory (cut to `MEMORY_WIDTH`), what changed."""
    mark = Content.styled("●" if not entry.reviewed else " ", "$text-warning")
    kind = Content.styled(
        f"{_KIND_MARK[entry.kind]} {entry.kind}".ljust(KIND_WIDTH),
        _KIND_STYLE.get(entry.kind, ""),
    )
    where = Content(for_terminal_line(entry.path))
    if entry.name:
        name = for_terminal_line(entry.name)
        where = Content.assemble(where, Content.styled(f"  {name}", "dim"))
    where = where.truncate(MEMORY_WIDTH, ellipsis=True, pad=True)
    return Content.assemble(mark, " ", kind, " ", where, " ", for_terminal_line(entry.summary))


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """A group's heading (``entry`` None) or one of its entries."""

    key: str
    group: Burst
    entry: ChangeEntry | None


def timeline_rows(groups: list[Burst]) -> list[TimelineRow]:
    rows: list[TimelineRow] = []
    for group in groups:
        rows.append(TimelineRow(f"g:{group.key}", group, None))
        rows.extend(TimelineRow(f"e:{entry.id}", group, entry) for entry in group.entries)
    return rows


class Timeline(FollowsFocus, LineList):
    """The groups and their entries, one line each, drawn only where the screen shows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="changes.down"),
        Binding("k", "cursor_up", "Up", show=False, id="changes.up"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TimelineRow] = []

    def show(self, rows: list[TimelineRow], highlighted: int) -> None:
        self.rows = rows
        self.reset(len(rows), highlighted)

    @property
    def current(self) -> TimelineRow | None:
        index = self.highlighted
        return None if index is None or index >= len(self.rows) else self.rows[index]

    def row_content(self, index: int, width: int) -> Content:
        row = self.rows[index]
        return group_row(row.group) if row.entry is None else entry_row(row.entry)


class ChangesFilter(OrderedInput):
    """The filter box: Esc leaves it for the timeline (a second Esc closes the view)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back to the list", show=False, id="changes.filter_leave"),
    ]

    def action_leave(self) -> None:
        focus_now(self.screen.query_one(Timeline))


def diff_view(diff: ChangeDiff) -> Text:
    """The call-outs (tags, frontmatter) above the body diff."""
    entry, line = diff.entry, for_terminal_line
    text = Text()
    text.append(f"{line(entry.kind)} {line(entry.path)}", style="bold")
    if entry.old_path:
        text.append(f"  (was {line(entry.old_path)})")
    text.append(f"\n#{entry.id} · {_when(entry.time_ns):%Y-%m-%d %H:%M:%S}")
    text.append(f" · {_who(entry.source)}")
    if entry.name:
        text.append(f" · {line(entry.name)}")
    text.append(f"\n{line(entry.summary)}\n", style="italic")
    if diff.error:
        text.append(f"\n{for_terminal(diff.error)}\n", style="bold red")
        return text
    if diff.tags_before != diff.tags_after:
        removed = [t for t in diff.tags_before if t not in diff.tags_after]
        added = [t for t in diff.tags_after if t not in diff.tags_before]
        text.append("\nTags  ", style="bold")
        for tag in removed:
            text.append(f"−{line(tag)} ", style="red")
        for tag in added:
            text.append(f"+{line(tag)} ", style="green")
        if not removed and not added:
            text.append("reordered ")
        now = ", ".join(map(line, diff.tags_after)) or "(none)"
        text.append(f"\n      now: {now}\n", style="dim")
    if diff.fields:
        text.append("\nFrontmatter\n", style="bold")
        for change in diff.fields:
            text.append(f"  {line(change.key)}: ")
            text.append(line(change.before) if change.before is not None else "(absent)", "red")
            text.append(" → ")
            text.append(line(change.after) if change.after is not None else "(absent)", "green")
            text.append("\n")
    if entry.note:
        text.append(f"\n{for_terminal(entry.note)}\n", style="cyan")
    text.append("\nBody\n", style="bold")
    lines = diff.body_diff.splitlines()
    if not lines:
        text.append("  (no change to the body)\n", style="dim")
    for body_line in lines[:_MAX_DIFF_LINES]:  # the memory's own text
        text.append(for_terminal(body_line) + "\n", style=diff_line_style(body_line))
    if len(lines) > _MAX_DIFF_LINES:
        more = len(lines) - _MAX_DIFF_LINES
        text.append(f"… {more} more lines (reme-tui changes --json has all)\n")
    return text


def churn_view(entries: list[ChangeEntry]) -> Text:
    churn = tag_churn(entries)
    text = Text("Tag churn (added / removed, every recorded change)\n\n", style="bold")
    if not churn:
        text.append("No tag was added or removed.\n", style="dim")
    ordered = sorted(churn.items(), key=lambda kv: (-(kv[1]["added"] + kv[1]["removed"]), kv[0]))
    for tag, counts in ordered:
        text.append(f"  {for_terminal_line(tag):<32}")
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
            yield Label(  # the label names tags (a merge's), the listing paths: no markup
                plain_line(
                    f"{self.plan.label}: {count} file{'s' if count != 1 else ''} — "
                    "y reverts, Esc cancels (refused for any file changed since)"
                ),
                id="revert-title",
            )
            with VerticalScroll(id="revert-scroll"):
                listing = "\n".join(map(for_terminal_line, self.plan.listing()))
                yield Static(Content(listing), id="revert-listing")
            yield Footer()


class ChangesScreen(PacedFrames, ShowsWorkerFailures, Screen[None]):
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
        self.unreviewed_only = False
        self.filter = ChangeFilter()
        self.shown: ChangeDiff | None = None
        self.loaded_entries: list[ChangeEntry] = []
        self.loaded = False
        self.complete = False  # every matching entry is in the timeline (groups whole)
        self.stats: HistoryStats | None = None
        self.generation = 0  # of the newest load asked for: older answers are dropped

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    def compose(self) -> ComposeResult:
        yield Label("Changes — reading the history…", id="changes-title")
        with Horizontal(id="changes-filter-row"):
            yield ChangesFilter(
                placeholder="filter: kind:modified tag:project_atlas path:digest/",
                id="changes-filter",
            )
            yield Label("", id="changes-mode")
        with Horizontal(id="changes-body"):
            with Vertical(id="changes-timeline"):
                yield Label(TIMELINE_HEADER, id="changes-header")
                yield Timeline(id="changes-table")
            with VerticalScroll(id="changes-diff-scroll"):
                yield Static("Select a change to see its diff.", id="changes-diff")
        yield Footer()

    def on_mount(self) -> None:
        self._show_mode()

    def on_screen_resume(self) -> None:
        """Each visit reads the history afresh (it may have grown while away)."""
        self.query_one(Timeline).focus()
        self.load()

    # -- loading -------------------------------------------------------------

    def load(self) -> None:
        """Read the timeline again (see `_read`)."""
        self.generation += 1
        self._read(self.generation, self.loaded_entries, self.stats)  # replaced, never mutated

    @work(thread=True, exclusive=True, group="changes-load", exit_on_error=False)
    def _read(
        self, generation: int, shown: list[ChangeEntry], shown_stats: HistoryStats | None
    ) -> None:
        """Every entry passing the filters: the newest page at once, then the rest (the
        list draws only what is on screen). Nothing is posted when nothing changed."""
        history = self.reme.engine.history
        if history is None:
            return
        try:
            stats = history.stats()
            matching = history.count(self.filter)
            first = history.entries(where=self.filter, limit=FIRST_PAGE)
            if (
                shown
                and stats == shown_stats
                and matching == len(shown)
                and first == shown[: len(first)]
            ):
                self.post_message(TimelineLoaded(shown, stats, True, generation))
                return
            complete = len(first) >= matching
            self.post_message(TimelineLoaded(first, stats, complete, generation))
            if complete:
                return
            last = first[-1]
            rest = history.entries(where=self.filter, before=(last.time_ns, last.id))
        except HistoryError as error:
            self.post_message(HistoryFailed(str(error)))
            return
        self.post_message(TimelineLoaded([*first, *rest], stats, True, generation))

    @on(HistoryFailed)
    def _history_failed(self, message: HistoryFailed) -> None:
        self.notify(message.text, severity="error")

    @on(TimelineLoaded)
    def _loaded(self, message: TimelineLoaded) -> None:
        if message.generation != self.generation:
            return  # a newer read is on its way
        timeline = self.query_one(Timeline)
        self.stats, self.complete = message.stats, message.complete
        if message.entries is self.loaded_entries or (
            message.entries == self.loaded_entries and timeline.row_count
        ):
            self._show_title(message)  # nothing new: the rows stand
            self.loaded = True
            return
        selected = self._selected_key()
        self.loaded_entries = message.entries
        self.groups = message.groups
        self.entries = {entry.id: entry for entry in message.entries}
        rows = timeline_rows(message.groups)
        keys = [row.key for row in rows]
        index = keys.index(selected) if selected in keys else 1 if len(rows) > 1 else 0
        timeline.show(rows, index)
        stats = self._show_title(message)
        if not rows:
            self.query_one("#changes-diff", Static).update(
                "No changes recorded yet." if not stats.entries else "No change matches."
            )
        elif keys[index] != selected:
            self._show_selected()
        self.loaded = True

    def _show_title(self, message: TimelineLoaded) -> HistoryStats:
        stats = message.stats
        title = (
            f"Changes — {stats.entries} recorded, {stats.unreviewed} to review"
            f" · history {format_size(stats.size_bytes)}"
        )
        if len(message.entries) != stats.entries:
            title += f" · {len(message.entries)} match the filter"
        self.query_one("#changes-title", Label).update(title)
        return stats

    def _selected_key(self) -> str | None:
        row = self.query_one(Timeline).current
        return None if row is None else row.key

    def selected_entry(self) -> ChangeEntry | None:
        row = self.query_one(Timeline).current
        return None if row is None else row.entry

    def selected_group(self) -> Burst | None:
        row = self.query_one(Timeline).current
        return None if row is None else row.group

    @on(LineList.Highlighted, "#changes-table")
    def _highlighted(self, event: LineList.Highlighted) -> None:
        event.stop()
        self._show_selected()

    def _show_selected(self) -> None:
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
        focus_now(self.query_one(Timeline))

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
        elif (group := self.whole_group()) is not None:
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

    def whole_group(self) -> Burst | None:
        """The selected group, once every entry of it is read (None, and said, before)."""
        if not self.complete:
            self.notify("Still reading the history; try again in a moment", timeout=3)
            return None
        return self.selected_group()

    def action_revert_group(self) -> None:
        group = self.whole_group()
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
