"""Adapter from file-system events to batches of changed paths.

Uses ``reme_tui.engine.watch.watch_changes`` when it exists (the engine's watcher);
until then falls back to watchfiles directly. The app only ever calls ``watch_changes``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path


async def watch_changes(root: Path, stop_event: asyncio.Event) -> AsyncIterator[list[str]]:
    """Yield lists of changed absolute paths under ``root`` until ``stop_event`` is set."""
    try:
        from reme_tui.engine.watch import watch_changes as engine_watch_changes
    except ImportError:
        engine_watch_changes = None
    if engine_watch_changes is not None:
        async for batch in engine_watch_changes(root, stop_event):
            yield list(batch)
        return
    from watchfiles import awatch

    async for changes in awatch(root, stop_event=stop_event, debounce=60, step=20):
        yield sorted({path for _change, path in changes})
