"""Adapter from file-system events to batches of changed paths for the app's watcher worker.

Uses the engine's watcher (``reme_tui.engine.watch.awatch_batches``: filtered to memory
files, relative paths); falls back to plain watchfiles if that module is unavailable.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path


async def watch_changes(
    root: Path, stop_event: asyncio.Event, *, all_markdown: bool = False
) -> AsyncIterator[list[str]]:
    """Yield lists of changed paths under ``root`` until ``stop_event`` is set."""
    try:
        from reme_tui.engine.watch import awatch_batches
    except ImportError:
        awatch_batches = None
    if awatch_batches is not None:
        async for batch in awatch_batches(root, stop_event=stop_event, all_markdown=all_markdown):
            yield list(batch)
        return
    from watchfiles import awatch

    async for changes in awatch(root, stop_event=stop_event, debounce=60, step=20):
        yield sorted({path for _change, path in changes})
