"""The inline tag editor: chips for the pending list, an input with autocomplete, warnings.

The widget only edits a list in memory and asks for a save (``SaveRequested``) or a
cancel (``Cancelled``); reading and writing the file is the screen's job.

Keys (input): type to get suggestions, Up/Down pick one, Tab takes it, Enter adds what
is typed (or the picked suggestion) and saves when the input is empty, Backspace on
an empty input removes the last tag, Left on an empty input selects the chips.
Keys (chip): Left/Right select, ctrl/alt+Left/Right (or alt+Up/Down) move it,
Backspace/Delete or a click removes it, F2 or r renames it. ctrl+y replaces a
near-duplicate by the existing spelling, ctrl+s saves, Escape cancels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.events import Click, Resize
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from reme_tui.engine.tags import MAX_TAGS_PER_FILE, TagWarning
from reme_tui.safe_text import for_terminal, for_terminal_line
from reme_tui.ui.focus import FollowsFocus, KeepsKeyOrder, focus_now
from reme_tui.ui.plain import plain, plain_line
from reme_tui.ui.safe_input import SafeInput
from reme_tui.ui.tag_draft import Suggestion, TagDraft, first_near_duplicate, pack
from reme_tui.ui.widgets.border_title import set_border_title

HELP = (
    "Enter add/save · Tab complete · ↑↓ pick · ← chips: ctrl+←→ move, "
    "F2 rename, Del remove · ctrl+y use existing · Esc cancel"
)
_ICONS = {
    "invalid": ("✗", "$text-error"),
    "too-long": ("✗", "$text-error"),
    "duplicate": ("=", "$text-warning"),
    "overflow": ("↓", "$text-warning"),
    "near-duplicate": ("≈", "$text-warning"),
}
_CHIP_CLASSES = {
    "invalid": "-invalid",
    "too-long": "-invalid",
    "duplicate": "-duplicate",
    "overflow": "-overflow",
    "near-duplicate": "-near",
}


def chip_width(tag: str) -> int:
    """Cells one chip takes in a row: the label, its padding and the gap after it."""
    return cell_len(f"{tag} ✕") + 3


class EditChip(FollowsFocus, Static, can_focus=True):
    """One pending tag. Click or Backspace removes it; keys move or rename it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("backspace,delete", "command('remove')", "Remove", id="tag_editor.remove"),
        Binding("f2,r", "command('rename')", "Rename", id="tag_editor.rename"),
        Binding(
            "ctrl+left,alt+left,alt+up", "command('move', -1)", "Move left", id="tag_editor.left"
        ),
        Binding(
            "ctrl+right,alt+right,alt+down",
            "command('move', 1)",
            "Move right",
            id="tag_editor.right",
        ),
        Binding("left", "command('step', -1)", "Previous", show=False),
        Binding("right", "command('step', 1)", "Next", show=False),
    ]

    @dataclass
    class Command(Message):
        """Ask the editor to ``command`` ("remove", "rename", "move", "step") this chip."""

        index: int
        command: str
        delta: int = 0

    def __init__(self, index: int, tag: str) -> None:
        super().__init__(f"{for_terminal_line(tag)} ✕", classes="tag-edit-chip", markup=False)
        self.index = index
        self.tag = tag
        self.tooltip = plain_line(
            f"{tag}: click or Backspace to remove, F2 to rename, ctrl+←/→ to move"
        )

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Command(self.index, "remove"))

    def action_command(self, command: str, delta: int = 0) -> None:
        if command == "remove":  # typing goes on in the input, even the keys queued already
            focus_now(self.query_ancestor(TagEditor).input)
        self.post_message(self.Command(self.index, command, delta))


