"""App latency for `make bench`, measured with Textual's headless pilot.

Three figures: first paint (the screen is up while the index still builds in the
background), keystroke to results painted, and highlighting a result to its preview
painted (its first paint: the plain text while the cursor moves, else the Markdown).
The app's own methods are wrapped to timestamp the start of a search or a preview and
the refresh that paints it; nothing else changes.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

from reme_tui.config import Settings
from reme_tui.ui.app import make_app
from reme_tui.ui.options import AppOptions
from reme_tui.ui.screens.main import MainScreen
from reme_tui.ui.widgets.preview import Preview
from reme_tui.ui.widgets.results import ResultList, ResultsPane

WORDS = ["budget plan", "review meeting", "launch risk", "vendor design"]


class _Probe:
    """Timestamps between a search (or preview) starting and its result being painted."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}
        self.results_ms: list[float] = []
        self.preview_ms: list[float] = []
        self._originals: list[tuple[type, str, Any]] = []

    def install(self) -> None:
        probe = self
        run_search, set_rows = MainScreen.run_search, ResultsPane.set_rows
        open_memory, show, show_plain = MainScreen.open_memory, Preview.show, Preview.show_plain

        def timed_run_search(screen: MainScreen, *args: Any, **kwargs: Any) -> Any:
            probe.marks.setdefault("key", time.perf_counter())
            return run_search(screen, *args, **kwargs)

        def timed_set_rows(pane: ResultsPane, *args: Any, **kwargs: Any) -> Any:
            result = set_rows(pane, *args, **kwargs)
            if "key" in probe.marks:
                start = probe.marks.pop("key")
                pane.call_after_refresh(lambda: probe.results_ms.append(_ms_since(start)))
            return result

        def timed_open(screen: MainScreen, *args: Any, **kwargs: Any) -> Any:
            probe.marks.setdefault("open", time.perf_counter())
            return open_memory(screen, *args, **kwargs)

        async def timed_show(preview: Preview, *args: Any, **kwargs: Any) -> Any:
            result = await show(preview, *args, **kwargs)
            if "open" in probe.marks:
                start = probe.marks.pop("open")
                preview.call_after_refresh(lambda: probe.preview_ms.append(_ms_since(start)))
            return result

        async def timed_show_plain(preview: Preview, *args: Any, **kwargs: Any) -> Any:
            result = await show_plain(preview, *args, **kwargs)
            if "open" in probe.marks:  # the first paint of the preview: plain text
                start = probe.marks.pop("open")
                preview.call_after_refresh(lambda: probe.preview_ms.append(_ms_since(start)))
            return result

        for cls, name, new in (
            (MainScreen, "run_search", timed_run_search),
            (ResultsPane, "set_rows", timed_set_rows),
            (MainScreen, "open_memory", timed_open),
            (Preview, "show", timed_show),
            (Preview, "show_plain", timed_show_plain),
        ):
            self._originals.append((cls, name, getattr(cls, name)))
            setattr(cls, name, new)

    def uninstall(self) -> None:
        for cls, name, original in self._originals:
            setattr(cls, name, original)


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


async def _drive(root: Path, probe: _Probe) -> float:
    started = time.perf_counter()
    app = make_app(root, Settings(), AppOptions(watch=False, persist_theme=False))
    async with app.run_test(size=(160, 45)) as pilot:
        first_paint = _ms_since(started)
        while not app.engine.is_built:
            await pilot.pause(0.05)
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        screen = app.main_screen
        for word in WORDS:
            screen.query_one("#query").value = ""  # type: ignore[attr-defined]
            await pilot.pause(0.3)
            probe.marks.pop("key", None)
            for char in word:
                await pilot.press(char)
                await pilot.pause(0.12)  # a brisk typist
        await pilot.pause(0.5)
        screen.query_one(ResultList).focus()
        for _ in range(15):
            probe.marks.pop("open", None)
            await pilot.press("j")
            await pilot.pause(0.4)
    return first_paint


def ui_rows(root: Path) -> dict[str, float]:
    probe = _Probe()
    probe.install()
    try:
        first_paint = asyncio.run(_drive(root, probe))
    finally:
        probe.uninstall()
    return {
        "app first paint (ms)": first_paint,
        "app keystroke to results p50 (ms)": statistics.median(probe.results_ms),
        "app highlight to preview p50 (ms)": statistics.median(probe.preview_ms),
    }
