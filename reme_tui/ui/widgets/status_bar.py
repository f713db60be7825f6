"""The status bar: workspace, memory count, index state, last update, diagnostics.

It never claims more than it knows: while the index builds or a batch of changes is
applied there is no "ready", no "✓ no diagnostics" and no "vectors ✓". It is never cut
either: each part has a long and a short form and a priority; when the line is too
narrow the least important parts are shortened first, then hidden (``fit``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.events import Click, Resize
from textual.message import Message
from textual.widgets import Label, ProgressBar

from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.plain import plain_tip

GAP = 2  # columns between parts (the labels' right margin)
PROGRESS_WIDTH = 30 + GAP


class _PressableLabel(Label):
    """A label whose click posts its own class's ``Pressed`` (each subclass declares one, so
    handlers are named after the subclass)."""

    @dataclass
    class Pressed(Message):
        pass

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class DiagnosticsLabel(_PressableLabel):
    """Clicking the diagnostics count opens the list."""

    @dataclass
    class Pressed(_PressableLabel.Pressed):
        pass


class ChangesLabel(_PressableLabel):
    """Clicking the unreviewed-changes count opens the Changes view."""

    @dataclass
    class Pressed(_PressableLabel.Pressed):
        pass


class UntaggedLabel(_PressableLabel):
    """Clicking the untagged count opens the review of untagged memories."""

    @dataclass
    class Pressed(_PressableLabel.Pressed):
        pass


@dataclass(slots=True)
class Part:
    long: str = ""
    short: str = ""
    priority: int = 0  # higher survives longer when space is short
    middle: str = ""  # tried before the short form: what is left of the meaning


# Order of importance when space runs out (the workspace name is in the title bar too).
PRIORITY = {
    "status-index": 10,
    "status-count": 9,
    "status-diagnostics": 8,
    "status-workspace": 7,
    "status-changes": 6,
    "status-compat": 5,  # its long form is the longest; the counts are in the tooltip
    "status-untagged": 4,
    "status-semantic": 5,
    "status-updated": 3,
}


def fit(parts: Mapping[str, Part], width: int) -> dict[str, str]:
    """The text each part shows in ``width`` columns ('' = hidden): shorten the least
    important parts first, then hide them, until the line fits."""
    shown = {name: part.long for name, part in parts.items() if part.long}

    def needed() -> int:
        return sum(cell_len(text) + GAP for text in shown.values())

    by_importance = sorted(shown, key=lambda name: parts[name].priority)
    for form in ("middle", "short"):
        for name in by_importance:
            if needed() <= width:
                break
            shown[name] = getattr(parts[name], form) or shown[name]
    for name in by_importance:
        if needed() <= width:
            break
        del shown[name]
    return {name: shown.get(name, "") for name in parts}


def compact_count(n: int) -> str:
    return f"{n / 1000:.0f}k" if n >= 10_000 else f"{n:,}"


class StatusBar(Horizontal):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts = {name: Part(priority=priority) for name, priority in PRIORITY.items()}
        self.busy = True  # indexing or applying changes: nothing is "ready" or "✓"
        self.semantic_text = ""
        self.diagnostics: int | None = None
        self.progress_wanted = False

    def compose(self) -> ComposeResult:
        yield Label("", id="status-workspace")
        yield Label("", id="status-count")
        yield ProgressBar(id="status-progress", show_eta=False, show_percentage=True)
        yield Label("", id="status-index")
        yield Label("", id="status-updated")
        yield Label("", id="status-semantic")
        yield DiagnosticsLabel("", id="status-diagnostics")
        yield Label("", id="status-compat")
        yield ChangesLabel("", id="status-changes")
        yield UntaggedLabel("", id="status-untagged")

    def on_mount(self) -> None:
        self.refit()

    def on_resize(self, event: Resize) -> None:
        self.refit()

    def _set(self, name: str, long: str, short: str = "", middle: str = "") -> None:
        part = self.parts[name]
        part.long, part.short, part.middle = long, short, middle
        self.refit()

    def refit(self) -> None:
        if not self.is_mounted:
            return
        width = self.content_size.width or self.app.size.width - 2
        progress = self.progress_wanted and width - PROGRESS_WIDTH >= 50
        texts = fit(self.parts, width - (PROGRESS_WIDTH if progress else 0))
        self.query_one(ProgressBar).display = progress
        for name, text in texts.items():
            label = self.query_one(f"#{name}", Label)
            label.update(Content(text))  # the workspace's folder name is no markup
            # The width fit() counted, not `auto`: an auto width was at times left at an
            # earlier text's ("scanning…" cut "index ready" to "index"), by timing alone.
            label.styles.width = max(cell_len(text), 1)
            label.display = bool(text)

    # -- what the screen reports ---------------------------------------------------

    def set_workspace(self, workspace: str, full_path: str) -> None:
        workspace = for_terminal_line(workspace)  # a folder's name, measured as shown
        short = workspace if len(workspace) <= 14 else workspace[:13] + "…"
        self._set("status-workspace", workspace, short)
        self.query_one("#status-workspace", Label).tooltip = plain_tip(full_path)

    def set_count(self, memories: int) -> None:
        self._set("status-count", f"{memories:,} memories", f"{compact_count(memories)} mem")

    def set_progress(self, done: int, total: int) -> None:
        self.busy = True
        self.progress_wanted = True
        bar = self.query_one(ProgressBar)
        if total <= 0:  # still scanning: an indeterminate bar
            bar.update(total=None)
            self._set("status-index", "scanning…")
        else:
            bar.update(total=total, progress=done)
            percent = f"{100 * done // total}%"
            self._set("status-index", f"indexing {done:,}/{total:,}", f"indexing {percent}")
        self._show_checks()

    def set_updating(self, files: int) -> None:
        """A batch of changed files is being applied (the index is not current yet)."""
        self.busy = True
        text = f"updating {files:,} files…" if files > 1 else "updating…"
        self._set("status-index", text, "updating…")
        self._show_checks()

    def set_checking(self, tooltip: str | None = None) -> None:
        """The saved index answers searches; the files are being checked for changes made
        since it was saved (busy: nothing is "✓" until the check is done)."""
        self.busy = True
        self.progress_wanted = False
        text = "index ready (cached), checking for changes…"
        self._set("status-index", text, "cached, checking…", "ready (cached), checking…")
        self.query_one("#status-index", Label).tooltip = plain_tip(tooltip)
        self._show_checks()

    def set_index_state(self, state: str, tooltip: str | None = None) -> None:
        self.busy = False
        self.progress_wanted = False
        self._set("status-index", state, state.removeprefix("index "))
        self.query_one("#status-index", Label).tooltip = plain_tip(tooltip)
        self._show_checks()

    def set_semantic(self, text: str, tooltip: str | None = None) -> None:
        """Semantic search state: embedding progress, ready, or no model."""
        self.semantic_text = text
        self.query_one("#status-semantic", Label).tooltip = plain_tip(tooltip)  # a model's error
        self._show_checks()

    def set_updated(self, when: str) -> None:
        self._set("status-updated", f"updated {when}", when.rsplit(":", 1)[0])

    def set_diagnostics(self, count: int | None) -> None:
        """``None``: not known yet (the index is still being built)."""
        self.diagnostics = count
        label = self.query_one("#status-diagnostics", DiagnosticsLabel)
        label.set_class(bool(count), "-warn")
        label.tooltip = "show diagnostics (!)" if count else None
        self._show_checks()

    def _show_checks(self) -> None:
        """Diagnostics and vectors, claimed only once the index is current."""
        count = self.diagnostics
        if count is None or (self.busy and not count):
            self.parts["status-diagnostics"].long = ""
        elif count:
            self.parts["status-diagnostics"].long = f"⚠ {count:,} diagnostics"
            self.parts["status-diagnostics"].short = f"⚠ {count:,}"
        else:
            self.parts["status-diagnostics"].long = "✓ no diagnostics"
            self.parts["status-diagnostics"].short = "✓"
        text = self.semantic_text
        if self.busy and "✓" in text:
            text = text.replace("✓", "…")
        self._set("status-semantic", text, text.replace("vectors", "vec"))

    def set_untagged(self, count: int) -> None:
        """Memories ReMe reads no tag from (hidden when none): u or a click reviews them."""
        label = self.query_one("#status-untagged", UntaggedLabel)
        label.tooltip = "review untagged memories with suggested tags (u)" if count else None
        if count:
            self._set("status-untagged", f"{count:,} untagged", f"∅ {compact_count(count)}")
        else:
            self._set("status-untagged", "")

    def set_compat(self, counts: Mapping[str, int], text: str) -> None:
        """What ReMe silently drops, per kind (``text`` is the short form; empty hides it)."""
        total = sum(counts.values())
        if text:
            self._set(
                "status-compat", f"ReMe drops: {text}", f"drops {total}", f"ReMe drops {total}"
            )
        else:
            self._set("status-compat", "")
        label = self.query_one("#status-compat", Label)
        label.tooltip = plain_tip("\n".join(f"{kind}: {n}" for kind, n in counts.items()) or None)

    def set_changes(self, unreviewed: int | None, size_text: str, error: str | None = None) -> None:
        """Changes to review (hidden when none) with the history's size; or its failure."""
        label = self.query_one("#status-changes", ChangesLabel)
        if error is not None:
            label.tooltip = plain_tip(error)  # quotes the history's path and the database
            self._set("status-changes", "history off")
            return
        label.tooltip = plain_tip(f"change history: {size_text}; c opens the Changes view")
        if unreviewed:
            long = f"Δ {unreviewed} to review · {size_text}"
            self._set("status-changes", long, f"Δ {unreviewed}", f"Δ {unreviewed} to review")
        else:
            self._set("status-changes", "")