class TagInput(KeepsKeyOrder, FollowsFocus, SafeInput):
    """The input: Enter hands its text over at once; Backspace/Left when empty reach the chips."""

    @dataclass
    class Entered(Message):
        """Enter was pressed on ``value`` (the input is already empty again)."""

        value: str

    @dataclass
    class Empty(Message):
        """Backspace ("remove") or Left ("select") was pressed on an empty input."""

        what: str

    async def action_submit(self) -> None:
        # Empty the input here, in key order, so keys typed right after Enter start the
        # next tag instead of joining this one before the editor has handled it.
        # Entered goes first so the editor still sees the suggestions made for this text.
        self.post_message(self.Entered(self.value))
        self.value = ""

    def action_delete_left(self) -> None:
        if not self.value:
            self.post_message(self.Empty("remove"))
            return
        super().action_delete_left()

    def action_cursor_left(self, select: bool = False) -> None:
        if not self.value and not select:
            self.post_message(self.Empty("select"))
            return
        super().action_cursor_left(select)


class SuggestionList(OptionList, can_focus=False):
    """Existing tags matching the input, most used first (picked with Up/Down from the input).

    The picked row is marked with a ``▸`` as well as the cursor tint: on the light theme the
    tint was 1.05:1 against the list, and a glyph shows the state in every theme."""

    PICKED_MARK = "▸ "

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.prompts: list[tuple[str, Content]] = []  # (tag, prompt) without the mark

    def show(self, prompts: list[tuple[str, Content]]) -> None:
        """List ``prompts`` with nothing picked."""
        self.prompts = prompts
        self.clear_options()
        self.add_options(Option(self._marked(prompt, False), id=tag) for tag, prompt in prompts)
        self.highlighted = None

    def pick(self, index: int | None) -> None:
        """Highlight ``index`` (None: nothing) and move the mark to it."""
        self.highlighted = index
        for at, (_tag, prompt) in enumerate(self.prompts):
            self.replace_option_prompt_at_index(at, self._marked(prompt, at == self.highlighted))

    def _marked(self, prompt: Content, picked: bool) -> Content:
        mark = Content.styled(self.PICKED_MARK, "bold $text-accent") if picked else Content("  ")
        return Content.assemble(mark, prompt)


