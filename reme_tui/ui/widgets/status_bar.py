"""The status bar: workspace, memory count, index state, last update, diagnostics."""

from __future__ import annotations

from collections.abc import Mapping

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


class ChangesLabel(Label):
    """Clicking the unreviewed-changes count opens the Changes view."""

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
        semantic = Label("", id="status-semantic")
        semantic.display = False  # shown once a model is configured
        yield semantic
        yield DiagnosticsLabel("", id="status-diagnostics")
        yield Label("", id="status-compat")
        changes = ChangesLabel("", id="status-changes")
        changes.display = False  # shown while there are changes to review
        yield changes

    def set_workspace(self, workspace: str, full_path: str) -> None:
        label = self.query_one("#status-workspace", Label)
        label.update(workspace)
        label.tooltip = full_path

    def set_count(self, memories: int) -> None:
        self.query_one("#status-count", Label).update(f"{memories} memories")

    def set_progress(self, done: int, total: int) -> None:
        bar = self.query_one(ProgressBar)
        bar.display = True
        if total <= 0:  # still scanning: an indeterminate bar
            bar.update(total=None)
            self.query_one("#status-index", Label).update("scanning…")
            return
        bar.update(total=total, progress=done)
        self.query_one("#status-index", Label).update(f"indexing {done}/{total}")

    def set_index_state(self, state: str, tooltip: str | None = None) -> None:
        self.query_one(ProgressBar).display = False
        label = self.query_one("#status-index", Label)
        label.update(state)
        label.tooltip = tooltip

    def set_semantic(self, text: str, tooltip: str | None = None) -> None:
        """Semantic search state: embedding progress, ready, or no model."""
        label = self.query_one("#status-semantic", Label)
        label.update(text)
        label.tooltip = tooltip
        label.display = bool(text)

    def set_updated(self, when: str) -> None:
        self.query_one("#status-updated", Label).update(f"updated {when}")

    def set_diagnostics(self, count: int) -> None:
        label = self.query_one("#status-diagnostics", DiagnosticsLabel)
        label.update(f"⚠ {count} diagnostics" if count else "✓ no diagnostics")
        label.set_class(bool(count), "-warn")
        label.tooltip = "show diagnostics (!)" if count else None

    def set_compat(self, counts: Mapping[str, int], text: str) -> None:
        """What ReMe silently drops, per kind (``text`` is the short form; empty hides it)."""
        label = self.query_one("#status-compat", Label)
        label.update(f"ReMe drops: {text}" if text else "")
        label.display = bool(text)
        label.tooltip = "\n".join(f"{kind}: {n}" for kind, n in counts.items()) or None

    def set_changes(self, unreviewed: int | None, size_text: str, error: str | None = None) -> None:
        """Changes to review (hidden when none) with the history's size; or its failure."""
        label = self.query_one("#status-changes", ChangesLabel)
        if error is not None:
            label.update("history off")
            label.tooltip = error
            label.display = True
            return
        label.update(f"Δ {unreviewed} to review · {size_text}")
        label.tooltip = f"change history: {size_text}; c opens the Changes view"
        label.display = bool(unreviewed)
