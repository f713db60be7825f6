"""The tag sidebar: every tag with its file count, sortable, filterable as you type."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Key
from textual.widgets import Input, Label

from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.focus import FollowsFocus, KeepsKeyOrder, focus_now, is_bound
from reme_tui.ui.messages import TagChosen
from reme_tui.ui.widgets.border_title import set_border_title
from reme_tui.ui.widgets.line_list import LineList


class TagList(FollowsFocus, LineList):
    """One line per tag: mark, name (cut with an ellipsis), count right-aligned and whole.
    Only the lines on screen are drawn, so 5,000 tags cost what 30 do."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="tags.down"),
        Binding("k", "cursor_up", "Up", show=False, id="tags.up"),
        Binding("minus,x", "exclude", "Exclude tag", id="tags.exclude"),
        Binding("s", "toggle_sort", "Sort tags", id="tags.sort"),
    ]

    def on_key(self, event: Key) -> None:
        """Type-to-filter: printable keys that are not bound (here or on the screen, as the
        keymap says) go to the filter box; `?`, `q`, `t`, `/` … keep their meaning."""
        if event.is_printable and event.character and not is_bound(self, event.key):
            sidebar = self.query_ancestor(TagSidebar)
            sidebar.start_filter(event.character)
            event.stop()
            event.prevent_default()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tags: list[tuple[str, int]] = []
        self.selected: frozenset[str] = frozenset()
        self.excluded: frozenset[str] = frozenset()

    def show_tags(
        self,
        tags: list[tuple[str, int]],
        selected: frozenset[str],
        excluded: frozenset[str],
        highlighted: int,
    ) -> None:
        self.tags, self.selected, self.excluded = tags, selected, excluded
        self.reset(len(tags), highlighted)

    def tag_at(self, index: int) -> str:
        return self.tags[index][0]

    def row_content(self, index: int, width: int) -> Content:
        tag, count = self.tags[index]
        shown = for_terminal_line(tag)  # invisible and bidi characters as escapes
        if tag in self.excluded:
            mark = Content.styled("− ", "$error")
            name = Content.styled(shown, "strike $text-muted")
        elif tag in self.selected:
            mark = Content.styled("✓ ", "$success")
            name = Content.styled(shown, "bold $text-accent")
        else:
            mark, name = Content("  "), Content(shown)
        number = str(count)
        room = max(1, width - len(number) - 1 - mark.cell_length)
        if name.cell_length > room:
            name = name.truncate(room, ellipsis=True)
        gap = " " * max(1, width - mark.cell_length - name.cell_length - len(number))
        return Content.assemble(mark, name, gap, Content.styled(number, "$text-muted"))

    def action_exclude(self) -> None:
        self.query_ancestor(TagSidebar).choose_highlighted(exclude=True)

    def action_toggle_sort(self) -> None:
        self.query_ancestor(TagSidebar).toggle_sort()


class TagFilter(KeepsKeyOrder, FollowsFocus, Input):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "to_list", "To tag list", show=False, id="tags.filter_down"),
        Binding("escape", "clear", "Clear filter", show=False, id="tags.filter_clear"),
    ]

    def action_to_list(self) -> None:
        focus_now(self.query_ancestor(TagSidebar).query_one(TagList))

    def action_clear(self) -> None:
        self.value = ""
        self.action_to_list()


class TagSidebar(Vertical):
    """Lists (tag, count); Enter/click adds a chip, `-`/`x` adds an excluded chip."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tags: list[tuple[str, int]] = []
        self.sort_by = "file_count"
        self.selected: frozenset[str] = frozenset()
        self.excluded: frozenset[str] = frozenset()
        set_border_title(self, "Tags")
        self.prompt_width = 0  # the row width the prompts were made for

    def compose(self) -> ComposeResult:
        with Horizontal(id="tag-header"):
            yield Label("", id="tag-count")
            yield Label("", id="tag-sort")
        yield TagFilter(
            placeholder="filter tags…", id="tag-filter", compact=True, select_on_focus=False
        )
        yield TagList(id="tag-list")

    def on_mount(self) -> None:
        self._render_header(0)

    @property
    def filter_text(self) -> str:
        return self.query_one(TagFilter).value.strip().casefold()

    def set_tags(self, tags: list[tuple[str, int]]) -> None:
        """Replace the tag list (already in the engine's order for ``sort_by``)."""
        self.tags = tags
        self._rebuild()

    def set_chips(self, selected: frozenset[str], excluded: frozenset[str]) -> None:
        if selected == self.selected and excluded == self.excluded:
            return
        self.selected, self.excluded = selected, excluded
        self._rebuild()

    def visible_tags(self) -> list[tuple[str, int]]:
        needle = self.filter_text
        if not needle:
            return self.tags
        loose = needle.replace(" ", "_")
        return [(tag, n) for tag, n in self.tags if needle in tag or loose in tag]

    def _rebuild(self) -> None:
        tag_list = self.query_one(TagList)
        keep = None
        if tag_list.highlighted is not None and tag_list.highlighted < tag_list.row_count:
            keep = tag_list.tag_at(tag_list.highlighted)
        visible = self.visible_tags()
        index = 0
        if keep is not None:
            index = next((i for i, (tag, _) in enumerate(visible) if tag == keep), 0)
        tag_list.show_tags(visible, self.selected, self.excluded, index)
        self._render_header(len(visible))

    def _render_header(self, shown: int) -> None:
        total = len(self.tags)
        count = f"{total} tags" if shown == total else f"{shown}/{total} tags"
        self.query_one("#tag-count", Label).update(count)
        self.query_one("#tag-sort", Label).update(
            "by count" if self.sort_by == "file_count" else "by name"
        )

    def toggle_sort(self) -> None:
        self.sort_by = "tag" if self.sort_by == "file_count" else "file_count"
        if self.sort_by == "tag":
            self.tags = sorted(self.tags, key=lambda item: item[0])
        else:
            self.tags = sorted(self.tags, key=lambda item: (-item[1], item[0]))
        self._rebuild()

    def start_filter(self, character: str) -> None:
        box = self.query_one(TagFilter)
        focus_now(box)
        box.insert_text_at_cursor(character)

    def choose_highlighted(self, *, exclude: bool = False) -> None:
        tag_list = self.query_one(TagList)
        if tag_list.highlighted is not None and tag_list.row_count:
            self.post_message(TagChosen(tag_list.tag_at(tag_list.highlighted), exclude))

    @on(Input.Changed, "#tag-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._rebuild()

    @on(Input.Submitted, "#tag-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.choose_highlighted()
        focus_now(self.query_one(TagList))

    @on(LineList.Selected, "#tag-list")
    def _selected(self, event: LineList.Selected) -> None:
        event.stop()
        self.post_message(TagChosen(self.query_one(TagList).tag_at(event.index)))

    @on(LineList.Highlighted, "#tag-list")
    def _highlighted(self, event: LineList.Highlighted) -> None:
        event.stop()
