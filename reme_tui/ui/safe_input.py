"""An `Input` that shows control characters in its value as escapes, and keeps the value.

Textual's `Input` paints its value as it is: a tag ``"proj\\x1b[31mx"`` put in the tag
editor's rename box, or a path with ESC completed in the why-not box, went to the
terminal raw. The value must stay the real text (it is what gets saved and compared), so
only the painting changes: each unsafe character is painted as its escape (``\\x1b``,
the same text the chips and lists show), several cells for one character of the value.

Input maps value positions to cells in three places: its cursor offset (scrolling, the
terminal cursor), a click's cell back to a position, and the cursor and selection styles
in `render_line`. This overrides all three (and `_value`, which sizes the box) with the
same map; a value with nothing to escape takes Textual's own paths. These are private
Input members: `tests/ui/test_safe_input.py` checks they are still there.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

from rich.cells import cell_len
from rich.text import Text
from textual.expand_tabs import expand_tabs_inline
from textual.strip import Strip
from textual.widgets import Input

from reme_tui.safe_text import for_terminal


def _piece(char: str) -> str:
    return "\\n" if char == "\n" else for_terminal(char)


@lru_cache(maxsize=64)
def escaped(value: str) -> tuple[str, tuple[int, ...]] | None:
    """``value`` as painted and where each of its characters starts in that (one more
    entry: the end); None when it has nothing to escape."""
    if "\n" not in value and for_terminal(value) == value:
        return None
    pieces = [_piece(char) for char in value]
    return "".join(pieces), (0, *accumulate(map(len, pieces)))


class SafeInput(Input):
    """An Input whose value may hold control characters: they show, they are not sent."""

    def _shown(self) -> tuple[str, tuple[int, ...]] | None:
        return None if self.password else escaped(self.value)

    @property
    def _value(self) -> Text:
        shown = self._shown()
        if shown is None:
            return super()._value
        text = Text(shown[0], no_wrap=True, overflow="ignore", end="")
        return text if self.highlighter is None else self.highlighter(text)

    def _position_to_cell(self, position: int) -> int:
        shown = self._shown()
        if shown is None:
            return super()._position_to_cell(position)
        text, starts = shown
        return cell_len(expand_tabs_inline(text[: starts[position]], 4))

    def _cell_offset_to_index(self, offset: int) -> int:
        shown = self._shown()
        if shown is None:
            return super()._cell_offset_to_index(offset)
        text, starts = shown
        offset += self.scroll_offset.x
        cells = 0
        for index in range(len(self.value)):
            cells += cell_len(text[starts[index] : starts[index + 1]])
            if offset < cells:
                return index
        return len(self.value)

    def render_line(self, y: int) -> Strip:
        # Input.render_line's branch for a value, with value positions mapped through starts.
        shown = self._shown()
        suggestion = self._suggestion[len(self.value) :] if self.has_focus else ""
        shown_suggestion = escaped(suggestion)
        if y != 0 or not self.value or (shown is None and shown_suggestion is None):
            return super().render_line(y)  # the placeholder, or nothing to escape
        text, starts = shown or (self.value, tuple(range(len(self.value) + 1)))
        result = self._value
        if suggestion:
            style = self.get_component_rich_style("input--suggestion")
            result += Text((shown_suggestion or (suggestion,))[0], style, end="")
        if self.has_focus:
            start, end = sorted(self.selection)
            if start != end:
                style = self.get_component_rich_style("input--selection")
                result.stylize_before(style, starts[start], starts[end])
            if self._cursor_visible:
                cursor = self.cursor_position
                if not suggestion and self.cursor_at_end:
                    result.pad_right(1)
                cursor_end = starts[cursor + 1] if cursor < len(self.value) else len(text) + 1
                style = self.get_component_rich_style("input--cursor")
                result.stylize(style, starts[cursor], cursor_end)
        options = self.app.console_options.update_width(self.content_width)
        width = self.scrollable_content_region.width + 1
        scroll_x = self.scroll_offset.x
        strip = Strip(self.app.console.render(result, options)).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width).apply_style(self.rich_style)
