"""The preview header's tags: one line of chips, drawn by one widget.

A chip per widget (a `Static` each in a `Horizontal`) meant removing and mounting
widgets, and two layouts of the screen, for every memory the cursor passed (~30 ms each
at 10,000 memories, issue 19). Here a new memory's tags are a repaint of one line;
a click or the mouse over a chip is found from its column.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.widget import Widget

from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.messages import TagChosen
from reme_tui.ui.plain import plain_line

CHIP = "tag-chips--chip"
CHIP_HOVER = "tag-chips--hover"


class TagChips(Widget):
    """``#tag`` chips in a row; clicking one adds its tag to the search."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {CHIP, CHIP_HOVER}
    DEFAULT_CSS = """
    TagChips {
        height: 1;
        & > .tag-chips--chip { background: $accent 25%; color: $text-accent; }
        & > .tag-chips--hover { background: $accent 50%; color: $text-accent; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tags: tuple[str, ...] = ()
        self.hovered: int | None = None

    def show(self, tags: tuple[str, ...] | list[str]) -> None:
        """Show ``tags`` (nothing happens when they are the ones shown)."""
        tags = tuple(tags)
        if tags == self.tags:
            return
        self.tags, self.hovered = tags, None
        self.tooltip = None
        self.display = bool(tags)
        self.refresh()

    @staticmethod
    def label(tag: str) -> str:
        """What a chip shows: the tag made safe, with what draws nothing as escapes."""
        return f"#{for_terminal_line(tag)}"

    def spans(self) -> list[tuple[int, int]]:
        """Each chip's first and past-last column (a space inside each end, one between)."""
        spans: list[tuple[int, int]] = []
        x = 0
        for tag in self.tags:
            width = cell_len(self.label(tag)) + 2
            spans.append((x, x + width))
            x += width + 1
        return spans

    def chip_at(self, x: int) -> int | None:
        return next((i for i, (a, b) in enumerate(self.spans()) if a <= x < b), None)

    def render(self) -> Content:
        parts: list[Content | str] = []
        for index, tag in enumerate(self.tags):
            if index:
                parts.append(" ")
            style = CHIP_HOVER if index == self.hovered else CHIP
            parts.append(Content.styled(f" {self.label(tag)} ", self.get_visual_style(style)))
        return Content.assemble(*parts)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hovered = self.chip_at(event.x)
        if hovered != self.hovered:
            self.hovered = hovered
            self.tooltip = (
                None if hovered is None else plain_line(f"click to filter by {self.tags[hovered]}")
            )
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.hovered is not None:
            self.hovered = None
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        index = self.chip_at(event.x)
        if index is not None:
            event.stop()
            self.post_message(TagChosen(self.tags[index]))
