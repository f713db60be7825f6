"""A saved index read in the background: the load starts now, its snapshot is taken later."""

from __future__ import annotations

import threading

from .collector import collector_paused
from .store import IndexStore, Snapshot


class PendingLoad:
    """`IndexStore.load` started now in a thread of its own, its snapshot taken later.

    The app starts it before it imports its UI: reading and checking the file (which
    release the GIL) overlap the imports, and the decoding is done by the time the build
    asks. `result` waits for the load and hands back what it gave, the snapshot or the
    exception (StoreInvalid when unusable), exactly as `load` would have."""

    def __init__(self, store: IndexStore, config_key: str) -> None:
        self.store = store
        self.config_key = config_key
        self._snapshot: Snapshot | None = None
        self._error: BaseException | None = None
        # A daemon: an app that stops before its build (no terminal, a broken theme)
        # must not wait for a load nobody will use.
        self._thread = threading.Thread(target=self._run, name="saved-index-load", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with collector_paused():  # its many records, as a build's (collector.py)
                self._snapshot = self.store.load(self.config_key)
        except BaseException as exc:  # handed to whoever takes the result
            self._error = exc

    def result(self) -> Snapshot:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._snapshot is not None
        return self._snapshot
