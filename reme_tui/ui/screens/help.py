"""The help screen: every key (as currently mapped) and the query syntax."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Markdown

from reme_tui.ui.focus import OrderedInput, focus_now
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.keys import KeyRow

QUERY_HELP = """
## Searching

Type words to search (BM25, like ReMe). With an empty query the list shows memories,
newest first, narrowed by the filters.

| Token | Effect |
|---|---|
| `tag:alice` | only memories tagged `alice` (a chip; several tags = ANY, switch to ALL) |
| `-tag:bob` | leave out memories tagged `bob` (a struck chip) |
| `since:2026-01-01` | dated on or after (also `2026-1-1`) |
| `until:2026-3-31` | dated on or before |

Backspace at the start of the query removes the last chip; click a chip to remove it.
*strict* makes undated memories (e.g. `digest/`) fail a date filter.
Click a tag in the preview header to filter by it. `-` or `x` in the tag list excludes a tag.
"""

KEYMAP_HELP = """
## Remapping keys

Keys can be remapped in `{config}` under `[keymap]`, by the ids in the *Id* column of
the table above, e.g. `"focus_search" = "slash,ctrl+f"`.
"""


class HelpScreen(PacedFrames, ModalScreen[None]):
    """Every key in one table a filter box narrows (type any part of a key, an action, an
    id or a place), then the query syntax. A table, not Markdown: the key tables took about
    a second to lay out as Markdown on every open."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, sections: list[tuple[str, list[KeyRow]]], config_path: Path) -> None:
        super().__init__()
        self.sections = sections
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        with Vertical(id="help-body"):
            yield Label(Content.styled("reme-tui keys", "bold"), id="help-title")
            yield HelpFilter(
                placeholder="filter: type a key, an action or a place",
                id="help-filter",
                compact=True,
                # typing on the table writes its first key here, then focuses the box:
                # selecting on focus made the second key replace the first
                select_on_focus=False,
            )
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="help-more"):
                yield Markdown(QUERY_HELP + KEYMAP_HELP.format(config=self.config_path))

    def on_mount(self) -> None:
        table = self.query_one("#help-keys", DataTable)
        table.add_columns("Key", "Action", "Id", "Where")  # the place last: it may be cut
        self._fill("")
        table.focus()

    def rows(self) -> list[tuple[str, str, str, str]]:
        return [
            (row.keys, row.description, row.binding_id, title)
            for title, rows in self.sections
            for row in rows
        ]

    def shown(self) -> list[tuple[str, str, str, str]]:
        """The rows the table lists now (as text)."""
        table = self.query_one("#help-keys", DataTable)
        return [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]  # type: ignore[misc]

    def _fill(self, needle: str) -> None:
        table = self.query_one("#help-keys", DataTable)
        table.clear()
        words = needle.casefold().split()
        for row in self.rows():
            text = " ".join(row).casefold()
            if all(word in text for word in words):
                table.add_row(*row)

    @on(Input.Changed, "#help-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self._fill(event.value)

    def on_key(self, event: Key) -> None:
        """Typing on the table goes to the filter (the keys stay readable while it grows)."""
        table = self.query_one("#help-keys", DataTable)
        if self.focused is table and event.is_printable and event.character:
            if event.character in ("q", "?"):
                return  # they close the help
            box = self.query_one(HelpFilter)
            focus_now(box)
            box.insert_text_at_cursor(event.character)
            event.stop()
            event.prevent_default()


class HelpFilter(OrderedInput):
    """Escape with text clears it and goes back to the table; empty, it closes the help."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "to_table", "To the keys", show=False, id="help.filter_down"),
        Binding("escape", "leave", "Clear the filter", show=False, id="help.filter_clear"),
    ]

    def action_to_table(self) -> None:
        focus_now(self.screen.query_one("#help-keys", DataTable))

    def action_leave(self) -> None:
        if not self.value:
            self.screen.dismiss()
            return
        self.value = ""
        self.action_to_table()
