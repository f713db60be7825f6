"""Keys go where the focus is when they are handled, not where it was when they arrived.

The app hands each key to the focused widget the moment it reads it, so in a burst such
as ``/tidy`` the letters queued behind ``/`` were already handed to the old pane before
``/`` moved the focus, and fired that pane's single-key commands (``t``, ``d``, ``e``,
``q``). Widgets that take keys mix in ``FollowsFocus``: a key that reaches them after the
focus moved on is passed to the widget that has the focus now. ``focus_now`` moves the
focus at once (``Widget.focus`` defers it to a later message).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widget import Widget


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next queued event is handled."""
    if widget.is_attached and widget.focusable:
        widget.screen.set_focus(widget)


class FollowsFocus:
    """Mixin (before the widget class) for widgets that take keys: late keys follow the
    focus (see the module doc). A plain class, so Textual's CSS inheritance is unchanged."""

    async def on_event(self: Any, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.is_forwarded:
            focused = self.app.focused
            if focused is not None and self not in focused.ancestors_with_self:
                focused._forward_event(events.Key(event.key, event.character))
                return
        await super().on_event(event)


def is_bound(widget: Widget, key: str) -> bool:
    """Whether ``key`` runs a binding on the widget's screen (as remapped by the keymap)."""
    return key in widget.screen.active_bindings
