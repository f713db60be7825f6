"""The live index: a watcher thread feeds file changes into the engine, as `--follow` and
the app do, so the next tool call sees a memory edited on disk (after the watcher's short
debounce). The first batch, once the watcher is armed, rescans the whole workspace: what
changed between the build and the watcher taking hold is not lost."""

from __future__ import annotations

import logging
import sys
import threading

from reme_tui.engine import Engine
from reme_tui.engine.files import root_is_gone, watch_batches


class LiveIndex:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="reme-mcp-watch", daemon=True)
        self.applied = False  # the saved index is behind the files: save on stop

    def start(self) -> None:
        logging.getLogger("watchfiles").setLevel(logging.ERROR)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if self.applied and not root_is_gone(self._engine.root):
            self._engine.save()

    def _run(self) -> None:
        engine = self._engine
        try:
            for batch in watch_batches(
                engine.root,
                stop_event=self._stop,
                all_markdown=engine.config.all_markdown,
                also=engine.is_link_target,
                roots=engine.config.memory_roots,
                rescan_when_armed=True,
            ):
                delta = engine.apply(batch)
                if delta.workspace_missing or root_is_gone(engine.root):
                    _say(f"workspace {engine.root} was deleted or moved; the index is frozen")
                    return
                self.applied = self.applied or not delta.is_empty
        except (OSError, RuntimeError) as exc:
            _say(f"watching {engine.root} failed ({exc}); the index is no longer live")


def _say(message: str) -> None:
    sys.stderr.write(f"reme-tui mcp: {message}\n")
    sys.stderr.flush()
