"""The backstop before the terminal: no control character in any segment the app paints.

Workspace text is made visible where it is shown (``reme_tui.safe_text``); a display site
that forgets, or a Textual widget that paints a value as it is, would still send ESC, a
C1 control or a bidi override to the terminal, which obeys it. Every line every widget
paints passes through the app's line filters (``App.get_line_filters``: Textual applies
them to each line a widget hands the compositor, after the widget's own line cache, and
keeps the result on the strip), so this filter is the one place all painted text crosses.

The characters are dropped, not shown: rich counts each of them zero cells wide, so the
strip keeps the cell length the layout was made with (a lone surrogate, one cell to rich
and unencodable as UTF-8, becomes U+FFFD). Showing them is the display sites' job; here
they only must not arrive. Style escapes and cursor moves are not in segment texts: the
driver makes them from styles after this, so the filter never sees (or breaks) them.
"""

from __future__ import annotations

import re

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from reme_tui.safe_text import NEVER_PAINTED


def _replacement(match: re.Match[str]) -> str:
    return "\ufffd" if match.group() >= "\ud800" else ""


def clean_segments(segments: list[Segment]) -> list[Segment]:
    """``segments`` with no character a terminal would obey; the same list when clean.

    The usual line is clean: one search over its joined text is the whole cost.
    """
    if NEVER_PAINTED.search("".join([segment.text for segment in segments])) is None:
        return segments
    cleaned: list[Segment] = []
    for text, style, control in segments:
        if control is not None:
            continue  # a rich Control (cursor move, clear): escape codes, never cells
        text = NEVER_PAINTED.sub(_replacement, text)
        if text:
            cleaned.append(Segment(text, style))
    return cleaned


class PaintGuard(LineFilter):
    """The line filter that cleans every painted line (see the module doc)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return clean_segments(segments)


PAINT_GUARD = PaintGuard()  # one instance: Textual caches filtered strips per filter object
