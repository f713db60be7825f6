"""The help screen: every key (as currently mapped) and the query syntax."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

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

Keys can be remapped in `~/.config/reme-tui/config.toml` under `[keymap]`, by the ids below.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, keys: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        rows = "\n".join(
            f"| `{key}` | {description} | `{binding_id}` |"
            for key, description, binding_id in self.keys
        )
        text = (
            "# reme-tui\n\n## Keys\n\n| Key | Action | Id |\n|---|---|---|\n"
            + rows
            + "\n"
            + QUERY_HELP
        )
        with VerticalScroll(id="help-body"):
            yield Markdown(text, id="help-markdown")
