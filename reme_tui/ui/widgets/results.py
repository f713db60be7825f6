"""The results list: one row per chunk (or memory when browsing), with highlighted snippets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label

from reme_tui.safe_text import for_terminal_line
from reme_tui.ui.focus import FollowsFocus
from reme_tui.ui.messages import OpenMemory
from reme_tui.ui.rows import ResultRow, TermPattern, snippet, term_pattern
from reme_tui.ui.widgets.border_title import set_border_title
from reme_tui.ui.widgets.line_list import LineList, Piece, pieces_content
from reme_tui.ui.widgets.match_chart import Chart, MatchChart
from reme_tui.ui.widgets.steady_label import SteadyLabel

HIT_STYLE = "bold $text-warning on $warning 15%"


MUTED = ("$text-muted",)
MUTED_HIT = ("$text-muted", HIT_STYLE)


def row_pieces(
    row: ResultRow, pattern: TermPattern | None, width: int = 240, visible: int | None = None
) -> tuple[list[Piece], list[Piece]]:
    """A row's two lines as pieces: path · date · tags · score, then the snippet with the
    matches of ``pattern`` (see `term_pattern`, built once for all rows) marked. Fields
    from the workspace are made safe for a terminal, tabs included (a row is one line)."""
    header: list[Piece] = []
    if row.score is not None:
        header.append((f"{row.score:>7.3g}  ", ("$text-success",)))
    header.append((_one_line(row.path), ("bold $text-primary",)))
    header.append((f"  {_one_line(row.date or 'undated')}", ("$text-secondary",)))
    for tag in row.tags:
        header.append((f"  #{_one_line(tag)}", ("$text-accent",)))
    if row.vector_rank is not None:
        ranks = f" (kw #{row.keyword_rank or '-'} vec #{row.vector_rank})"
        header.append((ranks, ("$text-muted",)))
    line2: list[Piece] = []
    lead = row.name or ""
    if lead and row.score is None:
        line2.append((_one_line(lead) + " — ", ("italic",)))
    body = _one_line(snippet(row.text, pattern, width, visible) or row.description or "")
    shown = 0
    if pattern is not None:
        for match in pattern.finditer(body):
            if match.start() > shown:
                line2.append((body[shown : match.start()], MUTED))
            if match.end() > match.start():
                line2.append((match.group(), MUTED_HIT))
            shown = match.end()
    if shown < len(body):
        line2.append((body[shown:], MUTED))
    return header, line2


def _one_line(text: str) -> str:
    return for_terminal_line(text).replace("\t", " ")


def row_prompt(
    row: ResultRow, pattern: TermPattern | None, width: int = 240, visible: int | None = None
) -> Content:
    """`row_pieces` as one Content (two lines)."""
    return pieces_content(row_pieces(row, pattern, width, visible))


class ResultList(FollowsFocus, LineList):
    """Two lines per row (path · date · tags · score, then the snippet), drawn only for
    the rows on screen, each cut for the list's width when it is first painted."""

    ROW_HEIGHT = 2

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="results.down"),
        Binding("k", "cursor_up", "Up", show=False, id="results.up"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ResultRow] = []
        self.pattern: TermPattern | None = None

    def show_rows(
        self,
        rows: list[ResultRow],
        pattern: TermPattern | None,
        highlighted: int,
        *,
        scroll_y: int = 0,
    ) -> None:
        self.rows, self.pattern = rows, pattern
        self.reset(len(rows), highlighted, scroll_y=scroll_y)

    def row_pieces(self, index: int, width: int) -> tuple[list[Piece], list[Piece]]:
        return row_pieces(self.rows[index], self.pattern, width + 8, width)

    def row_content(self, index: int, width: int) -> Content:
        return pieces_content(self.row_pieces(index, width))

    def prompt(self, index: int) -> Content:
        """Row ``index`` as it is drawn at the list's current width."""
        padding = self.get_component_styles("line-list--row").padding.width
        return self.row_content(index, max(1, self.scrollable_content_region.width - padding))


