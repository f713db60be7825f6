"""Near-duplicate tag review (key ``d``): clusters, merge with a dry-run diff, undo, dismiss,
and the list of dismissed pairs (key ``D``), where a pair can be proposed again.

Engine work (detection, planning, writing) runs in thread workers; writes go through
``Engine.merge`` / ``Engine.undo_merge``, which re-index what they wrote, and the
``Delta`` they return is published like any other change, so the main screen updates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from reme_tui.engine import EditError
from reme_tui.engine.files import shown_path
from reme_tui.engine.tags import DismissedPairs, DupeCluster, detect_duplicates, engine_embed
from reme_tui.engine.write import (
    Journal,
    JournalCorrupt,
    MergeError,
    MergePlan,
    MergeResult,
    UndoResult,
    plan_merge,
)
from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.focus import OrderedInput
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.plain import plain, plain_cell, plain_line
from reme_tui.ui.screens.dry_run import DryRunConfirmScreen, diff_line_style
from reme_tui.ui.worker_failures import ShowsWorkerFailures

SAMPLES_PER_MEMBER = 3
_CONFIDENCE_STYLE = {"high": "bold green", "medium": "yellow", "low": "dim"}


@dataclass
class ClustersReady(Message):
    """Detection finished: clusters and up to three sample memories per member tag."""

    clusters: list[DupeCluster]
    samples: dict[str, list[str]]


@dataclass
class MergePlanned(Message):
    """The dry run of a merge is ready to be confirmed."""

    plan: MergePlan


@dataclass
class MergeWritten(Message):
    plan: MergePlan
    result: MergeResult


@dataclass
class MergeUndone(Message):
    into: str
    result: UndoResult


@dataclass
class WriteFailed(Message):
    """Planning, writing or undoing a merge failed with ``text`` (nothing half-done)."""

    text: str


_ENDED_BADLY = (WorkerState.ERROR, WorkerState.CANCELLED)


SUGGESTED_COLUMN = 2  # the target column of the cluster table


class MergeConfirmScreen(DryRunConfirmScreen):
    """The dry-run diff of every file a merge will change; ``y`` writes, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "confirm", "Merge", id="merge.confirm"),
        Binding("escape,n,q", "cancel", "Cancel", id="merge.cancel"),
    ]

    def __init__(self, plan: MergePlan) -> None:
        super().__init__()
        self.plan = plan

    def compose(self) -> ComposeResult:
        plan = self.plan
        files = len(plan.changes)
        title = (
            f"Merge {', '.join(plan.sources)} into {plan.into}: {files} "
            f"file{'s' if files != 1 else ''} — y merges, Esc cancels"
        )
        with Vertical(id="merge-body"):
            yield Label(plain_line(title), id="merge-title")  # tag names are no markup
            if plan.skipped:
                skipped = "; ".join(f"{p}: {r}" for p, r in plan.skipped)
                yield Label(
                    plain_line(f"Skipped (cannot be edited safely): {skipped}"), id="merge-skipped"
                )
            with VerticalScroll(id="merge-diff-scroll"):
                yield Static(_diff_text(plan.diff()), id="merge-diff")
            yield Footer()


def _diff_text(diff: str) -> Text:
    text = Text()
    for line in diff.splitlines():
        text.append(for_terminal(line) + "\n", style=diff_line_style(line))
    return text


