"""Command palette provider: every action of the app, plus themes and search helpers."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from reme_tui.ui.app import RemeApp

Command = tuple[str, str, Callable[[], object]]


class RemeCommands(Provider):
    """Lists the commands ``RemeApp.palette_commands`` returns (kept in one place)."""

    def _commands(self) -> list[Command]:
        app: RemeApp = self.app  # type: ignore[assignment]
        return app.palette_commands()

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(callback), help=help_text)
