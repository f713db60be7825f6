"""The status bar: workspace, memory count, index state, last update, diagnostics."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Label, ProgressBar


class DiagnosticsLabel(Label):
    """Clicking the diagnostics count opens the list."""

    class Pressed(Message):
        pass

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class StatusBar(Horizontal):
    def compose(self) -> ComposeResult:
        yield Label("", id="status-workspace")
        yield Label("", id="status-count")
        yield ProgressBar(id="status-progress", show_eta=False, show_percentage=True)
        yield Label("", id="status-index")
        yield Label("", id="status-updated")
        yield DiagnosticsLabel("", id="status-diagnostics")

    def set_workspace(self, workspace: str) -> None:
        self.query_one("#status-workspace", Label).update(workspace)

    def set_count(self, memories: int) -> None:
        self.query_one("#status-count", Label).update(f"{memories} memories")

    def set_progress(self, done: int, total: int) -> None:
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=max(total, 1), progress=done)
        self.query_one("#status-index", Label).update(f"indexing {done}/{total}")

    def set_index_state(self, state: str) -> None:
        self.query_one(ProgressBar).display = False
        self.query_one("#status-index", Label).update(state)

    def set_updated(self, when: str) -> None:
        self.query_one("#status-updated", Label).update(f"updated {when}")

    def set_diagnostics(self, count: int) -> None:
        label = self.query_one("#status-diagnostics", DiagnosticsLabel)
        label.update(f"⚠ {count} diagnostics" if count else "✓ no diagnostics")
        label.set_class(bool(count), "-warn")
        label.tooltip = "show diagnostics (!)" if count else None
