"""Filter chips: small clickable labels that remove themselves (included or excluded tags,
path prefixes, exact paths, frontmatter metadata tests)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.focus import FollowsFocus
from reme_tui.ui.plain import plain_line


class Chip(FollowsFocus, Static, can_focus=True):
    """One tag in the search bar. Click it, or focus it and press Backspace, to remove it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("backspace,delete", "remove", "Remove tag", id="chip.remove"),
    ]

    @dataclass
    class Removed(Message):
        tag: str
        kind: str = "tag"

    def __init__(
        self, tag: str, *, excluded: bool = False, kind: str = "tag", label: str | None = None
    ) -> None:
        """`kind` is "tag", "prefix", "path" or "meta"; `tag` is what removing needs (the
        tag, the prefix, the path, the metadata key)."""
        text = label or tag
        text = f"−{text} ✕" if excluded else f"{text} ✕"
        classes = "chip -excluded" if excluded else ("chip" if kind == "tag" else "chip -reme")
        super().__init__(for_terminal_line(text), classes=classes, markup=False)
        self.tag = tag
        self.excluded = excluded
        self.kind = kind
        self.label_text = label or tag
        what = (
            "excluded"
            if excluded
            else {"prefix": "path prefix", "meta": "metadata"}.get(kind, kind)
        )
        self.tooltip = plain_line(f"{what} {label or tag}: click or Backspace to remove")

    def on_click(self, event: Click) -> None:
        event.stop()
        self.action_remove()

    def action_remove(self) -> None:
        self.post_message(self.Removed(self.tag, self.kind))
