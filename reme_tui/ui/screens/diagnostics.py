"""The diagnostics list: what ReMe would silently drop, per file. Enter opens the file.

Severity and the line under the table (what the highlighted code means) come from
``reme_tui.engine.codes``, the same table the README shows.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from reme_tui.engine.codes import Code
from reme_tui.engine.records import Diagnostic

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}


class DiagnosticsScreen(ModalScreen[str | None]):
    """Dismisses with the chosen path (to open it) or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="diagnostics.close"),
        Binding("j", "cursor_down", "Down", show=False, id="diagnostics.down"),
        Binding("k", "cursor_up", "Up", show=False, id="diagnostics.up"),
    ]

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__()
        self.diagnostics = diagnostics

    def compose(self) -> ComposeResult:
        with Vertical(id="diagnostics-body"):
            count = len(self.diagnostics)
            files = len({d.path for d in self.diagnostics})
            yield Label(
                f"{count} diagnostics in {files} files — Enter opens the memory, Esc closes",
                id="diagnostics-title",
            )
            yield DataTable(id="diagnostics-table", cursor_type="row", zebra_stripes=True)
            yield Label("", id="diagnostics-explanation")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Path", "Line", "Severity", "Kind", "Message")
        for index, diagnostic in enumerate(self.diagnostics):
            table.add_row(  # Text: messages quote [[wikilinks]], which are not markup
                Text(diagnostic.path),
                "" if diagnostic.line is None else str(diagnostic.line),
                Text(diagnostic.severity, style=_SEVERITY_STYLE.get(diagnostic.severity, "")),
                Text(diagnostic.code),
                Text(diagnostic.message),
                key=str(index),
            )
        table.focus()

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def action_dismiss(self) -> None:
        self.dismiss(None)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        code = Code(self.diagnostics[int(event.row_key.value or 0)].code)
        self.query_one("#diagnostics-explanation", Label).update(
            Text(f"{code}: {code.explanation}")
        )

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        index = int(event.row_key.value or 0)
        self.dismiss(self.diagnostics[index].path)
