"""What the engine tells the change history: each applied change as one group, and at start
what changed since the history last looked."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ..index import Reread
from ..parse import ReadFailure, read_file
from .database import ChangeHistory
from .entries import HistoryError, Observed, RecordResult

# A memory as the history needs it to tell what changed: content hash, tags, name.
Details = tuple[tuple[str, ...], str | None]  # a memory's tags and name


class Recorder:
    """The engine's link to its history (none attached: nothing is recorded)."""

    def __init__(self, root: Path, max_file_bytes: int) -> None:
        self._root = root
        self._root_real = os.path.realpath(root)
        self._max_file_bytes = max_file_bytes
        self.history: ChangeHistory | None = None
        self.last_record = RecordResult()
        # Why the last record failed (the index follows the files even when this cannot).
        self.error: str | None = None

    def attach(self, history: ChangeHistory | None) -> None:
        self.history = history
        self.last_record = RecordResult()

    def record_apply(
        self,
        rereads: Mapping[str, Reread | None],
        removed: Sequence[str],
        *,
        source: str,
        label: str,
        undo: str | None,
    ) -> None:
        """Record one applied change (files read again, paths removed) as one group."""
        if self.history is None:
            return
        observed = {
            r.rel: Observed(r.rel, r.data, r.memory.tags, r.memory.name)
            for r in rereads.values()
            if r is not None and r.memory is not None and r.content_changed
        }
        for path in removed:
            observed.setdefault(path, Observed(path, None))
        try:
            self.last_record = self.history.record(
                [observed[p] for p in sorted(observed)], source=source, label=label, undo=undo
            )
        except HistoryError as error:
            self.error = str(error)
            self.last_record = RecordResult()

    def sync(
        self, now: Mapping[str, str], details: Callable[[str], Details], source: str
    ) -> RecordResult:
        """Record what changed since the history last looked (the first time: a silent
        baseline). ``now`` is path -> content hash; ``details`` gives a path's tags and
        name. Only memories whose content hash differs from the recorded one are read."""
        observe = self.observe
        history = self.history
        if history is None:
            return RecordResult()
        if not history.has_baseline:
            history.record_baseline(observe(p, *details(p)) for p in sorted(now))
            return RecordResult()
        recorded = history.current()
        # Set operations on the (path, hash) pairs run in C: 10,000 memories cost ~1 ms.
        moved = now.items() ^ recorded.items()
        touched = sorted({path for path, _ in moved})
        observed = [observe(p, *details(p)) if p in now else Observed(p, None) for p in touched]
        return history.record(observed, source=source)

    def observe(self, rel: str, tags: tuple[str, ...], name: str | None) -> Observed:
        """Memory ``rel`` as it is on disk now (gone or unreadable: no data)."""
        try:
            raw = read_file(self._root / rel, rel, self._max_file_bytes, inside=self._root_real)
        except ReadFailure:
            return Observed(rel, None)
        return Observed(rel, raw.data, tags, name)
