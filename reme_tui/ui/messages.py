"""Messages workers post to the UI; handlers change state (workers never touch widgets).

Every message is a dataclass (as toolong's are): its fields are what it carries.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from reme_tui.engine.index import SemanticStatus
    from reme_tui.ui.rows import ResultRow


@dataclass
class IndexProgress(Message):
    """The first index build advanced. Bursts coalesce: only the latest matters."""

    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexProgress)


@dataclass
class IndexLoaded(Message):
    """The saved index was restored in ``seconds`` and answers searches; the files are
    being checked for changes since it was saved (IndexBuilt follows)."""

    seconds: float


@dataclass
class IndexBuilt(Message):
    """The first index build finished (or failed with ``error``); ``warm``: it came from
    the saved index."""

    seconds: float
    error: str | None = None
    notices: list[str] = field(default_factory=list)  # e.g. the index could not be saved
    warm: bool = False


@dataclass
class IndexUpdating(Message):
    """A batch of ``count`` changed files is being applied (0: the batch is done)."""

    count: int


@dataclass
class IndexUpdated(Message):
    """Files changed on disk and the engine applied them; ``delta`` is the engine's Delta."""

    delta: Any


@dataclass
class ResultsReady(Message):
    """A search or browse finished (``mode`` is "search" or "browse")."""

    rows: list[ResultRow]
    terms: list[str]
    mode: str
    error: str | None
    warnings: list[str]
    elapsed_ms: float
    serial: int
    hybrid: bool = False
    total: int = 0
    chart: Any = None
    vector_error: str | None = None  # the model failed on this query: keyword results only
    cpu_ms: float = 0.0  # the search thread's own CPU time: what the search itself cost
    counted: bool = True  # False: ``total`` and ``chart`` follow in a MatchesCounted
    painted: asyncio.Event = field(default_factory=asyncio.Event)  # set once on screen
    semantic: SemanticStatus | None = None  # read with the search, in its thread


@dataclass
class MatchesCounted(Message):
    """Every match of search ``serial`` counted and charted, after its rows were shown."""

    serial: int
    total: int
    chart: Any


@dataclass
class TagChosen(Message):
    """Add ``tag`` to the search as a chip (excluded when ``exclude``)."""

    tag: str
    exclude: bool = False


@dataclass
class OpenSource(Message):
    """Ask the app to open a provenance file: a transcript in the viewer, else outside."""

    path: str
    kind: str


@dataclass
class OpenMemory(Message):
    """Ask the screen to open ``path`` in the preview (scrolled to ``line``)."""

    path: str
    line: int | None = None
    browsing: bool = False
    anchor: str | None = None


@dataclass
class PreviewReady(Message):
    """A preview load finished; ``data`` is a PreviewData, ``neighbours`` the engine's,
    ``similar`` the engine's similar memories not already linked."""

    data: Any
    neighbours: Any
    keep_scroll: bool
    serial: int
    similar: Any = ()


@dataclass
class AnchorFound(Message):
    """Where heading ``anchor`` of ``path`` is (``span``: first and last line; None: absent)."""

    path: str
    anchor: str
    span: tuple[int, int] | None


@dataclass
class NeighboursReady(Message):
    """The links (and similar memories) of ``path`` were recomputed after a change."""

    path: str
    neighbours: Any
    similar: Any = ()


class MetaDone(Message):
    """A count of tags and diagnostics ended (counted or failed): the next may start."""


@dataclass
class MetaReady(Message):
    """Tag counts, memory count and diagnostics were recomputed."""

    tags: list[tuple[str, int]]
    memories: int
    diagnostics: int
    untagged: int = 0

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, MetaReady)


@dataclass
class CompatCounted(Message):
    """What ReMe would silently drop, counted per kind (for the status bar)."""

    counts: dict[str, int]
    text: str


@dataclass
class HistoryCounted(Message):
    """Unreviewed changes in the history and its size (``count`` None: history failed)."""

    count: int | None
    size_bytes: int
    error: str | None = None

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, HistoryCounted)
