"""The main screen: tag sidebar, search bar, results, preview, links and status bar.

Engine calls run in workers (threads); they post messages and the handlers here change
widgets. A newer search or preview load cancels the stale one (exclusive worker groups).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from reme_tui.engine.index import SemanticStatus
from reme_tui.engine.parse import ReadFailure
from reme_tui.engine.reme import compat_counts, format_counts
from reme_tui.engine.search import SearchError, SearchQuery, SearchState
from reme_tui.engine.tags import OrderBy
from reme_tui.ui.focus import focus_now
from reme_tui.ui.frame_pacing import PacedFrames
from reme_tui.ui.history import History, Visit
from reme_tui.ui.host import Host, host_of
from reme_tui.ui.messages import (
    AnchorFound,
    CompatCounted,
    HistoryCounted,
    IndexBuilt,
    IndexLoaded,
    IndexProgress,
    IndexUpdated,
    IndexUpdating,
    MatchesCounted,
    MetaDone,
    MetaReady,
    NeighboursReady,
    OpenMemory,
    PreviewReady,
    ResultsReady,
    TagChosen,
)
from reme_tui.ui.rows import ResultRow, explain
from reme_tui.ui.semantic_progress import SemanticChanged, mode_label, status_label
from reme_tui.ui.widgets.markdown_body import MarkdownBody
from reme_tui.ui.widgets.match_chart import Chart
from reme_tui.ui.widgets.neighbours import NeighboursList
from reme_tui.ui.widgets.preview import Preview, PreviewData, body_of, plain_body, render_preview
from reme_tui.ui.widgets.results import ResultList, ResultsPane
from reme_tui.ui.widgets.search_bar import QueryInput, SearchBar
from reme_tui.ui.widgets.status_bar import (
    ChangesLabel,
    DiagnosticsLabel,
    StatusBar,
    UntaggedLabel,
)
from reme_tui.ui.widgets.tag_sidebar import TagFilter, TagList, TagSidebar
from reme_tui.ui.wikilinks import find_heading, section_lines
from reme_tui.ui.worker_failures import ShowsWorkerFailures

if TYPE_CHECKING:
    from reme_tui.engine import Delta

NARROW_WIDTH = 110
SHORT_HEIGHT = 30
FAST_SEARCH_MS = 25.0
BROWSE_DELAY = 0.06  # seconds; previews that follow the cursor wait for it to settle
TYPING_DELAY = 0.3  # seconds; previews that follow search-as-you-type wait for a pause
COUNT_AFTER_PAINT_WAIT_S = 1.0  # the count of all matches waits this long for the rows' paint


@dataclass(frozen=True, slots=True)
class Computed:
    rows: list[ResultRow]
    terms: list[str]
    mode: str
    error: str | None
    warnings: list[str]
    hybrid: bool
    total: int = 0  # every match (the rows are the first page)
    chart: Chart | None = None
    vector_error: str | None = None  # the model failed on this query: keyword results only
    counted: bool = True  # False: the total and chart are counted after the rows are shown
    # Read with the search, in its thread: it takes the index lock, which the screen's
    # thread must not wait for (a save or an update may hold it; issue 19).
    semantic: SemanticStatus | None = None


class MainScreen(PacedFrames, ShowsWorkerFailures, Screen[None]):
    """Everything a person needs to look inside the memory, on one screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the focus must move before the keys typed after `/` or Escape are
        # handed to the old pane (where `t`, `d`, `e`, `q` are commands).
        Binding("slash", "focus_search", "Search", id="focus_search", priority=True),
        Binding("tab", "app.focus_next", "Next pane", show=False, id="focus_next"),
        Binding("shift+tab", "app.focus_previous", "Prev pane", show=False, id="focus_previous"),
        Binding("left_square_bracket", "back", "Back", id="back"),
        Binding("right_square_bracket", "forward", "Forward", id="forward"),
        Binding("e", "edit", "Edit", id="edit"),
        Binding("y", "copy_path", "Copy path", id="copy_path"),
        Binding("Y", "copy_path(True)", "Copy absolute path", show=False, id="copy_absolute_path"),
        Binding("t", "edit_tags", "Tags", id="edit_tags"),
        Binding("d", "tag_dupes", "Dupes", id="tag_dupes"),
        Binding("c", "app.changes", "Changes", show=False, id="changes"),
        Binding(
            "u",
            "app.untagged",
            "Untagged",
            show=False,
            id="untagged",
            tooltip="Review untagged memories and the tags suggested for them",
        ),
        Binding("exclamation_mark", "diagnostics", "Diagnostics", show=False, id="diagnostics"),
        Binding("w", "explain", "Why? (this memory and the search)", show=False, id="explain"),
        Binding("W", "why_not", "Why not? (a path)", show=False, id="why_not"),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar", show=False, id="toggle_sidebar"),
        Binding("ctrl+l", "clear_search", "Clear search", show=False, id="clear_search"),
        # Not ctrl+a: inside the query box that is the input's "go to start".
        Binding("ctrl+o", "toggle_all", "Tags ANY/ALL", show=False, id="any_all"),
        Binding(
            "escape", "leave_input", "Leave input", show=False, id="leave_input", priority=True
        ),
        Binding("n", "jump_hit(1)", "Next match in preview", show=False, id="next_hit"),
        Binding("N", "jump_hit(-1)", "Previous match in preview", show=False, id="prev_hit"),
        Binding("question_mark", "app.help", "Help", id="help"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.history = History()
        self.search_serial = 0
        self.build_failed = False  # the first index build failed: no search can run
        self.preview_serial = 0
        self.last_search_ms = 0.0
        self.state = SearchState()
        self.shown_state: SearchState | None = None  # the search the results list shows
        self.shown_mode = "browse"
        self.pages = 1  # pages of rows the list shows; moving past the last row adds one
        self.meta_running = False  # a count of tags and diagnostics is under way
        self.meta_again = False  # ... and another was asked for meanwhile

    @property
    def reme(self) -> Host:
        return host_of(self.app)

    # -- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(id="search-bar")
        with Horizontal(id="body"):
            yield TagSidebar(id="sidebar")
            yield ResultsPane(id="results")
            with Vertical(id="right"):
                yield Preview(id="preview")
                yield NeighboursList(id="neighbours")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        status = self.query_one(StatusBar)
        engine = self.reme.engine
        why = f" ({engine.chosen_because})" if engine.chosen_because else ""
        status.set_workspace(self._workspace_label(), f"{engine.root}{why}")
        status.set_count(0)
        status.set_diagnostics(None)
        status.set_progress(0, 0)
        self.query_one(ResultsPane).show_building()
        self.query_one(SearchBar).focus_query()

    def _workspace_label(self) -> str:
        root = self.reme.engine.root
        if root.name == ".reme" and root.parent.name:  # ReMe's default: name the project
            return f"{root.parent.name}/.reme"
        return root.name or str(root)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        self.set_class(event.size.height < SHORT_HEIGHT, "-short")

    # -- index lifecycle (messages from the app's workers) ------------------

    @on(IndexProgress)
    def _progress(self, message: IndexProgress) -> None:
        self.query_one(StatusBar).set_progress(message.done, message.total)
        self.query_one(StatusBar).set_count(message.done)

    @on(IndexLoaded)
    def _loaded(self, message: IndexLoaded) -> None:
        """The saved index answers searches while the files are checked for changes."""
        status = self.query_one(StatusBar)
        status.set_checking(
            f"loaded the saved index in {message.seconds:.2f} s; checking the files for "
            "changes made since it was saved"
        )
        status.set_count(self.reme.engine.memory_count)
        self.call_after_refresh(self._saved_index_shown)

    def _saved_index_shown(self) -> None:
        self.reme.index_shown()  # the check for changes may start
        self.run_search(immediate=True)

    @on(IndexBuilt)
    def _built(self, message: IndexBuilt) -> None:
        status = self.query_one(StatusBar)
        if message.error:
            self.build_failed = True
            self.query_one(ResultsPane).show_building(failed=True)
            status.set_index_state("index failed")
            self.notify(message.error, title="Indexing failed", severity="error", timeout=10)
            return
        if message.warm:
            tooltip = f"loaded the saved index in {message.seconds:.2f} s"
            status.set_index_state("index ready (cached)", tooltip=tooltip)
        else:
            tooltip = f"first index took {message.seconds:.2f} s"
            status.set_index_state("index ready", tooltip=tooltip)
        for notice in message.notices:
            self.notify(notice, title="Saved index", severity="warning", timeout=10)
        status.set_updated(self.reme.now())
        self.refresh_meta()
        self.run_search(immediate=True)

    @on(IndexUpdating)
    def _updating(self, message: IndexUpdating) -> None:
        status = self.query_one(StatusBar)
        if message.count:
            status.set_updating(message.count)
        elif self.reme.engine.is_built:
            status.set_index_state("index ready")

    @on(IndexUpdated)
    async def _updated(self, message: IndexUpdated) -> None:
        delta = message.delta
        if delta.is_empty:
            return
        self.query_one(StatusBar).set_updated(self.reme.now())
        self.refresh_meta()
        self.run_search(immediate=True)
        preview = self.query_one(Preview)
        if preview.path is not None:
            await self._follow_shown(preview, preview.path, delta)
        self.notify(describe_delta(delta), title="Workspace changed", timeout=3)

    async def _follow_shown(self, preview: Preview, shown: str, delta: Delta) -> None:
        """Keep the preview on the memory it shows: follow a rename, say a deletion,
        reload an edit, refresh the neighbours otherwise."""
        if shown in delta.removed and len(delta.removed) == len(delta.added) == 1:
            old, new = shown, delta.added[0]  # a rename (or a move): follow it
            self.query_one(ResultsPane).renamed[old] = new
            self.history.forget(old)
            self.notify(f"{old} → {new}", title="Renamed", timeout=3)
            self.load_preview(new, None, None, keep_scroll=True)
        elif shown in delta.removed:
            self.history.forget(shown)
            self.notify(f"{shown} was deleted", severity="warning")
            self.preview_serial += 1
            await preview.show_deleted(shown)
            self.query_one(NeighboursList).set_neighbours(None)
        elif shown in delta.changed or shown in delta.added:
            self.load_preview(shown, None, None, keep_scroll=True)
        else:
            self.refresh_neighbours(shown)

    def refresh_meta(self) -> None:
        """Recount tags, memories and diagnostics in a worker (the sort order read here).

        One count at a time: asked for while one runs, the next follows it. A thread
        cannot be stopped, so a burst of updates at 50,000 memories ran a count (~1 s of
        CPU each) per batch, several at once, beside the typing (issue 19)."""
        if self.meta_running:
            self.meta_again = True
            return
        self.meta_running = True
        self._meta_worker(self.query_one(TagSidebar).sort_by)

    @on(MetaDone)
    def _meta_done(self) -> None:
        self.meta_running = False
        if self.meta_again:
            self.meta_again = False
            self.refresh_meta()

    @work(thread=True, group="meta", exit_on_error=False)
    def _meta_worker(self, order_by: OrderBy) -> None:
        try:
            engine = self.reme.engine
            tags = engine.list_tags(order_by=order_by)
            engine.frontmatter_keys()  # the search box's metadata keys, up to date
            diagnostics = engine.diagnostics()
            counts = compat_counts(diagnostics)
            # Untagged memories have a part of their own (it opens their review), so the
            # "ReMe drops" part leaves them out rather than saying it twice.
            untagged = counts.pop("no-tags", 0)
            self.post_message(MetaReady(tags, engine.memory_count, len(diagnostics), untagged))
            self.post_message(CompatCounted(counts, format_counts(counts)))
        finally:
            self.post_message(MetaDone())

    @on(HistoryCounted)
    def _history_counted(self, message: HistoryCounted) -> None:
        from reme_tui.ui.screens.changes import format_size

        status = self.query_one(StatusBar)
        status.set_changes(message.count, format_size(message.size_bytes), message.error)

    @on(ChangesLabel.Pressed)
    def _changes_pressed(self) -> None:
        self.reme.action_changes()

    @on(CompatCounted)
    def _compat(self, message: CompatCounted) -> None:
        self.query_one(StatusBar).set_compat(message.counts, message.text)

    @on(MetaReady)
    def _meta(self, message: MetaReady) -> None:
        self.query_one(TagSidebar).set_tags(message.tags)
        status = self.query_one(StatusBar)
        status.set_count(message.memories)
        status.set_diagnostics(message.diagnostics)
        status.set_untagged(message.untagged)

    @on(SemanticChanged)
    def _semantic_changed(self, message: SemanticChanged) -> None:
        status = message.status
        label, tooltip = mode_label(status)
        self.query_one(SearchBar).set_mode(label, tooltip)
        self.query_one(StatusBar).set_semantic(status_label(status), tooltip)
        if message.loaded and status.error:
            self.notify(
                f"{status.error}. Searching with BM25 only.",
                title="Embedding model unavailable",
                severity="warning",
                timeout=12,
            )
        if status.state in ("ready", "failed"):
            self.run_search(immediate=True)
            if self.current_path is not None:
                self.refresh_neighbours(self.current_path)

    # -- search -------------------------------------------------------------

    @on(SearchBar.Changed)
    def _search_changed(self, message: SearchBar.Changed) -> None:
        self.state = message.state
        self.query_one(TagSidebar).set_chips(
            frozenset(message.state.filters.tags), frozenset(message.state.filters.exclude_tags)
        )
        self.run_search(immediate=message.submitted)
        if message.submitted:
            focus_now(self.query_one(ResultList))

    @on(TagChosen)
    def _tag_chosen(self, message: TagChosen) -> None:
        self.query_one(SearchBar).add_tag(message.tag, exclude=message.exclude)

    def run_search(self, *, immediate: bool = False) -> None:
        if not self.reme.engine.is_built:
            self.query_one(ResultsPane).show_building(failed=self.build_failed)
            return
        self.search_serial += 1
        slow = self.last_search_ms > FAST_SEARCH_MS
        delay = 0.0 if immediate or not slow else self.reme.settings.search.debounce_ms / 1000
        if self.state != self.shown_state:
            self.pages = 1  # a new search starts on its first page
        self._search_worker(self.state, self.search_serial, delay, self.pages)

    @on(ResultsPane.MoreWanted)
    def _more_wanted(self) -> None:
        self.pages += 1
        self.run_search(immediate=True)

    @work(exclusive=True, group="search", exit_on_error=False)
    async def _search_worker(
        self, state: SearchState, serial: int, delay: float, pages: int = 1
    ) -> None:
        if delay:
            await asyncio.sleep(delay)  # debounce: a newer keystroke cancels this worker
        started = time.perf_counter()
        computed, cpu_ms = await asyncio.to_thread(self._compute_timed, state, pages)
        elapsed = (time.perf_counter() - started) * 1000
        ready = ResultsReady(
            computed.rows,
            computed.terms,
            computed.mode,
            computed.error,
            computed.warnings,
            elapsed,
            serial,
            computed.hybrid,
            computed.total,
            computed.chart,
            computed.vector_error,
            cpu_ms,
            counted=computed.counted,
            semantic=computed.semantic,
        )
        self.post_message(ready)
        if computed.counted:
            return
        # Counting and charting every match (5-10 ms at 10,000 memories) waits until the
        # rows are on screen: typing never waits for the chart (issue 19). A newer
        # keystroke cancels this worker, and with it the count.
        with contextlib.suppress(TimeoutError):  # a list that is never drawn (a dialog over it)
            await asyncio.wait_for(ready.painted.wait(), COUNT_AFTER_PAINT_WAIT_S)
        total, chart = await asyncio.to_thread(self.count_matches, state, len(computed.rows))
        self.post_message(MatchesCounted(serial, total, chart))

    def count_matches(self, state: SearchState, shown: int) -> tuple[int, Chart | None]:
        """How many chunks match ``state`` in all, and their chart (None when the shown
        rows are all of them: the list's own dates chart it)."""
        per_date = self.reme.engine.match_date_counts(state.text, state.filters)
        matched = sum(per_date.values())
        return max(matched, shown), Chart.of_counts(per_date) if matched >= shown else None

    def _compute_timed(self, state: SearchState, pages: int) -> tuple[Computed, float]:
        """``compute`` and the CPU time this thread spent on it. Whether the next keystroke
        is debounced depends on that, not on the wall time: waiting for the GIL while the
        screen painted the typed character made a 10 ms search look slow, and then every
        keystroke waited the debounce (120 ms of a 212 ms keystroke at 10k memories)."""
        started = time.thread_time()
        computed = self.compute(state, pages)
        return computed, (time.thread_time() - started) * 1000

    def compute(self, state: SearchState, pages: int = 1) -> Computed:
        """Run the engine for ``state`` (in a worker thread): ``pages`` pages of rows, the
        number of all matches and the chart over all of them."""
        engine = self.reme.engine
        limits = self.reme.settings.search
        if not state.text.strip():
            memories = engine.browse(state.filters, limit=sys.maxsize)
            rows = [ResultRow.from_memory(m) for m in memories[: limits.browse_limit * pages]]
            chart: Chart | None = Chart.of([m.date for m in memories])
            return Computed(rows, [], "browse", None, [], False, len(memories), chart)
        query = SearchQuery(
            text=state.text,
            filters=state.filters,
            limit=limits.limit * pages,
            expand_links=False,
            vector_weight=limits.vector_weight,
        )
        try:
            response = engine.search(query)
        except SearchError as error:
            return Computed([], [], "error", str(error), [], False)
        rows = [ResultRow.from_hit(hit) for hit in response.hits]
        terms = list(response.query_tokens) or engine.tokenize_query(state.text)
        return Computed(
            rows,
            terms,
            "search",
            None,
            list(response.warnings),
            response.hybrid,
            len(rows),
            None,
            response.vector_error,
            # Fewer rows than asked for are every match: their own dates chart them.
            counted=len(rows) < query.limit,
            semantic=engine.semantic_status(),
        )

    @on(ResultsReady)
    def _results(self, message: ResultsReady) -> None:
        if message.serial != self.search_serial:
            message.painted.set()
            return  # stale
        self.last_search_ms = message.cpu_ms
        bar = self.query_one(SearchBar)
        bar.set_message(message.error or "; ".join(message.warnings))
        if message.semantic is not None:
            bar.set_mode(*mode_label(message.semantic, vector_error=message.vector_error))
        state = self.state
        if message.mode == "browse":
            empty = "No memory matches these filters." if state.has_filters else "No memories."
        else:
            empty = message.error or "No results. Try fewer words or remove a filter."
        self.shown_mode = message.mode
        pane = self.query_one(ResultsPane)
        self.query_one(Preview).set_terms(message.terms)
        same_search = self.shown_state == state
        self.shown_state = state
        pane.set_rows(
            message.rows,
            message.terms,
            title=self._results_title(message.mode, len(message.rows), message.total),
            empty=empty,
            keep=same_search,
            total=message.total,
            chart=message.chart,
            counted=message.counted,
        )
        result_list = self.query_one(ResultList)
        if result_list.display:
            result_list.call_after_paint(message.painted.set)
        else:
            self.call_after_refresh(message.painted.set)
        pane.tooltip = (
            f"{message.mode} took {message.elapsed_ms:.1f} ms ({message.cpu_ms:.1f} ms CPU)"
        )
        preview = self.query_one(Preview)
        if not message.rows:
            self.preview_serial += 1  # a preview still loading is for rows that are gone
            if not preview.shows_deleted:  # "x was deleted" is worth keeping
                preview.show_placeholder("Nothing to preview: no memory matches.")
            self.query_one(NeighboursList).set_neighbours(None)
        elif same_search and preview.explain is not None:
            self._refresh_explain(message.rows)

    @on(MatchesCounted)
    def _counted(self, message: MatchesCounted) -> None:
        if message.serial != self.search_serial:
            return  # stale
        pane = self.query_one(ResultsPane)
        title = self._results_title(self.shown_mode, len(pane.rows), message.total)
        pane.set_total(message.total, message.chart, title=title)

    def _results_title(self, mode: str, shown: int, total: int) -> str:
        count = f"{shown:,}"
        if total > shown:
            count += f" of {total:,}"
        if mode == "browse":
            what = "memories" if not self.state.has_filters else "filtered memories"
            return f"{count} {what}, newest first"
        return f"{count} results" if count != "1" else "1 result"

    def _refresh_explain(self, rows: list[ResultRow]) -> None:
        """After a live change the previewed row's score moves: show the new one, or say
        the shown one is from before the change when the row left the list."""
        preview = self.query_one(Preview)
        for row in rows:
            if row.path == preview.path and row.start_line == preview.line:
                preview.set_explain(explain(row))
                return
        preview.set_explain(preview.explain, stale=True)

    # -- preview ------------------------------------------------------------

    @on(OpenMemory)
    def _open(self, message: OpenMemory) -> None:
        message.stop()
        if message.anchor:
            self._open_at_anchor(message.path, message.anchor)
            return
        self.open_memory(message.path, message.line, browsing=message.browsing)

    def open_memory(
        self,
        path: str,
        line: int | None = None,
        *,
        browsing: bool = False,
        record: bool = True,
        end_line: int | None = None,
    ) -> None:
        if record:
            self.history.visit(Visit(path, line, browsing))
        why = None
        row = self.query_one(ResultsPane).selected
        if row is not None and row.path == path and row.start_line == line:
            end_line, why = row.end_line, explain(row)
        self.load_preview(
            path,
            line,
            end_line,
            keep_scroll=False,
            explain=why,
            delay=self._preview_delay(browsing),
        )
        if not browsing:
            focus_now(self.query_one(MarkdownBody))

    def _preview_delay(self, browsing: bool) -> float:
        """Explicit opens render at once; cursor browsing waits a little; while typing, the
        eyes are on the results, so the preview waits for a pause in the typing."""
        if not browsing:
            return 0.0
        return TYPING_DELAY if isinstance(self.focused, QueryInput) else BROWSE_DELAY

    def load_preview(
        self,
        path: str,
        line: int | None,
        end_line: int | None,
        *,
        keep_scroll: bool,
        explain: str | None = None,
        delay: float = 0.0,
    ) -> None:
        self.preview_serial += 1
        self._preview_worker(path, line, end_line, keep_scroll, explain, self.preview_serial, delay)

    @work(exclusive=True, group="preview", exit_on_error=False)
    async def _preview_worker(
        self,
        path: str,
        line: int | None,
        end_line: int | None,
        keep_scroll: bool,
        explain: str | None,
        serial: int,
        delay: float,
    ) -> None:
        if delay:
            if delay == BROWSE_DELAY:  # the cursor moved: paint the plain text at once
                plain = await asyncio.to_thread(self._read_plain, path, line, end_line, explain)
                if serial == self.preview_serial:
                    await self.query_one(Preview).show_plain(plain)
            await asyncio.sleep(delay)  # cursor browsing: a newer highlight cancels this load
        data, neighbours, similar = await asyncio.to_thread(
            self._read_preview, path, line, end_line, explain
        )
        self.post_message(
            PreviewReady(data, neighbours, keep_scroll=keep_scroll, serial=serial, similar=similar)
        )

    def _read_plain(
        self, path: str, line: int | None, end_line: int | None, explain: str | None
    ) -> PreviewData:
        """The memory and the start of its body as plain text (runs in a thread)."""
        engine = self.reme.engine
        memory = engine.memory(path)
        text = ""
        if memory is not None:
            try:
                text = plain_body(engine.read_text(path), memory)
            except (OSError, ReadFailure):  # gone, or now a FIFO or a link leading outside
                memory = None
        return PreviewData(path, memory, text, line, end_line, explain)

    def _read_preview(
        self, path: str, line: int | None, end_line: int | None, explain: str | None
    ) -> tuple[PreviewData, Any, list[Any]]:
        """Memory, text, neighbours and similar memories of ``path`` (runs in a thread)."""
        engine = self.reme.engine
        memory = engine.memory(path)
        markdown = ""
        inserted: tuple[tuple[int, int], ...] = ()
        neighbours = None
        similar: list[Any] = []
        if memory is not None:
            try:
                text = engine.read_text(path)
            except (OSError, ReadFailure):  # gone, or now a FIFO or a link leading outside
                memory, text = None, ""
            if memory is not None:
                markdown, inserted = render_preview(
                    text,
                    memory,
                    lambda p: engine.memory(p) is not None or engine.is_source(p),
                    self._embedded_section,
                )
                neighbours = engine.neighbours(path)
                similar = engine.similar(path)
        data = PreviewData(path, memory, markdown, line, end_line, explain, inserted)
        return data, neighbours, similar

    def _indexed_body(self, path: str) -> tuple[int, str] | None:
        """The body of the indexed memory ``path`` and the file line it starts at; None when
        ``path`` is not an indexed memory or cannot be read (runs in thread workers)."""
        engine = self.reme.engine
        memory = engine.memory(path)
        if memory is None:
            return None
        try:
            text = engine.read_text(path)
        except (OSError, ReadFailure):
            return None
        return memory.body_start_line, body_of(text, memory)

    def _embedded_section(self, path: str, anchor: str | None) -> list[str] | None:
        """The lines an embed ``![[path#anchor]]`` shows (runs in the preview thread)."""
        found = self._indexed_body(path)
        if found is None:
            return None
        return section_lines(found[1], anchor)

    def _anchor_span(self, path: str, anchor: str) -> tuple[int, int] | None:
        """File lines (first, last) of the section under heading ``anchor`` of ``path``."""
        found = self._indexed_body(path)
        if found is None:
            return None
        body_start_line, body = found
        span = find_heading(body.split("\n"), anchor)
        if span is None:
            return None
        return body_start_line + span[0], body_start_line + span[1] - 1

    @work(thread=True, exclusive=True, group="anchor", exit_on_error=False)
    def _open_at_anchor(self, path: str, anchor: str) -> None:
        span = self._anchor_span(path, anchor)
        self.post_message(AnchorFound(path, anchor, span))

    @on(AnchorFound)
    def _anchor_found(self, message: AnchorFound) -> None:
        path, anchor, span = message.path, message.anchor, message.span
        if span is None:
            self.notify(f"No heading “{anchor}” in {path}; opened at the top", timeout=3)
            self.open_memory(path)
            return
        self.open_memory(path, span[0], end_line=span[1])

    @on(PreviewReady)
    async def _preview_ready(self, message: PreviewReady) -> None:
        if message.serial != self.preview_serial:
            return
        await self.query_one(Preview).show(message.data, keep_scroll=message.keep_scroll)
        self.query_one(NeighboursList).set_neighbours(message.neighbours, message.similar)

    @work(thread=True, exclusive=True, group="neighbours", exit_on_error=False)
    def refresh_neighbours(self, path: str) -> None:
        neighbours = self.reme.engine.neighbours(path)
        similar = self.reme.engine.similar(path)
        self.post_message(NeighboursReady(path, neighbours, similar))

    @on(NeighboursReady)
    def _neighbours_ready(self, message: NeighboursReady) -> None:
        self.query_one(NeighboursList).set_neighbours(message.neighbours, message.similar)

    # -- actions ------------------------------------------------------------

    def action_focus_search(self) -> None:
        if isinstance(self.focused, QueryInput):
            raise SkipAction()  # `/` types into the query box itself
        self.query_one(SearchBar).focus_query()

    def action_leave_input(self) -> None:
        if not isinstance(self.focused, Input) or isinstance(self.focused, TagFilter):
            raise SkipAction()  # the widget's own Escape (the tag filter clears itself)
        results = self.query_one(ResultList)
        focus_now(results if results.display else self.query_one(TagList))

    def action_jump_hit(self, step: int) -> None:
        self.query_one(Preview).jump_hit(step)

    def action_toggle_all(self) -> None:
        self.query_one(SearchBar).action_toggle_all()

    def action_clear_search(self) -> None:
        self.query_one(SearchBar).clear()
        self.query_one(SearchBar).focus_query()

    def action_back(self) -> None:
        self._revisit(self.history.back(), "Nothing further back")

    def action_forward(self) -> None:
        self._revisit(self.history.forward(), "Nothing further forward")

    def _revisit(self, visit: Visit | None, none_left: str) -> None:
        """Open a visit from the back/forward history without recording it again."""
        if visit is None:
            self.notify(none_left, timeout=1.5)
            return
        self.open_memory(visit.path, visit.line, browsing=True, record=False)

    @property
    def current_path(self) -> str | None:
        return self.query_one(Preview).path

    def action_copy_path(self, absolute: bool = False) -> None:
        path = self.current_path
        if path is None:
            self.notify("No memory selected", severity="warning")
            return
        if absolute:
            path = str(self.reme.engine.root / path)
        self.app.copy_to_clipboard(path)
        self.notify(f"Copied {path}", timeout=2)

    def action_edit(self) -> None:
        path = self.current_path
        if path is None:
            self.notify("No memory selected", severity="warning")
            return
        visit = self.history.current
        line = visit.line if visit is not None and visit.path == path else None
        self.reme.open_in_editor(path, line)

    def action_edit_tags(self) -> None:
        """Hook for the tag editor (issue #5): the app decides what `t` opens."""
        self.reme.open_tag_editor(self.current_path)

    def action_tag_dupes(self) -> None:
        """Hook for the duplicate-tag review (issue #6)."""
        self.reme.open_tag_dupes()

    def action_diagnostics(self) -> None:
        self.reme.action_diagnostics()

    # -- why this, why not that (screens/explain.py) ------------------------------

    def explain_query(self, state: SearchState | None = None) -> SearchQuery | None:
        """The search the results list shows (or ``state``), as ``compute`` runs it (None:
        no query)."""
        state = state or self.shown_state or self.state
        if not state.text.strip():
            return None
        limits = self.reme.settings.search
        return SearchQuery(
            text=state.text,
            filters=state.filters,
            limit=limits.limit * self.pages,
            vector_weight=limits.vector_weight,
        )

    def action_explain(self) -> None:
        """Why the memory in the preview is (or is not) among the current results."""
        path = self.current_path
        if path is None:
            self.notify("No memory selected", severity="warning")
            return
        self.explain_path(path)

    def action_why_not(self) -> None:
        """Ask for a path, then explain it against the current search."""
        if self.explain_query() is None:
            self.notify(_NO_SEARCH, severity="warning")
            return
        label = _search_label(self.shown_state or self.state)

        def chosen(path: str | None) -> None:
            if path:
                self.explain_path(path)

        from reme_tui.ui.screens.explain import WhyNotScreen  # opened rarely: not at start

        self.app.push_screen(WhyNotScreen(self.reme.engine.paths(), label), chosen)

    def explain_path(self, path: str, state: SearchState | None = None) -> None:
        query = self.explain_query(state)
        if query is None:
            self.notify(_NO_SEARCH, severity="warning")
            return
        try:
            explanation = self.reme.engine.explain(path, query)
        except SearchError as error:
            self.notify(str(error), severity="error")
            return

        def closed(choice: tuple[str, str] | None) -> None:
            if choice is None:
                return
            what, chosen = choice
            if what == "open":
                self.open_memory(chosen)
            elif what == "tags":
                self.reme.open_tag_editor(chosen)
            elif what == "dupes":
                self.reme.open_tag_dupes()
            elif what == "widen":
                wider = (self.shown_state or self.state).with_filters(
                    since=None, until=None, strict_dates=False
                )
                self.apply_state(wider)
                self.explain_path(chosen, wider)

        from reme_tui.ui.screens.explain import ExplainScreen  # opened rarely: not at start

        label = _search_label(state or self.shown_state or self.state)
        self.app.push_screen(ExplainScreen(explanation, label), closed)

    def action_toggle_sidebar(self) -> None:
        hide = self.query_one(TagSidebar).display
        self.set_class(hide, "-no-sidebar")
        self.set_class(not hide, "-show-sidebar")

    def action_focus_pane(self, pane: str) -> None:
        widgets: dict[str, type[Widget]] = {
            "search": QueryInput,
            "tags": TagList,
            "results": ResultList,
            "preview": MarkdownBody,
            "links": NeighboursList,
        }
        focus_now(self.query_one(widgets[pane]))

    @on(UntaggedLabel.Pressed)
    def _untagged_pressed(self) -> None:
        self.reme.action_untagged()

    @on(DiagnosticsLabel.Pressed)
    def _diagnostics_pressed(self) -> None:
        self.action_diagnostics()

    def apply_state(self, state: SearchState) -> None:
        """Set the whole search (used by the palette and tests)."""
        self.query_one(SearchBar).set_state(state, submitted=True)

    def reload_everything(self) -> None:
        self.refresh_meta()
        self.run_search(immediate=True)
        if self.current_path is not None:
            self.load_preview(self.current_path, None, None, keep_scroll=True)

    def selected_row(self) -> Any:
        return self.query_one(ResultsPane).selected


def describe_delta(delta: Any) -> str:
    parts = []
    for label, paths in (
        ("added", delta.added),
        ("changed", delta.changed),
        ("removed", delta.removed),
    ):
        if paths:
            sample = paths[0] if len(paths) == 1 else f"{len(paths)} files"
            parts.append(f"{label} {sample}")
    return ", ".join(parts) or "no changes"


_NO_SEARCH = "Type a search first: w explains why a memory is or is not among its results"


def _search_label(state: SearchState) -> str:
    """The search as a person typed it: the text, then its filters."""
    filters = state.filters
    mode = "all" if filters.all_tags else "any"
    parts = [repr(state.text.strip())]
    parts += [f"tag:{t}" for t in filters.tags]
    parts += [f"-tag:{t}" for t in filters.exclude_tags]
    if len(filters.tags) > 1:
        parts.append(f"({mode.upper()})")
    parts += [f"since:{filters.since}"] if filters.since else []
    parts += [f"until:{filters.until}"] if filters.until else []
    parts += ["strict dates"] if filters.strict_dates and (filters.since or filters.until) else []
    parts += [f"in:{p}" for p in filters.path_prefixes]
    parts += [f"path:{p}" for p in filters.paths]
    parts += [test.label for test in filters.meta]
    return " ".join(parts)
