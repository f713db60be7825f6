"""The preview's body: one line-API scroll view over `markdown_lines`, for every memory.

Only the lines on screen are turned into strips; blocks are rendered when their lines
are first needed (a screenful at once, the rest after the first paint). The widget knows
which source lines each block came from, so the preview can mark matched lines, jump
between blocks holding query words (n/N) and scroll to a heading.

It scrolls itself: a memory of another length changes its virtual size, where a body of
``height: auto`` in a scroll container changed its height, and each cursor move laid out
the screen 3-4 times (~5 ms each at 50,000 memories, issue 19).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from reme_tui.ui.focus import FollowsFocus

if TYPE_CHECKING:
    from reme_tui.ui.markdown_lines import Line, SourceBlock
    from reme_tui.ui.rows import TermPattern


# markdown_lines (markdown-it and rich.markdown: ~45 ms to import) is imported by the
# methods that render, with the first preview rather than before the first screen.
MATCHED = "markdown-body--matched"
HIT = "markdown-body--hit"
CURRENT = "markdown-body--current"
FIRST_SCREEN_LINES = 120  # rendered before the first paint; the rest follows
BLOCK_GAP = 1  # blank lines between blocks, as Markdown shows them


@dataclass(slots=True)
class _Rendered:
    first_line: int
    lines: list[Line]
    has_hit: bool


class MarkdownBody(FollowsFocus, ScrollView):
    """A Markdown body drawn line by line; see the module docstring."""

    ALLOW_MAXIMIZE = False  # as the scroll container it replaces
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Scroll down", show=False, id="preview.down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="preview.up"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {MATCHED, HIT, CURRENT}
    DEFAULT_CSS = """
    MarkdownBody {
        overflow-x: hidden;  /* blocks are rendered to the width; plain lines are cut */
        & > .markdown-body--matched { background: $warning 12%; }
        & > .markdown-body--hit {
            color: $text-warning;
            background: $warning 15%;
            text-style: bold;
        }
        & > .markdown-body--current { background: $warning 30%; }
    }
    """

    @dataclass
    class LinkClicked(Message):
        href: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = ""  # the Markdown shown
        self.blocks: list[SourceBlock] = []
        self.pattern: TermPattern | None = None
        self.matched: set[int] = set()  # block indexes shown as matched
        self.current: int | None = None  # the block n/N is on
        self._width = 0
        self._rendered: list[_Rendered] = []
        self._lines: list[tuple[int, int]] = []  # (block, line within it) per body line
        self.lines_built = 0  # strips made: what painting cost
        self.generation = 0  # bumped by every set_body: later callbacks check it
        self.plain: list[str] | None = None  # set_plain's lines, shown instead of blocks

    # -- content -------------------------------------------------------------

    def set_body(self, body: str, pattern: TermPattern | None) -> None:
        self.generation += 1
        self.source = body
        self.plain = None
        if body:  # the placeholder (empty) is shown at start: no renderer imported for it
            from reme_tui.ui.markdown_lines import split_blocks

            self.blocks = split_blocks(body)
        else:
            self.blocks = []
        self.pattern = pattern
        self.matched, self.current = set(), None
        self._reset()

    def set_plain(self, text: str, pattern: TermPattern | None) -> None:
        """``text`` as it is, a line a line (cut, not wrapped): the first paint while the
        cursor moves, before `set_body` renders the Markdown. The same widget shows both,
        so the switch is a repaint and not a Static shown and hidden (two layouts of the
        screen for every memory passed, issue 19)."""
        self.generation += 1
        self.source = text
        self.plain = text.split("\n")
        self.blocks = []
        self.pattern = pattern
        self.matched, self.current = set(), None
        self._reset()

    def _reset(self) -> None:
        self._rendered, self._lines = [], []
        self._update()

    def on_resize(self, event: Resize) -> None:
        self._update()

    def _update(self) -> None:
        """Render the first screenful at the width lines have and size the scroll to it."""
        self._fit_width()
        if not self._width:
            return  # not shown yet: rendered when it is (on_resize)
        self._render_first_screen()
        if self._fit_width():  # the scrollbar came or went: the lines are wider or narrower
            self._render_first_screen()
        if not self.complete:
            self.call_after_refresh(self._finish)
        self.refresh()

    def _fit_width(self) -> bool:
        """Whether the width lines have changed (the rendered blocks are then dropped)."""
        width = self.scrollable_content_region.width
        if not width or width == self._width:
            return False  # the same, or hidden: kept until it is shown again
        self._width = width
        self._rendered, self._lines = [], []
        return True

    def _render_first_screen(self) -> None:
        self._render_until(lines=max(FIRST_SCREEN_LINES, self.size.height * 2))

    def _height(self) -> int:
        """The body's lines: an estimate (for the scrollbar) until every block is rendered."""
        if self.plain is not None:
            return len(self.plain)
        if self.complete:
            return len(self._lines)
        done = self.blocks[len(self._rendered) - 1].end if self._rendered else 0
        return len(self._lines) + self.blocks[-1].end - done

    def _set_height(self, lines: int) -> None:
        size = Size(self._width, lines)
        if size == self.virtual_size:
            return
        # Not `self.virtual_size = size`, which asks for a layout of the screen: nothing
        # but this widget's scrollbar depends on it, and `_scroll_update` asks for a
        # layout when the scrollbar comes or goes.
        self.set_reactive(MarkdownBody.virtual_size, size)
        self._scroll_update(size)

    @property
    def line_count(self) -> int:
        return len(self._lines)

    @property
    def complete(self) -> bool:
        return len(self._rendered) == len(self.blocks)

    def _render_until(self, lines: int | None = None, block: int | None = None) -> None:
        """Render blocks in order until ``lines`` body lines (or block ``block``) exist, and
        size the scroll to the body."""
        if not self.complete:  # (the empty placeholder: no renderer imported for it)
            self._render_blocks(lines, block)
        self._set_height(self._height())

    def _render_blocks(self, lines: int | None, block: int | None) -> None:
        from reme_tui.ui.markdown_lines import render_block

        console = self.app.console
        theme = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        while len(self._rendered) < len(self.blocks):
            if lines is not None and len(self._lines) >= lines:
                return
            if block is not None and len(self._rendered) > block:
                return
            index = len(self._rendered)
            if index:
                for _ in range(BLOCK_GAP):
                    self._lines.append((-1, 0))
            rendered = render_block(console, self.blocks[index], self._width, theme)
            has_hit = self.pattern is not None and any(
                self.pattern.search("".join(segment.text for segment in line)) for line in rendered
            )
            self._rendered.append(_Rendered(len(self._lines), rendered, has_hit))
            self._lines.extend((index, n) for n in range(len(rendered)))

    def _finish(self) -> None:
        if not self.complete:
            self._render_until()
            self.refresh()

    # -- what the preview asks ------------------------------------------------

    def hit_blocks(self) -> list[int]:
        """Blocks holding a query word, in reading order (renders them all)."""
        self._render_until()
        return [i for i, rendered in enumerate(self._rendered) if rendered.has_hit]

    def block_line(self, index: int) -> int:
        """The body line block ``index`` starts on."""
        self._render_until(block=index)
        return self._rendered[index].first_line

    def blocks_within(self, start: int, end: int) -> list[int]:
        """Blocks overlapping source lines ``start`` to ``end`` (exclusive)."""
        return [i for i, b in enumerate(self.blocks) if b.start < end and b.end > start]

    def mark(self, blocks: set[int], current: int | None = None) -> None:
        self.matched, self.current = blocks, current
        self.refresh()

    # -- painting ------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        y += self.scroll_offset.y  # no x: lines are as wide as the view
        width = self._width
        if self.plain is not None:
            return self._plain_line(y, width)
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, self._past_end_style())
        index, line = self._lines[y]
        if index < 0:
            return Strip.blank(width, self._gap_style(y))
        from reme_tui.ui.markdown_lines import clickable_links, highlighted

        self.lines_built += 1
        segments = clickable_links(self._rendered[index].lines[line], "follow")
        if self.pattern is not None and self._rendered[index].has_hit:
            plain = "".join(segment.text for segment in segments)
            spans = [m.span() for m in self.pattern.finditer(plain)]
            if spans:
                segments = highlighted(self.app.console, segments, spans, self._hit_style())
        background = self._background(index)
        if background is not None:
            # Under the segments: a hit keeps its own colours on a matched block.
            segments = list(Segment.apply_style(segments, style=background))
        return Strip(segments).extend_cell_length(width).crop(0, width)

    def _plain_line(self, y: int, width: int) -> Strip:
        if not 0 <= y < len(self.plain or ()):
            return Strip.blank(width, self._past_end_style())
        from reme_tui.ui.markdown_lines import highlighted

        self.lines_built += 1
        text = (self.plain or [])[y].expandtabs(8)
        segments: list[Segment] = [Segment(text, self.rich_style)]
        if self.pattern is not None:
            spans = [m.span() for m in self.pattern.finditer(text)]
            if spans:
                segments = highlighted(self.app.console, segments, spans, self._hit_style())
        return Strip(segments).extend_cell_length(width, self.rich_style).crop(0, width)

    def _past_end_style(self) -> Style:
        """Below the body: the background, as the padding beside it has."""
        base, background = self.background_colors
        return Style.from_color(bgcolor=(base + background).rich_color)

    def _gap_style(self, y: int) -> Style:
        """The blank line between two blocks: marked when both are (a matched range reads
        as one band), else the widget's own colours (a bare blank showed black on light
        themes)."""
        before = self._lines[y - 1][0] if y > 0 else None
        after = self._lines[y + 1][0] if y + 1 < len(self._lines) else None
        if before is not None and before in self.matched and after in self.matched:
            return self.get_component_rich_style(MATCHED)
        return self.rich_style

    def _background(self, index: int | None) -> Style | None:
        if index is not None and index == self.current:
            return self.get_component_rich_style(CURRENT)
        if index is not None and index in self.matched:
            return self.get_component_rich_style(MATCHED)
        return None

    def _hit_style(self) -> Style:
        return self.get_component_rich_style(HIT)

    def action_follow(self, href: str) -> None:
        self.post_message(self.LinkClicked(href))
