"""Outlinks, backlinks and dangling links of the previewed memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reme_tui.ui.focus import FollowsFocus
from reme_tui.ui.messages import OpenMemory


def _link_prompt(arrow: str, link: Any) -> Content:
    title = link.name or link.path
    parts = [
        Content.styled(f"{arrow} ", "$text-accent"),
        Content.styled(title, "bold"),
        Content.styled(f"  {link.path}", "$text-muted"),
    ]
    if getattr(link, "anchors", ()):
        parts.append(Content.styled("  #" + ", #".join(link.anchors), "$text-secondary"))
    if link.description:
        parts += [Content("\n   "), Content.styled(link.description, "italic $text-muted")]
    return Content.assemble(*parts)


def _similar_prompt(item: Any) -> Content:
    parts = [
        Content.styled("≈ ", "$text-accent"),
        Content.styled(item.name or item.path, "bold"),
        Content.styled(f"  {item.path}", "$text-muted"),
        Content.styled(f"  {item.similarity:.2f}", "$text-secondary"),
    ]
    if item.description:
        parts += [Content("\n   "), Content.styled(item.description, "italic $text-muted")]
    return Content.assemble(*parts)


class NeighboursList(FollowsFocus, OptionList):
    """Enter (or click) opens the neighbour; dangling links are listed but not openable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="links.down"),
        Binding("k", "cursor_up", "Up", show=False, id="links.up"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Links"
        self.counts = (0, 0, 0)

    def set_neighbours(self, neighbours: Any | None, similar: Sequence[Any] = ()) -> None:
        """Show the links of a memory, then `similar` memories it is not linked with."""
        options: list[Option | None] = []
        if neighbours is None:
            self.counts = (0, 0, 0)
            self.set_options([])
            self.border_title = "Links"
            return
        out, back, dangling = neighbours.outlinks, neighbours.inlinks, neighbours.dangling
        self.counts = (len(out), len(back), len(dangling))
        if out:
            options.append(
                Option(
                    Content.styled(f"Links to ({len(out)})", "bold $text-primary"), disabled=True
                )
            )
            options += [Option(_link_prompt("→", link), id=f"out:{link.path}") for link in out]
        if back:
            options.append(
                Option(
                    Content.styled(f"Linked from ({len(back)})", "bold $text-primary"),
                    disabled=True,
                )
            )
            options += [Option(_link_prompt("←", link), id=f"in:{link.path}") for link in back]
        if dangling:
            options.append(
                Option(
                    Content.styled(f"Dangling ({len(dangling)})", "bold $text-warning"),
                    disabled=True,
                )
            )
            options += [
                Option(
                    Content.assemble(
                        Content.styled("✗ ", "$text-error"),
                        Content.styled(str(target), "strike"),
                        Content.styled("  not a memory", "$text-muted"),
                    ),
                    id=f"dangling:{target}",
                    disabled=True,
                )
                for target in dangling
            ]
        if similar:
            options.append(
                Option(
                    Content.styled(f"Similar, not linked ({len(similar)})", "bold $text-primary"),
                    disabled=True,
                )
            )
            options += [Option(_similar_prompt(s), id=f"similar:{s.path}") for s in similar]
        if not options:
            options.append(
                Option(
                    Content.styled("No links to or from this memory.", "$text-muted"), disabled=True
                )
            )
        self.set_options(options)
        self.border_title = f"Links → {len(out)}  ← {len(back)}" + (
            f"  ✗ {len(dangling)}" if dangling else ""
        ) + (f"  ≈ {len(similar)}" if similar else "")

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        kind, _, path = option_id.partition(":")
        if kind in ("out", "in", "similar") and path:
            self.post_message(OpenMemory(path))
