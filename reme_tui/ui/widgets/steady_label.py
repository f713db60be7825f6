"""A label that does nothing when told to show what it already shows.

`Static.update` always asks for a layout of the whole screen, ~30 ms at 160x45 with
10,000 memories, and most of what a keystroke updates (the search message, the ranking
mode, the empty-results line, the preview's placeholder) repeats what is on screen:
counted over 45 typed keys, these repeats were most of the keystroke's layouts."""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Label


class SteadyLabel(Label):
    _shown: VisualType | None = None

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if type(content) is type(self._shown) and content == self._shown:
            return
        self._shown = content
        super().update(content, layout=layout)
