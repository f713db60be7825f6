"""Keys go where the focus is when they are handled, not where it was when they arrived.

The app hands each key to the focused widget the moment it reads it, so in a burst such
as ``/tidy`` the letters queued behind ``/`` were already handed to the old pane before
``/`` moved the focus, and fired that pane's single-key commands (``t``, ``d``, ``e``,
``q``). Widgets that take keys mix in ``FollowsFocus``: a key that reaches them after the
focus moved on is passed to the widget that has the focus now. ``focus_now`` moves the
focus at once (``Widget.focus`` defers it to a later message).

The same holds for every binding, not only the priority ones (``/``, Escape): Textual runs a
key's bindings (Tab's "next pane", a list's ``j``) only once the key has bubbled back up to
the app, by when the keys behind it were handed to the old widget (``/budget<Tab>2026``
put the date into the search box). So a ``FollowsFocus`` widget runs the bindings of a key
it did not use itself as soon as it is done with it, in order with the keys around it, and
the app skips them when the key arrives (``BINDINGS_RAN``).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widget import Widget

from reme_tui.ui.safe_input import SafeInput


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next queued event is handled."""
    if widget.is_attached and widget.focusable:
        widget.screen.set_focus(widget)


class FollowsFocus:
    """Mixin (before the widget class) for widgets that take keys: late keys follow the
    focus (see the module doc). A plain class, so Textual's CSS inheritance is unchanged."""

    async def on_event(self: Any, event: events.Event) -> None:
        if not (isinstance(event, events.Key) and event.is_forwarded) or bindings_ran(event):
            await super().on_event(event)  # type: ignore[misc]  # a Widget follows in the MRO
            return
        focused = self.app.focused
        if focused is not None and self not in focused.ancestors_with_self:
            focused._forward_event(events.Key(event.key, event.character))
            return
        await super().on_event(event)  # type: ignore[misc]
        if not event._stop_propagation:
            # Marked before running them: the key has bubbled already and may reach the
            # app while a binding awaits.
            setattr(event, BINDINGS_RAN, True)
            await self.app._check_bindings(event.key)


BINDINGS_RAN = "reme_bindings_ran"
"""Set on a key whose bindings a ``FollowsFocus`` widget ran, or found none (module doc)."""


def bindings_ran(event: events.Key) -> bool:
    return bool(getattr(event, BINDINGS_RAN, False))


class KeepsKeyOrder:
    """Mixin (before the widget class) for text inputs: the widget's own bindings (Enter,
    Backspace, arrows, Ctrl+U...) run when their key is handled, in order with the
    characters around them. Textual inserts a character as the input handles it but runs
    a binding only after its key has bubbled up to the app, by when the characters queued
    behind it are in: `ctrl+u` then `budget` in one read left the box empty, a fast
    `ab<backspace>c` gave "ab" (Textual issue #6605)."""

    async def _on_key(self: Any, event: events.Key) -> None:
        if event.is_printable:
            return  # the input inserts it
        bindings = self._bindings.copy()
        keymap = self.app._keymap  # the user's remapping, applied as Screen does
        if keymap:
            bindings.apply_keymap(keymap)
        for binding in bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return


class OrderedInput(KeepsKeyOrder, SafeInput):
    """A plain text input whose editing keys keep their order with typed characters."""


def is_bound(widget: Widget, key: str) -> bool:
    """Whether ``key`` runs a binding on the widget's screen (as remapped by the keymap)."""
    return key in widget.screen.active_bindings
