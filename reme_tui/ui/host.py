"""What screens and commands need from the app that hosts them, as a Protocol.

Screens sit below the app (ui.app > ui.screens > ui.widgets, an import-linter contract):
they never import ``RemeApp``. ``host_of`` gives them the running app typed as this
Protocol; ``RemeApp`` satisfies it (mypy checks that where the app is built).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.app import App

from reme_tui.config import Settings
from reme_tui.engine import Delta, Engine

if TYPE_CHECKING:
    from textual.screen import Screen

Command = tuple[str, str, Callable[[], object]]


class Host(Protocol):
    """The app's side of the screens' work: the engine, the settings and the app-wide
    actions (publishing a change, opening editors and screens)."""

    engine: Engine
    settings: Settings

    @property
    def main_screen(self) -> Screen[None]: ...

    def now(self) -> str: ...

    def index_shown(self) -> None: ...

    def publish(self, delta: Delta | None) -> None: ...

    async def apply_changes(self, changes: list[str]) -> None: ...

    def history_changed(self) -> None: ...

    def open_in_editor(self, path: str, line: int | None = None) -> None: ...

    def open_tag_editor(self, path: str | None) -> None: ...

    def open_tag_dupes(self) -> None: ...

    def action_changes(self) -> None: ...

    def action_diagnostics(self) -> None: ...

    def action_untagged(self) -> None: ...

    def palette_commands(self) -> list[Command]: ...


def host_of(app: App[Any]) -> Host:
    """The running app (a screen's or a provider's ``self.app``), as the screens see it."""
    return cast(Host, app)