class ResultsPane(Vertical):
    """Header line, matches-over-time chart and the list."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ResultRow] = []
        self.terms: list[str] = []
        self.total = 0  # matches in all; more than the rows when the list can page further
        self.renamed: dict[str, str] = {}  # old path -> new, for the selection to follow
        set_border_title(self, "Results")

    def compose(self) -> ComposeResult:
        yield MatchChart(id="chart")
        yield ResultList(id="result-list")
        yield SteadyLabel("", id="results-empty")

    @property
    def selected(self) -> ResultRow | None:
        index = self.query_one(ResultList).highlighted
        if index is None or not 0 <= index < len(self.rows):
            return None
        return self.rows[index]

    def set_rows(
        self,
        rows: list[ResultRow],
        terms: list[str],
        *,
        title: str,
        empty: str,
        keep: bool,
        total: int | None = None,
        chart: Chart | None = None,
        counted: bool = True,
    ) -> None:
        """Show ``rows``; with ``keep`` (a refresh of the same search) the highlighted row
        (by path and line) and the scroll position survive, else the first row is selected.
        Nothing per row happens here: the list draws the rows it shows when it paints.
        Unless ``counted``, the total and chart follow in `set_total`; the chart keeps
        the last search's until then."""
        result_list = self.query_one(ResultList)
        previous = self.selected if keep else None
        previous_index = result_list.highlighted
        keep_y = result_list.scroll_offset.y
        self.rows, self.terms = rows, terms
        set_border_title(self, title)
        self.total = max(total or 0, len(rows))
        if counted:
            self.query_one(MatchChart).show(chart or Chart.of([row.date for row in rows]))
        empty_label = self.query_one("#results-empty", Label)
        empty_label.update(empty)
        empty_label.display = not rows
        result_list.display = bool(rows)
        index = 0
        if previous is not None and rows:
            followed = self.renamed.pop(previous.path, previous.path)  # a rename: follow it
            index = next((i for i, row in enumerate(rows) if row.key == previous.key), -1)
            if index < 0:
                index = next((i for i, row in enumerate(rows) if row.path == followed), -1)
            if index < 0:  # the row is gone (deleted): keep its neighbour, not the first row
                index = min(previous_index or 0, len(rows) - 1)
        scroll_y = keep_y if previous is not None and index else 0
        result_list.show_rows(rows, term_pattern(terms), index, scroll_y=scroll_y)
        if not rows:
            return
        if previous is None or rows[index].path != previous.path:
            row = rows[index]
            # After the list is painted: the preview (a Markdown render) must not hold
            # the new results back from the screen.
            self.call_after_refresh(
                self.post_message, OpenMemory(row.path, row.start_line, browsing=True)
            )

    def set_total(self, total: int, chart: Chart | None, *, title: str) -> None:
        """Every match counted (after `set_rows` without ``counted``)."""
        self.total = max(total, len(self.rows))
        set_border_title(self, title)
        self.query_one(MatchChart).show(chart or Chart.of([row.date for row in self.rows]))

    def show_building(self, failed: bool = False) -> None:
        """No search can run (yet): say why, not that nothing matched."""
        empty = "The index could not be built." if failed else "The search runs once it is ready."
        self.set_rows([], [], title="Results", empty=empty, keep=False)
        self.query_one(MatchChart).show_note("index failed" if failed else "index building…")

    @dataclass
    class MoreWanted(Message):
        """The cursor reached the last listed row and more matches exist."""

    @on(LineList.Highlighted, "#result-list")
    def _highlighted(self, event: LineList.Highlighted) -> None:
        event.stop()
        if event.index == len(self.rows) - 1 and self.total > len(self.rows):
            self.post_message(self.MoreWanted())
        row = self.selected
        if row is not None:
            self.post_message(OpenMemory(row.path, row.start_line, browsing=True))

    @on(LineList.Selected, "#result-list")
    def _selected(self, event: LineList.Selected) -> None:
        event.stop()
        row = self.selected
        if row is not None:
            self.post_message(OpenMemory(row.path, row.start_line))
