"""A label that does nothing when told to show what it already shows.

`Static.update` always asks for a layout of the whole screen, ~30 ms at 160x45 with
10,000 memories, and most of what a keystroke updates (the search message, the ranking
mode, the empty-results line, the preview's placeholder) repeats what is on screen:
counted over 45 typed keys, these repeats were most of the keystroke's layouts.

What it shows is text, never markup: every use shows words from the workspace or the
query (a memory's description, a search error quoting a token, a date), and Textual reads
a ``str`` as markup (``[@click=app.quit]`` a link that runs an action)."""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content
from textual.visual import VisualType
from textual.widgets import Label

from reme_tui.ui.plain import plain


class SteadyLabel(Label):
    """See the module docstring. A new text that takes the same room as the old (as many
    lines either way, none wrapped, as wide when the label's width follows its text)
    repaints the label alone: the dates of the results chart and the preview's name,
    description and location (two lines with the ranking) change on every keystroke or
    cursor move, and each asked for a layout of the screen (issue 19)."""

    _shown: VisualType | None = None

    def __init__(self, content: VisualType = "", *, id: str | None = None) -> None:
        super().__init__(plain(content) if isinstance(content, str) else content, id=id)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        """Show ``content``; a ``str`` as plain text, its escape characters shown."""
        if isinstance(content, str):
            content = plain(content)
        if _same(content, self._shown):
            return
        if layout and self._same_room(self._shown, content):
            layout = False
        self._shown = content
        super().update(content, layout=layout)

    def _same_room(self, old: VisualType | None, new: VisualType) -> bool:
        before, after = _line_widths(old), _line_widths(new)
        if before is None or after is None or not self.is_mounted:
            return False
        room = self.content_size.width
        if room <= 0 or max(before + after) > room:
            return False  # wrapped or cut: the height or the width may change
        if len(before) != len(after):
            return False  # another height
        width = self.styles.width
        return max(before) == max(after) or (width is not None and not width.is_auto)


def _same(new: VisualType, old: VisualType | None) -> bool:
    """Whether ``new`` is what is shown: the same text with the same styles (`Content`
    compares its text alone, so a new style on the same words would not be shown)."""
    if type(new) is not type(old):
        return False
    if isinstance(new, Content) and isinstance(old, Content):
        return new.plain == old.plain and new.spans == old.spans
    return new == old


def _line_widths(content: VisualType | None) -> list[int] | None:
    """The cells of each line of a text; None for anything else."""
    if isinstance(content, str):
        content = Content(content)
    if not isinstance(content, Content):
        return None
    return [cell_len(line) for line in content.plain.split("\n")]  # as Content lays it out
