"""Command palette provider: every action of the app, plus themes and search helpers."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from reme_tui.ui.host import Command, host_of


class RemeCommands(Provider):
    """Lists the commands ``RemeApp.palette_commands`` returns (kept in one place)."""

    def _commands(self) -> list[Command]:
        return host_of(self.app).palette_commands()

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(callback), help=help_text)
