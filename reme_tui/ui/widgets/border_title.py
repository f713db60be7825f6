"""Border titles: plain text (a file name is no markup), repainting only the top line."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from reme_tui.ui.plain import plain_line


def set_border_title(widget: Widget, title: str) -> None:
    """Show ``title`` as plain text in ``widget``'s top border.

    As text, not console markup: Textual's `border_title` reads a string as markup, so a
    memory named ``daily/[@click=app.quit]x.md`` titled the preview with a link that quit
    the app, ``notes [draft].md`` lost its brackets, and ``x[/b].md`` raised.

    And only the top line is repainted: the setter repaints every line of the widget, even
    for the same title, the results pane's 42 lines (1-4 ms) on every keystroke (issue
    19). This stores the title where the setter does (Textual 8.2.8's ``_border_title``;
    an upgrade must re-check it) and marks that one line dirty."""
    shown = plain_line(title)
    if not widget.is_mounted:
        widget.border_title = shown
        return
    current = widget._border_title
    if current is not None and current.plain == shown.plain:
        return
    widget._border_title = shown
    offset = widget.content_offset
    widget.refresh(Region(-offset.x, -offset.y, widget.outer_size.width, 1))
