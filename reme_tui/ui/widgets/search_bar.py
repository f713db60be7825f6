"""The search bar: query input, tag chips, ANY/ALL, since/until dates, strict dates."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Key, Resize
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Checkbox, Input, Label

from reme_tui.engine import EXPECTED, date_or_none
from reme_tui.engine.search import SearchState, parse_query
from reme_tui.ui.focus import FollowsFocus, KeepsKeyOrder, focus_now
from reme_tui.ui.plain import plain_tip
from reme_tui.ui.safe_input import SafeInput
from reme_tui.ui.widgets.chips import Chip
from reme_tui.ui.widgets.steady_label import SteadyLabel


class DateValidator(Validator):
    """Accepts ``2026-03-01`` and ``2026-3-1``; empty means no bound."""

    def validate(self, value: str) -> ValidationResult:
        if not value.strip() or date_or_none(value) is not None:
            return self.success()
        return self.failure("expected a date like 2026-03-01")


PLACEHOLDERS = (
    "search…  tag:x  -tag:y  since:2026-01-01  until:2026-3-31",
    "search…  tag:x  -tag:y  since:DATE",
    "search…  tag:x",
    "search…",
)


def placeholder_for(width: int) -> str:
    """The longest hint that fits ``width`` cells whole (a cut one ran into the date box)."""
    return next((text for text in PLACEHOLDERS if cell_len(text) < width), PLACEHOLDERS[-1])


class QueryInput(KeepsKeyOrder, FollowsFocus, SafeInput):
    """The query box; Backspace at its start removes the last tag chip."""

    # Input sets its virtual size on every typed character, and the base reactive then
    # lays out the whole screen (one layout per key: the biggest cost of a keystroke at
    # 10,000 memories). This box's size is fixed by the stylesheet: a repaint is enough.
    virtual_size = Reactive(Size(0, 0), layout=False)

    def on_resize(self, event: Resize) -> None:
        self.placeholder = placeholder_for(self.content_size.width)

    @dataclass
    class RemoveLastChip(Message):
        pass

    def on_key(self, event: Key) -> None:
        if event.key == "backspace" and self.cursor_position == 0 and not self.selected_text:
            self.post_message(self.RemoveLastChip())
            event.stop()
            event.prevent_default()


class DateInput(KeepsKeyOrder, FollowsFocus, SafeInput):
    def __init__(self, placeholder: str, id: str) -> None:
        super().__init__(
            placeholder=placeholder,
            id=id,
            validators=[DateValidator()],
            validate_on=["changed", "blur", "submitted"],
            valid_empty=True,
            max_length=10,
            compact=True,
        )


class AnyAllButton(FollowsFocus, Button):
    """The ANY / ALL switch; keys typed after Tab or Enter on it follow the focus."""


class StrictCheckbox(FollowsFocus, Checkbox):
    """Undated memories fail date filters; keys typed after Tab on it follow the focus."""


class SearchBar(Vertical):
    """Owns the SearchState; posts ``SearchBar.Changed`` whenever it changes."""

    @dataclass
    class Changed(Message):
        state: SearchState
        submitted: bool = False

        def can_replace(self, message: Message) -> bool:
            """A newer change supersedes this one (each holds the whole state): a pasted
            query, or keys typed while the screen was busy, are searched once, not once a
            character; at 50,000 memories during a burst of updates, each queued change
            cost ~60 ms before the last key's own (issue 19). A submit is kept."""
            return isinstance(message, SearchBar.Changed) and not self.submitted

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = SearchState()
        self.parse_errors: list[str] = []
        self.hints: list[str] = []  # quiet notes, e.g. a tag no memory carries
        self.pending_note = ""  # a filter token still being typed is not applied yet

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-row"):
            yield Label("🔍", id="search-icon")
            yield QueryInput(
                placeholder=PLACEHOLDERS[0],
                id="query",
                compact=True,
            )
            yield AnyAllButton(
                "ANY", id="any-all", compact=True, tooltip="match ANY / ALL of the tags"
            )
            yield DateInput("since", "since")
            yield DateInput("until", "until")
            yield StrictCheckbox(
                "strict", id="strict", compact=True, tooltip="undated memories fail date filters"
            )
            yield SteadyLabel("BM25", id="search-mode")
        yield Horizontal(id="chips")
        yield SteadyLabel("", id="search-message")

    # -- public API ---------------------------------------------------------

    def focus_query(self) -> None:
        focus_now(self.query_one(QueryInput))

    def set_state(
        self, state: SearchState, *, submitted: bool = False, sync_query: bool = True
    ) -> None:
        """Replace the whole state, updating every control, and announce it."""
        chips = {*state.filters.tags, *state.filters.exclude_tags}
        hints = [hint for hint in self.hints if hint.removeprefix("no such tag: ") in chips]
        if hints != self.hints:
            self.hints = hints
            self.set_message("")
        changed = state != self.state
        self.state = state
        self._sync_controls(sync_query=sync_query)
        if changed or submitted:
            self.post_message(self.Changed(state, submitted=submitted))

    def add_tag(self, tag: str, *, exclude: bool = False) -> None:
        self.set_state(self.state.with_tag(tag, exclude=exclude))

    def remove_tag(self, tag: str) -> None:
        self.set_state(self.state.without_tag(tag))

    def clear(self) -> None:
        self.parse_errors = []
        self.pending_note = ""
        self.set_state(SearchState())

    def set_mode(self, mode: str, tooltip: str | None = None) -> None:
        """Show how search ranks: "BM25", "hybrid", or why hybrid is degraded."""
        label = self.query_one("#search-mode", Label)
        label.update(mode)
        label.tooltip = plain_tip(tooltip)  # quotes the model's error

    def set_message(self, message: str) -> None:
        """Show ``message`` after the query's own errors and hints, which stay until the
        token is fixed (a search finishing does not wipe them)."""
        parts = (*self.parse_errors, *self.hints, self.pending_note, message)
        text = "; ".join(part for part in parts if part)
        label = self.query_one("#search-message", Label)
        label.update(text)
        label.display = bool(text)
        self.query_one(QueryInput).set_class(bool(self.parse_errors), "-invalid")

    def action_toggle_all(self) -> None:
        self.set_state(self.state.with_filters(all_tags=not self.state.filters.all_tags))

    # -- syncing ------------------------------------------------------------

    def _sync_controls(self, *, sync_query: bool = True) -> None:
        state = self.state
        query = self.query_one(QueryInput)
        if sync_query and query.value != state.text:
            with query.prevent(Input.Changed):
                query.value = state.text
        for field in ("since", "until"):
            box = self.query_one(f"#{field}", DateInput)
            wanted = getattr(state.filters, field) or ""
            if date_or_none(box.value) != (wanted or None) and box.value.strip() != wanted:
                with box.prevent(Input.Changed):
                    box.value = wanted
        with self.query_one("#strict", Checkbox).prevent(Checkbox.Changed):
            self.query_one("#strict", Checkbox).value = state.filters.strict_dates
        self.query_one("#any-all", Button).label = "ALL" if state.filters.all_tags else "ANY"
        self._sync_chips()

    def _sync_chips(self) -> None:
        chips = self.query_one("#chips", Horizontal)
        filters = self.state.filters
        wanted = (
            [(t, False, "tag", t) for t in filters.tags]
            + [(t, True, "tag", t) for t in filters.exclude_tags]
            + [(p, False, "prefix", f"in:{p}") for p in filters.path_prefixes]
            + [(p, False, "path", f"path:{p}") for p in filters.paths]
            + [(m.key, False, "meta", m.label) for m in filters.meta]
        )
        current = [(c.tag, c.excluded, c.kind, c.label_text) for c in chips.query(Chip)]
        if wanted != current:
            chips.remove_children()
            chips.mount_all(
                [
                    Chip(value, excluded=excluded, kind=kind, label=label)
                    for value, excluded, kind, label in wanted
                ]
            )
        chips.display = bool(wanted)
        self.query_one("#any-all", Button).display = len(filters.tags) > 1

    # -- events -------------------------------------------------------------

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._take_query(event.value, complete=False)

    @on(Input.Submitted, "#query")
    def _query_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._take_query(event.value, complete=True, submitted=True)

    def _take_query(self, value: str, *, complete: bool, submitted: bool = False) -> None:
        engine = getattr(self.app, "engine", None)
        keys = engine.recent_frontmatter_keys() if engine is not None else ()
        parsed = parse_query(value, complete=complete, meta_keys=keys)
        state = self.state
        for tag in parsed.tags:
            state = state.with_tag(tag)
        for tag in parsed.exclude_tags:
            state = state.with_tag(tag, exclude=True)
        if parsed.since:
            state = state.with_filters(since=parsed.since)
        if parsed.until:
            state = state.with_filters(until=parsed.until)
        for prefix in parsed.prefixes:
            state = replace(state, filters=state.filters.with_prefix(prefix))
        if parsed.paths:
            paths = tuple(dict.fromkeys((*state.filters.paths, *parsed.paths)))
            state = state.with_filters(paths=paths)
        for test in parsed.meta:
            state = replace(state, filters=state.filters.with_meta(test))
        if parsed.found_tokens:
            remaining = parsed.box
            query = self.query_one(QueryInput)
            with query.prevent(Input.Changed):
                query.value = remaining
                query.cursor_position = len(remaining)
        self.parse_errors = list(parsed.errors)
        self.pending_note = (
            f"{parsed.pending_token} applies after a space or Enter" if parsed.pending_token else ""
        )
        if parsed.tags or parsed.exclude_tags:
            known = {tag for tag, _count in engine.list_tags()} if engine is not None else set()
            self.hints = [
                f"no such tag: {tag}"
                for tag in (*state.filters.tags, *state.filters.exclude_tags)
                if known and tag not in known
            ]
        self.set_message("")
        self.set_state(replace(state, text=parsed.text), submitted=submitted, sync_query=False)

    @on(QueryInput.RemoveLastChip)
    def _remove_last_chip(self) -> None:
        self.set_state(self.state.without_last_tag())

    @on(Chip.Removed)
    def _chip_removed(self, event: Chip.Removed) -> None:
        event.stop()
        if event.kind == "tag":
            self.remove_tag(event.tag)
        else:
            self.set_state(self.state.without_chip(event.kind, event.tag))
        if self.state.filters.is_empty or not (
            self.state.filters.tags
            or self.state.filters.exclude_tags
            or self.state.filters.path_prefixes
            or self.state.filters.paths
            or self.state.filters.meta
        ):
            self.focus_query()

    @on(Button.Pressed, "#any-all")
    def _any_all(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_toggle_all()

    @on(Checkbox.Changed, "#strict")
    def _strict(self, event: Checkbox.Changed) -> None:
        event.stop()
        self.set_state(self.state.with_filters(strict_dates=event.value))

    @on(Input.Changed, "#since, #until")
    def _date_changed(self, event: Input.Changed) -> None:
        event.stop()
        valid = event.validation_result is None or event.validation_result.is_valid
        field = event.input.id or "since"
        if not valid:
            self.set_message(f"{field}: expected {EXPECTED}")
            return
        self.set_message("")
        self.set_state(self.state.with_filters(**{field: date_or_none(event.value)}))

    @on(Input.Blurred, "#since, #until")
    def _date_blurred(self, event: Input.Blurred) -> None:
        normalized = date_or_none(event.value)
        if normalized and normalized != event.value:
            with event.input.prevent(Input.Changed):
                event.input.value = normalized

    @on(Input.Submitted, "#since, #until")
    def _date_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        normalized = date_or_none(event.value)
        if normalized and normalized != event.value:
            with event.input.prevent(Input.Changed):
                event.input.value = normalized
        self.set_state(self.state, submitted=True)
