"""Tag chips: small clickable labels that remove themselves (included or excluded tags)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from reme_tui.ui.focus import FollowsFocus


class Chip(FollowsFocus, Static, can_focus=True):
    """One tag in the search bar. Click it, or focus it and press Backspace, to remove it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("backspace,delete", "remove", "Remove tag", id="chip.remove"),
    ]

    class Removed(Message):
        def __init__(self, tag: str) -> None:
            super().__init__()
            self.tag = tag

    def __init__(self, tag: str, *, excluded: bool = False) -> None:
        label = f"−{tag} ✕" if excluded else f"{tag} ✕"
        super().__init__(label, classes="chip -excluded" if excluded else "chip", markup=False)
        self.tag = tag
        self.excluded = excluded
        self.tooltip = f"{'excluded' if excluded else 'tag'} {tag}: click or Backspace to remove"

    def on_click(self, event: Click) -> None:
        event.stop()
        self.action_remove()

    def action_remove(self) -> None:
        self.post_message(self.Removed(self.tag))
