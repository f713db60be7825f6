"""A list that costs what is on screen: rows drawn line by line (Textual's line API).

`OptionList` lays out every option when its options are replaced (thousands of rows per
keystroke) and `DataTable` builds every row's cells; here a new set of rows is a count and
a virtual height, and `render_line` builds only the rows the screen shows, each once per
(row, width, style), from the subclass's `row_content`. Rows have a fixed height
(`ROW_HEIGHT` lines), so the row under a line is arithmetic, not a lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style
from textual.visual import Padding, Visual

ROW = "line-list--row"
ROW_HIGHLIGHTED = "line-list--row-highlighted"


class LineList(ScrollView, can_focus=True):
    """``count`` rows of ``ROW_HEIGHT`` lines, one highlighted; subclasses say what a row shows."""

    ROW_HEIGHT: ClassVar[int] = 1

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {ROW, ROW_HIGHLIGHTED}

    # The same looks as Textual's OptionList, so lists do not change face.
    DEFAULT_CSS = """
    LineList {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        color: $foreground;
        background: $surface;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .line-list--row-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .line-list--row-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    @dataclass
    class RowMessage(Message):
        """Something happened to row ``index`` of ``line_list``."""

        line_list: LineList
        index: int

        @property
        def control(self) -> LineList:
            return self.line_list

    class Highlighted(RowMessage):
        """The cursor moved to row ``index``."""

    class Selected(RowMessage):
        """Row ``index`` was chosen (Enter or a click)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._count = 0
        self._highlighted: int | None = None
        self._strips: LRUCache[tuple[int, int, Style], list[Strip]] = LRUCache(1024)
        self.rows_built = 0  # rows rendered (cache misses): what the screen cost

    # -- what subclasses provide ---------------------------------------------

    def row_content(self, index: int, width: int) -> Content:
        """Row ``index`` for a row ``width`` cells wide: ``ROW_HEIGHT`` lines joined by
        newlines (more are cut, fewer padded)."""
        raise NotImplementedError

    # -- the rows ------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return self._count

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        self.move_to(index)

    def reset(self, count: int, highlighted: int | None = 0, *, scroll_y: int = 0) -> None:
        """New rows: ``count`` of them, ``highlighted`` selected (no message), the view at
        line ``scroll_y`` (then moved as little as needed to show the highlighted row).
        Only the virtual height changes; nothing is laid out or rendered until painted."""
        self._count = count
        self._strips.clear()
        self._highlighted = self._clamp(highlighted)
        self.virtual_size = Size(0, count * self.ROW_HEIGHT)
        self.scroll_to(y=scroll_y, animate=False, force=True, immediate=True)
        self._scroll_to_highlighted()
        self.refresh()

    def refresh_rows(self) -> None:
        """The rows' content changed in place (same count): draw them again."""
        self._strips.clear()
        self.refresh()

    def move_to(self, index: int | None, *, announce: bool = True) -> None:
        """Highlight row ``index`` (clamped), scroll it into view, and post `Highlighted`
        unless ``announce`` is False."""
        index = self._clamp(index)
        previous, self._highlighted = self._highlighted, index
        for row in (previous, index):
            if row is not None:
                self.refresh_lines(row * self.ROW_HEIGHT, self.ROW_HEIGHT)
        if index is None:
            return
        self._scroll_to_highlighted()
        if announce:
            self.post_message(self.Highlighted(self, index))

    def _clamp(self, index: int | None) -> int | None:
        if index is None or not self._count:
            return None
        return max(0, min(index, self._count - 1))

    def _scroll_to_highlighted(self) -> None:
        if self._highlighted is None or not self.is_mounted:
            return
        top = self._highlighted * self.ROW_HEIGHT
        region = Region(0, top, max(1, self.scrollable_content_region.width), self.ROW_HEIGHT)
        self.scroll_to_region(region, animate=False, force=True, immediate=True)

    @property
    def page_rows(self) -> int:
        return max(1, self.scrollable_content_region.height // self.ROW_HEIGHT)

    # -- keys and mouse --------------------------------------------------------

    def action_cursor_down(self) -> None:
        self.move_to(0 if self._highlighted is None else self._highlighted + 1)

    def action_cursor_up(self) -> None:
        self.move_to(0 if self._highlighted is None else self._highlighted - 1)

    def action_page_down(self) -> None:
        self.move_to((self._highlighted or 0) + self.page_rows)

    def action_page_up(self) -> None:
        self.move_to((self._highlighted or 0) - self.page_rows)

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self._count - 1)

    def action_select(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Selected(self, self._highlighted))

    def row_at(self, y: int) -> int | None:
        """The row under line ``y`` of the visible content, or None below the last."""
        index = (self.scroll_offset.y + y) // self.ROW_HEIGHT
        return index if 0 <= index < self._count else None

    async def _on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        index = None if offset is None else self.row_at(offset.y)
        if index is not None:
            self.move_to(index)
            self.action_select()

    # -- painting --------------------------------------------------------------

    def notify_style_update(self) -> None:
        self._strips.clear()  # a theme or focus change restyles every row
        super().notify_style_update()

    def _on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self._scroll_to_highlighted()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index, line = divmod(self.scroll_offset.y + y, self.ROW_HEIGHT)
        if not 0 <= index < self._count:
            return Strip.blank(width, self.get_visual_style(ROW).rich_style)
        if index == self._highlighted:
            style = self.get_visual_style(ROW, ROW_HIGHLIGHTED)
        else:
            style = self.get_visual_style(ROW)
        key = (index, width, style)
        strips = self._strips.get(key)
        if strips is None:
            strips = self._build_row(index, width, style)
            self._strips[key] = strips
        return strips[line]

    def _build_row(self, index: int, width: int, style: Style) -> list[Strip]:
        self.rows_built += 1
        padding = self.get_component_styles(ROW).padding
        content = self.row_content(index, max(1, width - padding.width))
        visual: Visual = Padding(content, padding) if padding else content
        rendered = Visual.to_strips(self, visual, width, None, style)[: self.ROW_HEIGHT]
        rich_style = style.rich_style
        strips = [strip.extend_cell_length(width, rich_style).crop(0, width) for strip in rendered]
        while len(strips) < self.ROW_HEIGHT:
            strips.append(Strip.blank(width, rich_style))
        return strips
