"""The diagnostics list: what ReMe would silently drop, per file. Enter opens the file;
`f` fixes an agent junk tag (after showing the diff).

Severity and the line under the table (what the highlighted code means) come from
``reme_tui.engine.codes``, the same table the README shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from reme_tui.engine import Code, Diagnostic
from reme_tui.engine.tags import LINT_CODES
from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.cells import cut_left
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.host import host_of
from reme_tui.ui.plain import plain_line
from reme_tui.ui.screens.dry_run import DryRunConfirmScreen

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}


MESSAGE_MIN = 24  # columns the message always gets, even at 80 columns


def column_widths(diagnostics: list[Any], width: int) -> list[int]:
    """Path, line, severity, kind and message widths for a table ``width`` wide: the
    path is cut (…) before the message loses its place; the message takes the rest."""
    gaps = 2 * 5  # the table pads each cell by one column on both sides

    def widest(values: list[str], floor: int) -> int:
        return max([floor, *(len(v) for v in values)])

    line = widest(["" if d.line is None else str(d.line) for d in diagnostics], 4)
    severity = widest([d.severity for d in diagnostics], 8)
    kind = min(widest([d.code for d in diagnostics], 4), 22)
    path = widest([for_terminal_line(d.path) for d in diagnostics], 4)  # as shown
    room = width - gaps - line - severity - kind
    path = max(12, min(path, room - MESSAGE_MIN, room // 2))
    return [path, line, severity, kind, max(MESSAGE_MIN, room - path)]


class DiagnosticsScreen(PacedFrames, ModalScreen[str | None]):
    """Dismisses with the chosen path (to open it) or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="diagnostics.close"),
        Binding("j", "cursor_down", "Down", show=False, id="diagnostics.down"),
        Binding("k", "cursor_up", "Up", show=False, id="diagnostics.up"),
        Binding("f", "fix", "Fix junk tags", id="diagnostics.fix"),
    ]

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__()
        self.diagnostics = diagnostics
        self.path_width = 40  # set to the path column's width when the table is laid out

    def compose(self) -> ComposeResult:
        with Vertical(id="diagnostics-body"):
            count = len(self.diagnostics)
            files = len({d.path for d in self.diagnostics})
            yield Label(
                f"{count} diagnostics in {files} files — Enter opens the memory, "
                "f fixes junk tags, Esc closes",
                id="diagnostics-title",
            )
            yield DataTable(id="diagnostics-table", cursor_type="row", zebra_stripes=True)
            yield Label("", id="diagnostics-explanation")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # the body is 95% wide with a border; keep a column for the scrollbar
        widths = column_widths(self.diagnostics, int(self.app.size.width * 0.95) - 5)
        self.path_width = widths[0]
        labels = ("Path", "Line", "Severity", "Kind", "Message")
        for label, width in zip(labels, widths, strict=True):
            table.add_column(label, width=width)
        self._fill(table)
        table.focus()

    def _fill(self, table: DataTable[Any]) -> None:
        for index, diagnostic in enumerate(self.diagnostics):
            # Text: messages quote [[wikilinks]], which are not markup. The paths and the
            # targets quoted are the files' own: an ESC in them is shown, never obeyed.
            path = cut_left(for_terminal_line(diagnostic.path), self.path_width)
            message = for_terminal(diagnostic.message)
            table.add_row(
                Text(path, no_wrap=True),
                "" if diagnostic.line is None else str(diagnostic.line),
                Text(diagnostic.severity, style=_SEVERITY_STYLE.get(diagnostic.severity, "")),
                Text(diagnostic.code),
                Text(message),  # wraps in its column: all of it, no sideways scroll
                key=str(index),
                height=None,
            )

    def _current(self) -> Any | None:
        table = self.query_one(DataTable)
        if not self.diagnostics or table.cursor_row < 0:
            return None
        return self.diagnostics[min(table.cursor_row, len(self.diagnostics) - 1)]

    def action_fix(self) -> None:
        """Show the fix of the selected junk-tag diagnostic as a diff; Enter writes it."""
        diagnostic = self._current()
        if diagnostic is None or diagnostic.code not in LINT_CODES:
            self.notify("Only junk-tag diagnostics (tag-…) have an automatic fix", timeout=4)
            return
        engine = host_of(self.app).engine
        plans, refused = engine.plan_tag_fixes([diagnostic.path])
        if refused:
            self.notify(f"{refused[0][0]}: {refused[0][1]}", severity="error")
            return
        if not plans:
            self.notify("Nothing to fix: the file already changed", timeout=4)
            return

        def confirmed(apply: bool | None) -> None:
            if apply:
                self._apply(plans)

        self.app.push_screen(FixPreviewScreen(plans[0].path, plans[0].diff), confirmed)

    def _apply(self, plans: list[Any]) -> None:
        engine = host_of(self.app).engine
        outcomes, delta = engine.apply_tag_fixes(plans)
        for outcome in outcomes:
            if outcome.error:
                self.notify(f"{outcome.path}: {outcome.error}", severity="error")
            else:
                self.notify(f"Fixed the tags of {outcome.path}", timeout=4)
        host_of(self.app).publish(delta)
        self.diagnostics = engine.diagnostics()
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        self._fill(table)
        if self.diagnostics:
            table.move_cursor(row=min(row, len(self.diagnostics) - 1))

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        code = Code.of(self.diagnostics[int(event.row_key.value or 0)].code)
        self.query_one("#diagnostics-explanation", Label).update(
            Text(f"{code}: {code.explanation}")
        )

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        index = int(event.row_key.value or 0)
        self.dismiss(self.diagnostics[index].path)


class FixPreviewScreen(DryRunConfirmScreen):
    """The dry-run diff of one fix: Enter (or y) writes it, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,y", "confirm", "Write the fix", id="fix.apply"),
        Binding("escape,n,q", "cancel", "Cancel", id="fix.cancel"),
    ]

    def __init__(self, path: str, diff: str) -> None:
        super().__init__()
        self.path = path
        self.diff = diff

    def compose(self) -> ComposeResult:
        with Vertical(id="fix-body"):
            yield Label(  # the path is no markup
                plain_line(
                    f"Fix the tags of {self.path}? Only these lines change. Enter writes, "
                    "Esc cancels"
                ),
                id="fix-title",
            )
            with VerticalScroll(id="fix-diff"):
                yield Static(_diff_text(self.diff))


def _diff_text(diff: str) -> Text:
    text = Text()
    for line in diff.splitlines(keepends=True):
        style = ""
        if line.startswith("+") and not line.startswith("+++"):
            style = "green"
        elif line.startswith("-") and not line.startswith("---"):
            style = "red"
        elif line.startswith("@@"):
            style = "cyan"
        text.append(for_terminal(line), style=style)
    return text
