"""Why this, why not that: the current search's pipeline for one memory, stage by stage
(``Engine.explain``), with the stage that dropped it highlighted; and the "why not?"
prompt that asks for a path (completed from the workspace's memories).

The verdict comes first; each row is one stage: ✓ passed, ✗ failed, - did not apply; ▶
marks the stage that dropped the memory.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Label

from reme_tui.engine import Explanation
from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.safe_input import SafeInput

_MARKS = {True: ("✓", "green"), False: ("✗", "red")}


def stage_rows(explanation: Explanation) -> list[tuple[Text, Text, Text]]:
    """(mark, stage, detail) per stage; the dropping stage marked ▶, in reverse red."""
    rows = []
    for stage in explanation.stages:
        mark, style = ("-", "dim") if stage.skipped else _MARKS[stage.passed]
        dropped = stage.stage == explanation.dropped_at
        name_style = "bold reverse red" if dropped else ("dim" if stage.skipped else "")
        rows.append(
            (
                Text(mark, style=style),
                Text(f"▶ {stage.stage}" if dropped else f"  {stage.stage}", style=name_style),
                Text(for_terminal_line(stage.detail), style="dim" if stage.skipped else ""),
            )
        )
    return rows


# What the person chose to do next: ("open" | "tags" | "dupes" | "widen", the memory's path).
ExplainChoice = tuple[str, str]


class ExplainScreen(PacedFrames, ModalScreen[ExplainChoice | None]):
    """One explanation. Dismisses with what to do next (the main screen does it): open the
    memory, edit its tags (the one write door: add the missing tag), review the
    near-duplicate tags (merge the variant it carries), or widen the dates that dropped it
    (the search loses its date range and the memory is explained again); Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="explain.close"),
        Binding("j", "cursor_down", "Down", show=False, id="explain.down"),
        Binding("k", "cursor_up", "Up", show=False, id="explain.up"),
        Binding("o", "choose('open')", "Open the memory", id="explain.open"),
        Binding("t", "choose('tags')", "Edit its tags", id="explain.edit_tags"),
        Binding("d", "choose('dupes')", "Review near-duplicate tags", id="explain.dupes"),
        Binding("w", "widen", "Widen the dates", id="explain.widen"),
    ]

    def __init__(self, explanation: Explanation, search: str) -> None:
        super().__init__()
        self.explanation = explanation
        self.search = search

    def compose(self) -> ComposeResult:
        explanation = self.explanation
        with Vertical(id="explain-body"):
            yield Label(
                Text(
                    f"Why / why not: {for_terminal_line(explanation.path)}"
                    f"  for  {for_terminal_line(self.search)}"
                ),
                id="explain-title",
            )
            style = "bold green" if explanation.returned else "bold red"
            yield Label(
                Text(for_terminal_line(explanation.verdict), style=style), id="explain-verdict"
            )
            yield DataTable(id="explain-table", cursor_type="row", zebra_stripes=True)
            yield Label(Content(_hint(explanation)), id="explain-hint")  # it quotes a tag

    def on_mount(self) -> None:
        table: DataTable[Any] = self.query_one(DataTable)
        # the body is 95% wide with a border; mark and stage columns, the detail the rest
        width = int(self.app.size.width * 0.95) - 4
        table.add_column("", width=1)
        table.add_column("Stage", width=13)
        table.add_column("Why", width=max(24, width - 1 - 13 - 6 - 1))
        for index, row in enumerate(stage_rows(self.explanation)):
            table.add_row(*row, key=str(index), height=None)
        names = [s.stage for s in self.explanation.stages]
        if self.explanation.dropped_at in names:
            table.move_cursor(row=names.index(self.explanation.dropped_at))
        table.focus()

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def action_widen(self) -> None:
        """Drop the search's date range (and strict dates), when that is what dropped it."""
        if self.explanation.dropped_at != "dates":
            self.notify("The dates did not drop this memory", severity="warning")
            return
        self.dismiss(("widen", self.explanation.path))

    def action_choose(self, what: str) -> None:
        discovery = self.explanation.stage("discovery")
        if discovery is None or not discovery.passed:
            self.notify("Not a memory: nothing to open or edit", severity="warning")
            return
        self.dismiss((what, self.explanation.path))


def _variant(explanation: Explanation) -> str | None:
    """The near-duplicate spelling the memory carries instead of an asked tag, if any."""
    tags = explanation.stage("tags")
    hints = tags.data.get("hints", []) if tags is not None else []
    return next((h["tag"] for h in hints if h.get("kind") == "variant"), None)


def _hint(explanation: Explanation) -> str:
    discovery = explanation.stage("discovery")
    if discovery is None or not discovery.passed:
        return "Esc closes"
    keys = "o opens the memory, t edits its tags"
    if explanation.dropped_at == "dates":
        keys += ", w widens the dates (drops the date range)"
    variant = _variant(explanation)
    if variant is not None:
        keys += f", d reviews near-duplicate tags (merge `{for_terminal_line(variant)}`?)"
    return keys + ", Esc closes"


class WhyNotScreen(PacedFrames, ModalScreen[str | None]):
    """Asks for a memory's path (completed from the index); dismisses with it or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="why_not.cancel"),
    ]

    def __init__(self, paths: list[str], search: str) -> None:
        super().__init__()
        self.paths = paths
        self.search = search

    def compose(self) -> ComposeResult:
        with Vertical(id="why-not-body"):
            yield Label(
                Text(f"Why not? A memory's path, explained for  {for_terminal_line(self.search)}"),
                id="why-not-title",
            )
            yield SafeInput(
                placeholder="daily/2026-03-10/note.md (→ completes)",
                suggester=SuggestFromList(self.paths, case_sensitive=False),
                id="why-not-input",
            )
            yield Label("Enter explains, Esc cancels", id="why-not-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(value or None)
