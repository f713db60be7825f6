"""Key bindings as people read them: the help screen's table, the palette's key hints
and the keymap check, all from the one table of sections the app owns
(``RemeApp.key_sections``), so a new binding cannot be missing from any of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from textual.app import App
from textual.binding import Binding


@dataclass(frozen=True, slots=True)
class KeyRow:
    keys: str  # as the user presses them, after the keymap ("[", "ctrl+o", "j, down")
    description: str
    binding_id: str


KeySections = list[tuple[str, list[Binding]]]  # (where, bindings with an id), the app's table


def known_binding_ids(sections: KeySections) -> set[str]:
    return {b.id for _, bindings in sections for b in bindings if b.id}


def display_keys(app: App[Any], binding: Binding, keymap: Mapping[str, str]) -> str:
    """The binding's keys as the keymap sets them, spelled for people ("[" not
    "left_square_bracket")."""
    keys = keymap.get(binding.id or "", binding.key)
    shown = [app.get_key_display(replace(binding, key=key.strip())) for key in keys.split(",")]
    spelled = (f"ctrl+{key[1:]}" if key.startswith("^") and len(key) > 1 else key for key in shown)
    return ", ".join(dict.fromkeys(key for key in spelled if key))


def key_table(
    app: App[Any], keymap: Mapping[str, str], sections: KeySections
) -> list[tuple[str, list[KeyRow]]]:
    return [
        (
            title,
            [KeyRow(display_keys(app, b, keymap), b.description, b.id or "") for b in bindings],
        )
        for title, bindings in sections
    ]


def unknown_keymap_ids(keymap: Mapping[str, str], sections: KeySections) -> list[str]:
    known = known_binding_ids(sections)
    return sorted(binding_id for binding_id in keymap if binding_id not in known)
