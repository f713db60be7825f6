"""Outlinks, backlinks, sources and dangling links of the previewed memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.focus import FollowsFocus
from reme_tui.ui.messages import OpenMemory, OpenSource
from reme_tui.ui.widgets.border_title import set_border_title

_SOURCE_ICONS = {"conversation": "💬", "image": "▣", "resource": "▤", "memory": "→", "file": "▤"}


# Every name, path, anchor, description and target below is read from a memory or its
# links: `Content` keeps an ESC in them, so each goes through `for_terminal` (shown as
# ``\x1b``, never obeyed); one-line fields through `for_terminal_line`.


def _link_prompt(arrow: str, link: Any, stale: str | None = None) -> Content:
    title = link.name or link.path
    parts = [
        Content.styled(f"{arrow} ", "$text-accent"),
        Content.styled(for_terminal_line(title), "bold"),
        Content.styled(f"  {for_terminal_line(link.path)}", "$text-muted"),
    ]
    if stale:
        parts.append(Content.styled("  stale", "dim italic $text-warning"))
    if getattr(link, "anchors", ()):
        anchors = ", #".join(map(for_terminal_line, link.anchors))
        parts.append(Content.styled(f"  #{anchors}", "$text-secondary"))
    if link.description:
        parts += [
            Content("\n   "),
            Content.styled(for_terminal(link.description), "italic $text-muted"),
        ]
    return Content.assemble(*parts)


def _source_prompt(source: Any) -> Content:
    icon = _SOURCE_ICONS.get(source.kind, "▤")
    where = f"  {source.field}" if source.field else ""
    target, what = for_terminal_line(source.target), for_terminal_line(f"{source.kind}{where}")
    if source.exists:
        return Content.assemble(
            Content.styled(f"{icon} ", "$text-accent"),
            Content.styled(target, "bold"),
            Content.styled(f"  {what}", "$text-muted"),
        )
    return Content.assemble(
        Content.styled("✗ ", "$text-error"),
        Content.styled(target, "strike"),
        Content.styled(f"  missing {what}", "$text-muted"),
    )


def _heading(title: str, count: int, style: str = "bold $text-primary") -> Option:
    """The unselectable line above one kind of neighbour: its title and how many."""
    return Option(Content.styled(f"{title} ({count})", style), disabled=True)


def _similar_prompt(item: Any) -> Content:
    parts = [
        Content.styled("≈ ", "$text-accent"),
        Content.styled(for_terminal_line(item.name or item.path), "bold"),
        Content.styled(f"  {for_terminal_line(item.path)}", "$text-muted"),
        Content.styled(f"  {item.similarity:.2f}", "$text-secondary"),
    ]
    if item.description:
        parts += [
            Content("\n   "),
            Content.styled(for_terminal(item.description), "italic $text-muted"),
        ]
    return Content.assemble(*parts)


class NeighboursList(FollowsFocus, OptionList):
    """Enter (or click) opens the neighbour; dangling links are listed but not openable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="links.down"),
        Binding("k", "cursor_up", "Up", show=False, id="links.up"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        set_border_title(self, "Links")
        self.counts = (0, 0, 0)
        self.out_anchors: dict[str, str] = {}  # outlink path -> the first #heading it names

    def set_neighbours(self, neighbours: Any | None, similar: Sequence[Any] = ()) -> None:
        """Show the links of a memory, then `similar` memories it is not linked with."""
        options: list[Option | None] = []
        if neighbours is None:
            self.counts = (0, 0, 0)
            self.set_options([])
            set_border_title(self, "Links")
            return
        out, back, dangling = neighbours.outlinks, neighbours.inlinks, neighbours.dangling
        sources = getattr(neighbours, "sources", [])
        stale: dict[str, str] = getattr(neighbours, "stale", {})
        self.counts = (len(out), len(back), len(dangling))
        self.out_anchors = {
            link.path: link.anchors[0] for link in out if getattr(link, "anchors", ())
        }
        if out:
            options.append(_heading("Links to", len(out)))
            options += [
                Option(_link_prompt("→", link, stale.get(link.path)), id=f"out:{link.path}")
                for link in out
            ]
        if back:
            options.append(_heading("Linked from", len(back)))
            options += [Option(_link_prompt("←", link), id=f"in:{link.path}") for link in back]
        if sources:
            options.append(_heading("Sources", len(sources)))
            options += [
                Option(
                    _source_prompt(source),
                    id=f"source:{source.kind}:{source.target}",
                    disabled=not source.exists,
                )
                for source in sources
            ]
        if dangling:
            options.append(_heading("Dangling", len(dangling), "bold $text-warning"))
            options += [
                Option(
                    Content.assemble(
                        Content.styled("✗ ", "$text-error"),
                        Content.styled(for_terminal_line(target), "strike"),
                        Content.styled(
                            "  stale: no longer exists" if target in stale else "  not a memory",
                            "dim italic $text-warning" if target in stale else "$text-muted",
                        ),
                    ),
                    id=f"dangling:{target}",
                )
                for target in dangling
            ]
        if similar:
            options.append(_heading("Similar, not linked", len(similar)))
            options += [Option(_similar_prompt(s), id=f"similar:{s.path}") for s in similar]
        if not options:
            options.append(
                Option(
                    Content.styled("No links to or from this memory.", "$text-muted"), disabled=True
                )
            )
        self.set_options(options)
        set_border_title(
            self,
            f"Links → {len(out)}  ← {len(back)}"
            + (f"  ✗ {len(dangling)}" if dangling else "")
            + (f"  ≈ {len(similar)}" if similar else ""),
        )

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        kind, _, path = option_id.partition(":")
        if kind == "out" and path:
            # As a click on [[path#Heading]] in the preview: open at the heading it names.
            self.post_message(OpenMemory(path, anchor=self.out_anchors.get(path)))
        elif kind in ("in", "similar") and path:
            self.post_message(OpenMemory(path))
        elif kind == "dangling":
            self.notify(f"{path} is not a memory of this workspace (a dangling link)", timeout=3)
        elif kind == "source" and path:
            source_kind, _, target = path.partition(":")
            self.post_message(OpenSource(target, source_kind))
