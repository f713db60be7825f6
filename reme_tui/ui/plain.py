"""Text from the workspace as Textual content: plain text, never console markup.

Textual reads a plain ``str`` given to a label, a static, an option, a tooltip or a
collapsible's title as markup: a memory named ``daily/[@click=app.quit]x.md`` (or a tag
``[@click=app.quit]``) became a link that quit the app when clicked, ``notes [draft].md``
lost its brackets, and ``x[/b].md`` raised MarkupError. `Content` is never parsed, and
Textual keeps escape characters in it, so the text is made safe for the terminal first
(``for_terminal``: escapes shown, never obeyed). Never "escape the markup" instead:
Textual's ``escape`` leaves ``[Draft]`` and ``[$accent]`` to be read as tags.
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from reme_tui.safe_text import for_terminal, for_terminal_line


def plain(text: object) -> Content:
    """``text`` (newlines kept) shown as written."""
    return Content(for_terminal(text))


def plain_line(text: object) -> Content:
    """A one-line ``text`` (a path, a tag, a name) shown as written, newlines as ``\\n``."""
    return Content(for_terminal_line(text))


def plain_cell(text: object, style: str = "") -> Text:
    """A one-line `DataTable` cell: the table reads a ``str`` cell as Rich markup, a `Text`
    as text. Cut, not wrapped, at the column's edge, as the table draws a ``str``."""
    return Text(for_terminal_line(text), style=style, no_wrap=True, end="")


def plain_tip(text: str | None) -> Content | None:
    """A tooltip (the tooltip widget reads a ``str`` as markup); None hides it."""
    return None if text is None else plain(text)
