"""Every key binding of the app, by where it works: the help screen, the palette and the
keymap check all read this one list, so a new binding cannot be missing from any of them."""

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


def key_sections() -> list[tuple[str, list[Binding]]]:
    """(where, bindings with an id) for every screen and widget that binds keys."""
    from reme_tui.ui.app import RemeApp
    from reme_tui.ui.screens.changes import ChangesScreen, RevertConfirmScreen
    from reme_tui.ui.screens.diagnostics import DiagnosticsScreen
    from reme_tui.ui.screens.dupes import DismissedPairsScreen, DupesScreen, MergeConfirmScreen
    from reme_tui.ui.screens.help import HelpScreen
    from reme_tui.ui.screens.main import MainScreen
    from reme_tui.ui.widgets.chips import Chip
    from reme_tui.ui.widgets.neighbours import NeighboursList
    from reme_tui.ui.widgets.preview import PreviewScroll
    from reme_tui.ui.widgets.results import ResultList
    from reme_tui.ui.widgets.tag_editor import EditChip, TagEditor
    from reme_tui.ui.widgets.tag_sidebar import TagFilter, TagList

    sections: list[tuple[str, list[object]]] = [
        ("Everywhere", [*MainScreen.BINDINGS, *RemeApp.BINDINGS]),
        ("Results list", list(ResultList.BINDINGS)),
        ("Tag list", [*TagList.BINDINGS, *TagFilter.BINDINGS]),
        ("Search chips", list(Chip.BINDINGS)),
        ("Preview", list(PreviewScroll.BINDINGS)),
        ("Links", list(NeighboursList.BINDINGS)),
        ("Tag editor (t)", [*TagEditor.BINDINGS, *EditChip.BINDINGS]),
        (
            "Near-duplicate tags (d)",
            [*DupesScreen.BINDINGS, *MergeConfirmScreen.BINDINGS, *DismissedPairsScreen.BINDINGS],
        ),
        ("Changes (c)", [*ChangesScreen.BINDINGS, *RevertConfirmScreen.BINDINGS]),
        ("Diagnostics (!)", list(DiagnosticsScreen.BINDINGS)),
        ("Help (?)", list(HelpScreen.BINDINGS)),
    ]
    return [
        (title, [b for b in bindings if isinstance(b, Binding) and b.id])
        for title, bindings in sections
    ]


def known_binding_ids() -> set[str]:
    return {b.id for _, bindings in key_sections() for b in bindings if b.id}


def display_keys(app: App[Any], binding: Binding, keymap: Mapping[str, str]) -> str:
    """The binding's keys as the keymap sets them, spelled for people ("[" not
    "left_square_bracket")."""
    keys = keymap.get(binding.id or "", binding.key)
    shown = [app.get_key_display(replace(binding, key=key.strip())) for key in keys.split(",")]
    spelled = (f"ctrl+{key[1:]}" if key.startswith("^") and len(key) > 1 else key for key in shown)
    return ", ".join(dict.fromkeys(key for key in spelled if key))


def key_table(app: App[Any], keymap: Mapping[str, str]) -> list[tuple[str, list[KeyRow]]]:
    return [
        (
            title,
            [KeyRow(display_keys(app, b, keymap), b.description, b.id or "") for b in bindings],
        )
        for title, bindings in key_sections()
    ]


def unknown_keymap_ids(keymap: Mapping[str, str]) -> list[str]:
    known = known_binding_ids()
    return sorted(binding_id for binding_id in keymap if binding_id not in known)
