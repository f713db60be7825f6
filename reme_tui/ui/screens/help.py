"""The help screen: every key (as currently mapped) and the query syntax."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

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
the tables above, e.g. `"focus_search" = "slash,ctrl+f"`.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, sections: list[tuple[str, list[KeyRow]]], config_path: Path) -> None:
        super().__init__()
        self.sections = sections
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        parts = ["# reme-tui\n"]
        for title, rows in self.sections:
            if not rows:
                continue
            parts.append(f"## {title}\n\n| Key | Action | Id |\n|---|---|---|")
            parts += [
                f"| `{_cell(row.keys)}` | {_cell(row.description)} | `{row.binding_id}` |"
                for row in rows
            ]
            parts.append("")
        text = "\n".join(parts) + QUERY_HELP + KEYMAP_HELP.format(config=self.config_path)
        with VerticalScroll(id="help-body"):
            yield Markdown(text, id="help-markdown")


def _cell(text: str) -> str:
    """Table cells cannot hold a bare `|`."""
    return text.replace("|", "\\|")
