"""A list that costs what is on screen: rows drawn line by line (Textual's line API).

`OptionList` lays out every option when its options are replaced (thousands of rows per
keystroke) and `DataTable` builds every row's cells; here a new set of rows is a count and
a virtual height, and `render_line` builds only the rows the screen shows, each once per
(row, width, style), from the subclass's `row_content`. Rows have a fixed height
(`ROW_HEIGHT` lines), so the row under a line is arithmetic, not a lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content, Span
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style

# A row's line as pieces: text and the styles (names like "$text-muted", or resolved)
# layered, in order, on the row's style.
Piece = tuple[str, tuple["str | Style", ...]]

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
        self._piece_styles: dict[tuple[Style, tuple[str | Style, ...]], RichStyle] = {}
        self._row_padding: Spacing | None = None
        self.rows_built = 0  # rows rendered (cache misses): what the screen cost
        self._after_paint: list[Callable[[], object]] = []

    # -- what subclasses provide ---------------------------------------------

    def row_content(self, index: int, width: int) -> Content:
        """Row ``index`` for a row ``width`` cells wide: ``ROW_HEIGHT`` lines joined by
        newlines (more are cut, fewer padded)."""
        raise NotImplementedError

    def row_pieces(self, index: int, width: int) -> Sequence[Sequence[Piece]] | None:
        """Row ``index`` as lines of pieces, drawn without building a `Content`; None (the
        default) draws `row_content`. Both must show the same cells."""
        return None

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
        self._piece_styles.clear()
        self._row_padding = None
        super().notify_style_update()

    def _on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self._scroll_to_highlighted()

    def call_after_paint(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the list has next been drawn into a frame, after the
        frame is written. Work that follows the rows (the count, the chart) waits for this:
        `call_after_refresh` ran it before the compositor's frame, on the other core's
        thread, holding the GIL while the rows were drawn (issue 19)."""
        self._after_paint.append(callback)
        self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        if self._after_paint:
            callbacks, self._after_paint = self._after_paint, []
            for callback in callbacks:
                self.call_later(callback)  # runs after this frame's handler has written it
        return lines

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
        """Row ``index`` as ``ROW_HEIGHT`` strips ``width`` cells wide.

        The same cells as `Visual.to_strips` with this list's CSS (no wrap, an ellipsis
        where a line is cut, the row's padding), drawn straight from the row's pieces or
        its content's spans: the generic path (wrap and align machinery, a style with a
        mouse offset per segment) cost 0.75 ms a row, most of a new result set's first
        paint at 10,000 memories (issue 19)."""
        self.rows_built += 1
        padding = self._row_padding
        if padding is None:  # merging the component styles cost a quarter of a row
            padding = self._row_padding = self.get_component_styles(ROW).padding
        inner = max(1, width - padding.width)
        rich_style = style.rich_style
        left = [Segment(" " * padding.left, rich_style)] if padding.left else []
        pieces = self.row_pieces(index, inner) if width > padding.width else []
        if pieces is None:
            lines = self.row_content(index, inner).split("\n", allow_blank=True)
            pieces = [self._content_pieces(line, inner, style) for line in lines]
        strips: list[Strip] = []
        for line in pieces[: self.ROW_HEIGHT]:
            line = cut_pieces(line, inner)
            segments = left + [
                Segment(text, self._piece_style(style, names)) for text, names in line if text
            ]
            strip = Strip(segments)
            strips.append(strip.extend_cell_length(width, rich_style).crop(0, width))
        while len(strips) < self.ROW_HEIGHT:
            strips.append(Strip.blank(width, rich_style))
        return strips

    def _content_pieces(self, line: Content, inner: int, style: Style) -> list[Piece]:
        """A content line as pieces styled already (its spans resolved by Textual)."""
        line = line.expand_tabs(8).truncate(inner, ellipsis=True)
        return [
            (text, (text_style,))
            for text, text_style in line.render(style, end="", parse_style=self._get_style)
        ]

    def _piece_style(self, style: Style, names: tuple[str | Style, ...]) -> RichStyle:
        """The row's ``style`` with ``names`` layered on it, as Content would combine them."""
        key = (style, names)
        cached = self._piece_styles.get(key)
        if cached is None:
            if len(names) == 1 and isinstance(names[0], Style):
                combined = names[0]  # already combined with the row's style
            else:
                combined = Style.combine([style, *map(self._get_style, names)])
            cached = (style + combined).rich_style
            if len(self._piece_styles) > 4096:
                self._piece_styles.clear()
            self._piece_styles[key] = cached
        return cached


def cut_pieces(line: Sequence[Piece], width: int) -> Sequence[Piece]:
    """``line`` cut to ``width`` cells with an ellipsis, as `Content.truncate` cuts (the
    ellipsis takes the style of the character it replaces)."""
    plain = "".join(text for text, _ in line)
    if plain.isascii() and plain.isprintable():  # one cell a character
        if len(plain) <= width:
            return line
        cut = plain[: width - 1] + "…" if width else ""
    elif cell_len(plain) <= width:
        return line
    else:
        cut = set_cell_size(plain, width - 1) + "…" if width else ""
    out: list[Piece] = []
    start = 0
    for text, names in line:
        if start >= len(cut):
            break
        end = start + len(text)
        out.append((cut[start : min(end, len(cut))], names))
        start = end
    return out


def pieces_content(lines: Sequence[Sequence[Piece]]) -> Content:
    """Lines of pieces as one Content (the lines joined by newlines)."""
    parts: list[str] = []
    spans: list[Span] = []
    at = 0
    for number, line in enumerate(lines):
        if number:
            parts.append("\n")
            at += 1
        for text, names in line:
            if not text:
                continue
            spans.extend(Span(at, at + len(text), name) for name in names)
            parts.append(text)
            at += len(text)
    return Content("".join(parts), spans, strip_control_codes=False)