class DismissedPairsScreen(PacedFrames, ModalScreen[bool]):
    """The pairs said to be different entities; Enter proposes the highlighted one again.
    Returns whether any pair was forgotten, so the review can look again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,u", "forget", "Propose again", id="dismissed.forget"),
        Binding("escape,q,D", "close", "Close", id="dismissed.close"),
    ]

    def __init__(self, store: DismissedPairs) -> None:
        super().__init__()
        self.store = store
        self.forgot_any = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dismissed-body"):
            yield Label("", id="dismissed-title")
            yield OptionList(id="dismissed-list")
            yield Footer()

    def on_mount(self) -> None:
        self.show_pairs()
        self.query_one(OptionList).focus()

    def show_pairs(self) -> None:
        listed = self.query_one(OptionList)
        keep = listed.highlighted or 0
        listed.clear_options()
        pairs = sorted(sorted(pair) for pair in self.store.pairs())
        for a, b in pairs:
            listed.add_option(Option(plain_line(f"{a} ↔ {b}"), id=f"{a}\n{b}"))
        if pairs:
            listed.highlighted = min(keep, len(pairs) - 1)
        count = len(pairs)
        where = shown_path(self.store.path)
        self.query_one("#dismissed-title", Label).update(
            plain(
                f"Dismissed pairs: {count} — never proposed as duplicates · Enter proposes "
                f"again · Esc closes\nstored in {where}"
                if count
                else f"No dismissed pairs (stored in {where}) · Esc closes"
            )
        )

    def action_forget(self) -> None:
        listed = self.query_one(OptionList)
        if listed.highlighted is None or listed.option_count == 0:
            return
        option_id = listed.get_option_at_index(listed.highlighted).id or ""
        a, _, b = option_id.partition("\n")
        try:
            forgotten = self.store.forget(a, b)
        except OSError as error:  # a read-only or full data directory
            self.notify(f"Not changed: {error}", severity="error", timeout=8)
            return
        if forgotten:
            self.forgot_any = True
            self.notify(f"{a} and {b} may be proposed as duplicates again")
        self.show_pairs()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # Enter on the list: the list takes the key before the screen's binding
        self.action_forget()

    def action_close(self) -> None:
        self.dismiss(self.forgot_any)


class DupesScreen(PacedFrames, ShowsWorkerFailures, Screen[None]):
    """Clusters, most certain first; the selected one's members, samples and target."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="dupes.close"),
        Binding("m", "merge", "Merge", id="dupes.merge"),
        Binding("x", "dismiss_cluster", "Not duplicates", id="dupes.dismiss"),
        Binding("X", "dismiss_member", "Not this one", id="dupes.dismiss_member"),
        Binding("u", "undo", "Undo last merge", id="dupes.undo"),
        Binding("T", "edit_target", "Target", id="dupes.target"),
        Binding("D", "show_dismissed", "Dismissed", id="dupes.dismissed"),
        Binding("r", "refresh", "Refresh", show=False, id="dupes.refresh"),
        Binding("j", "next_member", "Mark next member", show=False, id="dupes.next_member"),
        Binding("k", "previous_member", "Mark previous member", show=False, id="dupes.prev_member"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.clusters: list[DupeCluster] = []
        self.samples: dict[str, list[str]] = {}
        self.targets: dict[tuple[str, ...], str] = {}
        self.member_index = 0
        self.busy = False

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    def compose(self) -> ComposeResult:
        yield Label("Near-duplicate tags — looking…", id="dupes-title")
        with Horizontal(id="dupes-body"):
            yield DataTable(id="dupes-table", cursor_type="row", zebra_stripes=True)
            with Vertical(id="dupes-detail"):
                with Horizontal(id="dupes-target-row"):
                    yield Label("Merge into ", id="dupes-target-label")
                    yield OrderedInput(id="dupes-target", placeholder="target tag")
                with VerticalScroll(id="dupes-detail-scroll"):
                    yield Static("", id="dupes-members")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # The tags last: a long cluster is cut at the edge instead of pushing the file
        # count and the suggested target off screen (at 80 columns they were).
        table.add_columns("Confidence", "Files", "Suggested", "Tags")
        table.focus()
        self.refresh_clusters()

    # -- detection ----------------------------------------------------------

    @work(thread=True, exclusive=True, group="dupes", exit_on_error=False)
    def refresh_clusters(self) -> None:
        engine = self.reme.engine
        clusters = detect_duplicates(
            engine, embed=engine_embed(engine), dismissed=DismissedPairs(engine.root)
        )
        samples = {
            member.tag: sorted(engine.files_with_tag(member.tag))[:SAMPLES_PER_MEMBER]
            for cluster in clusters
            for member in cluster.members
        }
        self.post_message(ClustersReady(clusters, samples))

    @on(ClustersReady)
    def _clusters_ready(self, message: ClustersReady) -> None:
        selected = self.selected
        self.clusters, self.samples = message.clusters, message.samples
        table = self.query_one(DataTable)
        table.clear()
        for index, cluster in enumerate(self.clusters):
            table.add_row(
                Text(cluster.confidence, style=_CONFIDENCE_STYLE[cluster.confidence]),
                str(cluster.total_files),
                plain_cell(self.target_of(cluster)),  # the table reads a str as markup
                plain_cell(", ".join(cluster.tags)),
                key=str(index),
            )
        count = len(self.clusters)
        self.query_one("#dupes-title", Label).update(
            f"Near-duplicate tags — {count} cluster{'s' if count != 1 else ''}, most certain "
            "first · m merge · x not duplicates · X not this member · u undo · D dismissed pairs"
        )
        keep = next(
            (i for i, c in enumerate(self.clusters) if selected and c.tags == selected.tags), 0
        )
        if self.clusters:
            table.move_cursor(row=keep)
        self.show_cluster(self.selected)

    # -- selection and detail ------------------------------------------------

    @property
    def selected(self) -> DupeCluster | None:
        if not self.clusters:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.clusters[row] if 0 <= row < len(self.clusters) else None

    def target_of(self, cluster: DupeCluster) -> str:
        return self.targets.get(cluster.tags, cluster.suggested)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.member_index = 0
        self.show_cluster(self.selected)

    def show_cluster(self, cluster: DupeCluster | None) -> None:
        target = self.query_one("#dupes-target", Input)
        members = self.query_one("#dupes-members", Static)
        if cluster is None:
            target.value = ""
            members.update("No near-duplicate tags found." if not self.busy else "")
            return
        target.value = self.target_of(cluster)
        members.update(self.describe(cluster))

    def describe(self, cluster: DupeCluster) -> Text:
        text = Text()
        text.append(f"{cluster.confidence} confidence", _CONFIDENCE_STYLE[cluster.confidence])
        text.append(f" · linked by {', '.join(cluster.methods)}\n\n")
        for index, member in enumerate(cluster.members):
            marker = "▶ " if index == self.member_index else "  "
            text.append(marker + for_terminal_line(member.tag), "bold")
            text.append(f"  {member.files} memor{'y' if member.files == 1 else 'ies'}\n")
            if member.spellings:
                written = ", ".join(map(for_terminal_line, member.spellings))
                text.append(f"    written: {written}\n", "italic")
            for path in self.samples.get(member.tag, []):
                text.append(f"    · {for_terminal_line(path)}\n", "dim")
        return text

    @on(Input.Submitted, "#dupes-target")
    def _target_submitted(self, event: Input.Submitted) -> None:
        cluster = self.selected
        if cluster is not None and event.value.strip():
            self.targets[cluster.tags] = event.value.strip()
            table = self.query_one(DataTable)
            table.update_cell_at(
                Coordinate(table.cursor_row, SUGGESTED_COLUMN), plain_cell(event.value.strip())
            )
        self.query_one(DataTable).focus()

    @on(Input.Changed, "#dupes-target")
    def _target_changed(self, event: Input.Changed) -> None:
        cluster = self.selected
        if cluster is not None and event.value.strip():
            self.targets[cluster.tags] = event.value.strip()

    # -- actions ------------------------------------------------------------

    def action_close(self) -> None:
        if self.focused is self.query_one("#dupes-target", Input):
            self.query_one(DataTable).focus()
            return
        self.app.pop_screen()

    def action_refresh(self) -> None:
        self.refresh_clusters()

    def action_show_dismissed(self) -> None:
        def closed(forgot_any: bool | None) -> None:
            if forgot_any:
                self.refresh_clusters()

        self.app.push_screen(DismissedPairsScreen(DismissedPairs(self.reme.engine.root)), closed)

    def action_edit_target(self) -> None:
        self.query_one("#dupes-target", Input).focus()

    def action_merge(self) -> None:
        cluster = self.selected
        if cluster is None or self.busy:
            return
        into = self.target_of(cluster)
        self.busy = True
        self.plan(list(cluster.tags), into)

    @work(thread=True, exclusive=True, group="dupes-write", exit_on_error=False)
    def plan(self, tags: Sequence[str], into: str) -> None:
        try:
            plan = plan_merge(self.reme.engine, tags, into)
        except (MergeError, EditError, OSError) as error:
            self.post_message(WriteFailed(f"Cannot merge: {error}"))
            return
        self.post_message(MergePlanned(plan))

    @on(WriteFailed)
    def _fail(self, message: WriteFailed) -> None:
        self.busy = False
        self.notify(message.text, severity="error", timeout=8)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        super().on_worker_state_changed(event)  # shows the failure
        if event.worker.group == "dupes-write" and event.state in _ENDED_BADLY:
            self.busy = False

    @on(MergePlanned)
    def _confirm(self, message: MergePlanned) -> None:
        plan = message.plan
        if not plan.changes:
            self.busy = False
            self.notify("Nothing to change: no memory carries those tags", severity="warning")
            return

        def chosen(confirmed: bool | None) -> None:
            if confirmed:
                self.write(plan)
            else:
                self.busy = False

        self.app.push_screen(MergeConfirmScreen(plan), chosen)

    @work(thread=True, exclusive=True, group="dupes-write", exit_on_error=False)
    def write(self, plan: MergePlan) -> None:
        try:
            result = self.reme.engine.merge(plan)
        except OSError as error:  # the journal could not be written: nothing was changed
            self.post_message(WriteFailed(f"Not merged: {error}"))
            return
        self.post_message(MergeWritten(plan, result))

    @on(MergeWritten)
    def _written(self, message: MergeWritten) -> None:
        plan, result = message.plan, message.result
        self.busy = False
        self.reme.publish(result.delta)  # the engine re-indexed what it wrote
        if result.written:
            self.notify(
                f"Merged into {plan.into}: {len(result.written)} files changed (u undoes)",
                title="Tags merged",
            )
        for path, reason in [*plan.skipped, *result.refused]:
            self.notify(f"{path}: {reason}", title="Not merged", severity="error", timeout=10)
        self.refresh_clusters()

    def action_undo(self) -> None:
        if self.busy:
            return
        self.busy = True
        self.undo()

    @work(thread=True, exclusive=True, group="dupes-write", exit_on_error=False)
    def undo(self) -> None:
        engine = self.reme.engine
        try:
            entry = Journal(engine.root).last_undoable()
            result = None if entry is None else engine.undo_merge(entry)
        except (JournalCorrupt, OSError) as error:
            self.post_message(WriteFailed(f"Cannot undo: {error}"))
            return
        if entry is None or result is None:
            self.post_message(WriteFailed("No merge to undo"))
            return
        self.post_message(MergeUndone(str(entry.get("into", "?")), result))

    @on(MergeUndone)
    def _undone(self, message: MergeUndone) -> None:
        into, result = message.into, message.result
        self.busy = False
        self.reme.publish(result.delta)
        if result.written:
            self.notify(f"Undid the merge into {into}: {len(result.written)} files restored")
        for path, reason in result.refused:
            self.notify(f"{path}: {reason}", title="Not restored", severity="error", timeout=10)
        self.refresh_clusters()

    def action_dismiss_cluster(self) -> None:
        cluster = self.selected
        if cluster is None:
            return
        try:
            DismissedPairs(self.reme.engine.root).dismiss(cluster.tags)
        except OSError as error:  # a read-only or full data directory
            self.notify(f"Not remembered: {error}", severity="error", timeout=8)
            return
        self.notify(f"Not duplicates: {', '.join(cluster.tags)} (remembered)")
        self.refresh_clusters()

    def action_dismiss_member(self) -> None:
        """Dismiss the pairs between the marked member and the rest of its cluster."""
        cluster = self.selected
        if cluster is None:
            return
        member = cluster.members[self.member_index % len(cluster.members)]
        store = DismissedPairs(self.reme.engine.root)
        try:
            for other in cluster.tags:
                if other != member.tag:
                    store.dismiss((member.tag, other))
        except OSError as error:  # a read-only or full data directory
            self.notify(f"Not remembered: {error}", severity="error", timeout=8)
            return
        self.notify(f"{member.tag} is not a duplicate of the others (remembered)")
        self.refresh_clusters()

    def action_next_member(self) -> None:
        self._move_member(1)

    def action_previous_member(self) -> None:
        self._move_member(-1)

    def _move_member(self, step: int) -> None:
        cluster = self.selected
        if cluster is None or self.focused is self.query_one("#dupes-target", Input):
            return
        self.member_index = (self.member_index + step) % len(cluster.members)
        self.show_cluster(cluster)
