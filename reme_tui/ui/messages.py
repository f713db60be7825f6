"""Messages workers post to the UI; handlers change state (workers never touch widgets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from reme_tui.ui.rows import ResultRow


class IndexProgress(Message):
    """The first index build advanced. Bursts coalesce: only the latest matters."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexProgress)


class IndexBuilt(Message):
    """The first index build finished (or failed with ``error``)."""

    def __init__(self, seconds: float, error: str | None = None) -> None:
        super().__init__()
        self.seconds = seconds
        self.error = error


class IndexUpdating(Message):
    """A batch of ``count`` changed files is being applied (0: the batch is done)."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class IndexUpdated(Message):
    """Files changed on disk and the engine applied them; ``delta`` is the engine's Delta."""

    def __init__(self, delta: Any) -> None:
        super().__init__()
        self.delta = delta


class ResultsReady(Message):
    """A search or browse finished (``mode`` is "search" or "browse")."""

    def __init__(
        self,
        rows: list[ResultRow],
        terms: list[str],
        mode: str,
        error: str | None,
        warnings: list[str],
        elapsed_ms: float,
        serial: int,
        hybrid: bool = False,
        total: int = 0,
        chart: Any = None,
    ) -> None:
        super().__init__()
        self.rows = rows
        self.terms = terms
        self.mode = mode
        self.error = error
        self.warnings = warnings
        self.elapsed_ms = elapsed_ms
        self.serial = serial
        self.hybrid = hybrid
        self.total = total  # every match, not only the listed rows
        self.chart = chart  # a match_chart.Chart over every match (None: over the rows)


class TagChosen(Message):
    """Add ``tag`` to the search as a chip (excluded when ``exclude``)."""

    def __init__(self, tag: str, exclude: bool = False) -> None:
        super().__init__()
        self.tag = tag
        self.exclude = exclude


class OpenSource(Message):
    """Ask the app to open a provenance file: a transcript in the viewer, else outside."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__()
        self.path = path
        self.kind = kind


class OpenMemory(Message):
    """Ask the screen to open ``path`` in the preview (scrolled to ``line``)."""

    def __init__(
        self,
        path: str,
        line: int | None = None,
        *,
        browsing: bool = False,
        anchor: str | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.line = line
        self.browsing = browsing
        self.anchor = anchor  # a heading of the memory (a wikilink's #anchor) to open at


class PreviewReady(Message):
    """A preview load finished; ``data`` is a PreviewData, ``neighbours`` the engine's,
    ``similar`` the engine's similar memories not already linked."""

    def __init__(
        self, data: Any, neighbours: Any, *, keep_scroll: bool, serial: int, similar: Any = ()
    ) -> None:
        super().__init__()
        self.data = data
        self.neighbours = neighbours
        self.similar = similar
        self.keep_scroll = keep_scroll
        self.serial = serial


class MetaReady(Message):
    """Tag counts, memory count and diagnostics were recomputed."""

    def __init__(self, tags: list[tuple[str, int]], memories: int, diagnostics: int) -> None:
        super().__init__()
        self.tags = tags
        self.memories = memories
        self.diagnostics = diagnostics

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, MetaReady)


class CompatCounted(Message):
    """What ReMe would silently drop, counted per kind (for the status bar)."""

    def __init__(self, counts: dict[str, int], text: str) -> None:
        super().__init__()
        self.counts = counts
        self.text = text


class HistoryCounted(Message):
    """Unreviewed changes in the history and its size (``count`` None: history failed)."""

    def __init__(self, count: int | None, size_bytes: int, error: str | None = None) -> None:
        super().__init__()
        self.count = count
        self.size_bytes = size_bytes
        self.error = error

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, HistoryCounted)