class TagEditor(Vertical):
    """Edits one memory's tag list in memory; the screen saves it."""

    DEFAULT_CSS = """
    TagEditor {
        height: auto;
        max-height: 100%;
        padding: 0 1;
        background: $panel;
        border: round $primary;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    TagEditor #tag-editor-chips {
        height: auto;
        min-height: 1;
        margin-bottom: 1;
    }
    TagEditor .tag-edit-row { height: 1; }
    TagEditor .tag-edit-chip {
        width: auto;
        height: 1;
        margin-right: 1;
        padding: 0 1;
        background: $primary 30%;
        color: $text;
    }
    TagEditor .tag-edit-chip:focus {
        background: $accent;
        color: $text-accent;
        text-style: bold;
    }
    TagEditor .tag-edit-chip.-near { background: $warning 30%; }
    TagEditor .tag-edit-chip.-duplicate { background: $warning 20%; text-style: strike; }
    TagEditor .tag-edit-chip.-overflow { color: $text-disabled; text-style: strike; }
    TagEditor .tag-edit-chip.-unread { color: $text-disabled; text-style: strike; }
    TagEditor .tag-edit-chip.-invalid { background: $error 35%; text-style: underline; }
    TagEditor .tag-edit-chip.-renaming { background: $secondary 60%; text-style: italic; }
    TagEditor #tag-editor-empty { color: $text-muted; }
    TagEditor #tag-editor-input { width: 1fr; }
    TagEditor #tag-editor-input.-warn { border: tall $warning; }
    TagEditor #tag-editor-input.-error { border: tall $error; }
    TagEditor SuggestionList {
        height: auto;
        max-height: 8;
        border: none;
        padding: 0;
        background: $boost;
        display: none;
    }
    TagEditor SuggestionList.-open { display: block; }
    TagEditor #tag-editor-warnings { height: auto; }
    TagEditor #tag-editor-banner { height: auto; display: none; }
    TagEditor #tag-editor-banner.-show { display: block; }
    TagEditor #tag-editor-banner.-conflict { background: $warning 20%; }
    TagEditor #tag-editor-banner.-error { background: $error 20%; color: $text-error; }
    TagEditor #tag-editor-help { color: $text-muted; height: auto; width: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="tag_editor.cancel"),
        Binding("ctrl+s", "save", "Save", id="tag_editor.save"),
        Binding("enter", "save", "Save", show=False),
        Binding("tab", "complete", "Complete", show=False, id="tag_editor.complete"),
        Binding("down", "pick(1)", "Next suggestion", show=False),
        Binding("up", "pick(-1)", "Previous suggestion", show=False),
        Binding("ctrl+y", "accept_near", "Use existing", id="tag_editor.use_existing"),
        Binding("ctrl+r", "reapply", "Re-apply my list", id="tag_editor.reapply"),
    ]

    @dataclass
    class SaveRequested(Message):
        """Save ``tags`` (nothing blocks it: invalid tags were refused already)."""

        tags: list[str]

    @dataclass
    class Cancelled(Message):
        """Close without saving."""

    def __init__(self, path: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.path = path
        self.draft = TagDraft()
        self.original: list[str] = []
        self.unread_notes: list[str] = []  # why ReMe reads none of the tags on disk
        self.mine: list[str] | None = None  # the user's list kept across a conflict
        self.renaming: int | None = None
        self.suggestions: list[Suggestion] = []
        self.suggested_for = ""  # the input text ``suggestions`` were made for
        self.variants_confirmed: list[str] | None = None  # the list saved despite variants
        self.typed_early: list[str] = []
        self.loaded = False
        self.packed_width = 0
        set_border_title(self, f"Tags of {path}")
        self.border_subtitle = "loading…"

    def compose(self) -> ComposeResult:
        yield Static("", id="tag-editor-banner")
        yield Vertical(id="tag-editor-chips")
        yield TagInput(placeholder="loading…", id="tag-editor-input", select_on_focus=False)
        yield SuggestionList(id="tag-editor-suggestions")
        yield Static("", id="tag-editor-warnings")
        yield Static(HELP, id="tag-editor-help", markup=False)

    # -- state from the screen ---------------------------------------------------

    @property
    def input(self) -> TagInput:
        return self.query_one(TagInput)

    @property
    def typing(self) -> str:
        return self.input.value

    @property
    def tags(self) -> list[str]:
        return list(self.draft.tags)

    async def load(
        self,
        tags: list[str],
        existing: list[tuple[str, int]],
        proposals: list[Suggestion] | None = None,
        unread_notes: list[str] | None = None,
    ) -> None:
        """Start editing ``tags`` (as read from the file) with the workspace's tags and
        the tags the engine proposes for this memory (listed before anything is typed).
        ``unread_notes`` say why ReMe reads none of ``tags`` (a scalar entry, a voided
        frontmatter): their chips are struck until the list is changed and saved."""
        self.original = list(tags)
        self.unread_notes = list(unread_notes or ())
        self.draft = TagDraft(list(tags), list(existing), list(proposals or ()))
        for early in self.typed_early:  # entered while the file was being read
            if early.strip():
                self.draft.add(early)
        self.typed_early.clear()
        self.loaded = True
        self.border_subtitle = f"ReMe indexes the first {MAX_TAGS_PER_FILE}"
        self.input.placeholder = "add a tag…"
        self._refresh_suggestions()
        await self._rebuild()
        focus_now(self.input)

    async def show_conflict(self, fresh: list[str], mine: list[str], message: str) -> None:
        """The file changed on disk: show its tags now, keep ``mine`` to re-apply."""
        self.original = list(fresh)
        self.mine = list(mine)
        self.draft.tags = list(fresh)
        self.renaming = None
        self.input.value = ""
        # The message quotes the path, the list the tags: shown, never obeyed (an ESC).
        pending = " ".join(f"#{for_terminal_line(tag)}" for tag in mine) or "(no tags)"
        self.set_banner(
            Content.assemble(
                ("⚠ ", "bold $text-warning"),
                (for_terminal(message), "bold"),
                "\nShowing the tags on disk now. Your list: ",
                (pending, "bold"),
                "\nctrl+r re-applies your list · Enter saves what is shown · Esc cancels",
            ),
            "-conflict",
        )
        await self._rebuild()
        focus_now(self.input)

    def set_banner(self, content: Content | str | None, kind: str = "-error") -> None:
        """Show ``content`` above the chips; a ``str`` as plain text (it quotes tags, the
        path and the error), never as markup."""
        banner = self.query_one("#tag-editor-banner", Static)
        banner.update(plain(content) if isinstance(content, str) else content or "")
        banner.set_class(bool(content), "-show")
        banner.set_class(bool(content) and kind == "-error", "-error")
        banner.set_class(bool(content) and kind == "-conflict", "-conflict")

    # -- rendering ---------------------------------------------------------------

    async def _rebuild(self, focus: int | None = None) -> None:
        """Mount one chip per pending tag, in rows that fit the editor's width."""
        box = self.query_one("#tag-editor-chips", Vertical)
        await box.remove_children()
        chips = [EditChip(index, tag) for index, tag in enumerate(self.draft.tags)]
        self.packed_width = self.content_size.width
        if chips:
            rows = pack([chip_width(chip.tag) for chip in chips], max(10, self.packed_width))
            await box.mount_all(
                Horizontal(*(chips[i] for i in row), classes="tag-edit-row") for row in rows
            )
        else:
            await box.mount(Label("no tags — type one below", id="tag-editor-empty"))
        if focus is not None and chips:
            focus_now(chips[max(0, min(focus, len(chips) - 1))])
        elif focus is not None:
            focus_now(self.input)
        self.refresh_feedback()

    async def on_resize(self, event: Resize) -> None:
        if self.loaded and self.content_size.width != self.packed_width:
            focused = self.screen.focused
            focus = focused.index if isinstance(focused, EditChip) else None
            await self._rebuild(focus)

    def refresh_feedback(self) -> None:
        """Chip classes, the warnings list and the input's colour for the current state."""
        typing, renaming = self.typing, self.renaming
        warnings = self.draft.warnings(typing, renaming)
        kinds: dict[int, set[str]] = {}
        for warning in warnings:
            kinds.setdefault(warning.index, set()).add(warning.kind)
        for chip in self.query(EditChip):
            chip_kinds = kinds.get(chip.index, set()) if chip.index != renaming else set()
            wanted = {_CHIP_CLASSES[kind] for kind in chip_kinds}
            for css in set(_CHIP_CLASSES.values()):
                chip.set_class(css in wanted, css)
            chip.set_class(chip.index == renaming, "-renaming")
            chip.set_class(self.shows_unread, "-unread")
        typed_index = renaming if renaming is not None else len(self.draft.tags)
        typed_kinds = kinds.get(typed_index, set()) if typing.strip() else set()
        self.input.set_class(bool(typed_kinds & {"invalid", "too-long"}), "-error")
        self.input.set_class(
            bool(typed_kinds) and not typed_kinds & {"invalid", "too-long"}, "-warn"
        )
        self.query_one("#tag-editor-warnings", Static).update(self._describe(warnings))

    @property
    def shows_unread(self) -> bool:
        """The list is still the one on disk, which ReMe does not read."""
        return bool(self.unread_notes) and self.draft.tags == self.original

    def _describe(self, warnings: list[TagWarning]) -> Content:
        near = first_near_duplicate(warnings)
        lines: list[Content] = []
        if self.unread_notes:
            lines += [
                Content.styled(for_terminal(text), "$text-warning") for text in self.unread_notes
            ]
            lines.append(
                Content.styled(
                    "ReMe reads none of the tags on disk; saving writes them as a list it reads",
                    "italic $text-muted",
                )
            )
        for warning in warnings:
            icon, style = _ICONS[warning.kind]
            # Its message quotes the tag typed (or read from the file), ESC and all.
            parts: list[str | tuple[str, str]] = [
                (f"{icon} ", style),
                for_terminal(warning.message),
            ]
            if warning is near:
                parts.append((for_terminal(f" — ctrl+y uses {warning.suggestion!r}"), "bold"))
            lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)

    def _refresh_suggestions(self) -> None:
        listing = self.query_one(SuggestionList)
        self.suggested_for = self.typing
        self.suggestions = self.draft.suggestions(self.typing, self.renaming)
        listing.show(
            [
                (
                    suggestion.tag,
                    Content.assemble(
                        for_terminal_line(suggestion.tag),  # a tag some memory carries
                        (
                            f"  {suggestion.count} memor{'y' if suggestion.count == 1 else 'ies'}",
                            "$text-muted",
                        ),
                        ("  existing spelling" if suggestion.exact else "", "italic $text-success"),
                        (
                            f"  suggested: {suggestion.reason}" if suggestion.reason else "",
                            "italic $text-accent",
                        ),
                    ),
                )
                for suggestion in self.suggestions
            ]
        )
        # Nothing is picked until Up/Down picks it: Enter takes what was typed (a variant
        # of an existing tag is a near-duplicate warning, and ctrl+y takes the spelling).
        listing.set_class(bool(self.suggestions), "-open")

    @property
    def picked(self) -> str | None:
        """The highlighted suggestion, if any."""
        option = self.query_one(SuggestionList).highlighted_option
        return option.id if option is not None else None

    # -- input events --------------------------------------------------------------

    @on(Input.Changed, "#tag-editor-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if self.mine is None:
            self.set_banner(None)  # an old error no longer applies; a conflict note stays
        self._refresh_suggestions()
        self.refresh_feedback()

    @on(TagInput.Entered)
    async def _entered(self, event: TagInput.Entered) -> None:
        event.stop()
        if not self.loaded:
            self.typed_early.append(event.value)
            return
        if not event.value.strip() and self.renaming is None:
            if self.picked is not None and self.suggested_for == event.value:
                await self.commit(self.picked, clear=False)  # a proposal picked with ↑↓
                return
            self.action_save()
            return
        picked = self.picked if self.suggested_for == event.value else None
        await self.commit(picked or event.value, clear=False)

    @on(TagInput.Empty)
    async def _empty_input(self, event: TagInput.Empty) -> None:
        event.stop()
        if not self.loaded or not self.draft.tags:
            return
        if event.what == "remove" and self.renaming is None:
            self.draft.remove(len(self.draft.tags) - 1)
            await self._rebuild()
        else:
            focus_now(self.query(EditChip).last())

    @on(OptionList.OptionSelected)
    async def _clicked_suggestion(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            await self.commit(event.option.id)

    @on(EditChip.Command)
    async def _chip(self, event: EditChip.Command) -> None:
        event.stop()
        index = event.index
        if event.command == "remove":
            self.draft.remove(index)
            if self.renaming is not None:
                self.renaming = None
                self.input.value = ""
            await self._rebuild(focus=None)  # typing goes on where it works: the input
        elif event.command == "move":
            await self._rebuild(focus=self.draft.move(index, event.delta))
        elif event.command == "rename":
            self.start_rename(index)
        elif event.command == "step":
            target = index + event.delta
            chips = list(self.query(EditChip))
            if 0 <= target < len(chips):
                focus_now(chips[target])
            elif target >= len(chips):
                focus_now(self.input)

    @property
    def has_focus_within(self) -> bool:
        focused = self.screen.focused
        return isinstance(focused, EditChip) and focused in self.query(EditChip).nodes

    # -- editing -------------------------------------------------------------------

    def start_rename(self, index: int) -> None:
        if not 0 <= index < len(self.draft.tags):
            return
        self.renaming = index
        self.input.placeholder = (
            f"rename {self.draft.tags[index]!r} (Enter keeps it, empty removes)"
        )
        self.input.value = self.draft.tags[index]
        self.input.cursor_position = len(self.input.value)
        focus_now(self.input)
        self.refresh_feedback()

    def _stop_rename(self, *, clear: bool = True) -> None:
        self.renaming = None
        self.input.placeholder = "add a tag…"
        if clear:
            self.input.value = ""

    async def commit(self, text: str, *, clear: bool = True) -> None:
        """Add ``text`` (or rename the chip being renamed to it); ``clear`` empties the input."""
        if self.renaming is not None:
            self.draft.rename(self.renaming, text)
            self._stop_rename(clear=False)
        elif text.strip():
            self.draft.add(text)
        if clear:
            self.input.value = ""
        if not self.input.value:  # no Changed event comes for "" -> "": refresh here
            self._refresh_suggestions()
        await self._rebuild()
        focus_now(self.input)

    async def action_complete(self) -> None:
        if not self.suggestions:
            return
        await self.commit(self.picked or self.suggestions[0].tag)

    def action_pick(self, delta: int) -> None:
        listing = self.query_one(SuggestionList)
        if not self.suggestions:
            return
        current = listing.highlighted
        if current is None:
            listing.pick(0 if delta > 0 else None)
        elif current + delta < 0:
            listing.pick(None)
        else:
            listing.pick(min(current + delta, len(self.suggestions) - 1))

    async def action_accept_near(self) -> None:
        near = first_near_duplicate(self.draft.warnings(self.typing, self.renaming))
        if near is None or near.suggestion is None:
            self.notify("No near-duplicate to replace", timeout=2)
            return
        if near.index == (self.renaming if self.renaming is not None else len(self.draft.tags)):
            await self.commit(near.suggestion)
            return
        self.draft.tags[near.index] = near.suggestion
        await self._rebuild()

    async def action_reapply(self) -> None:
        if self.mine is None:
            return
        self.draft.tags = list(self.mine)
        self.mine = None
        self.set_banner("Your list is back. Enter saves it over the version on disk.", "-conflict")
        await self._rebuild()
        focus_now(self.input)

    def action_cancel(self) -> None:
        if self.renaming is not None:
            self._stop_rename()
            self.refresh_feedback()
            return
        self.post_message(self.Cancelled())

    def action_save(self) -> None:
        if not self.loaded:
            return
        if self.typing.strip() or self.renaming is not None:
            self.run_worker(self._commit_then_save(), exclusive=True, group="tag-editor")
            return
        self._request_save()

    async def _commit_then_save(self) -> None:
        await self.commit(self.picked or self.typing)
        self._request_save()

    def _request_save(self) -> None:
        blocking = self.draft.blocking()
        if blocking:
            names = ", ".join(repr(w.tag) for w in blocking)
            self.set_banner(
                f"✗ Fix or remove {names} first: ReMe would drop it, so it is not saved."
            )
            return
        variants = [w for w in self.draft.warnings() if w.kind == "near-duplicate"]
        if variants and self.variants_confirmed != self.draft.tags:
            self.variants_confirmed = list(self.draft.tags)
            named = ", ".join(f"{w.tag!r} (existing: {w.suggestion!r})" for w in variants)
            self.set_banner(
                plain(
                    f"≈ Not saved yet: {named} would add a new spelling of an existing tag. "
                    "ctrl+y uses the existing spelling; save again to keep yours."
                ),
                kind="-conflict",
            )
            return
        self.post_message(self.SaveRequested(list(self.draft.tags)))
