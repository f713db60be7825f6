"""How one run of the app is set up, beyond the settings file: the command line's choices,
and the switches tests use (no watcher, a fixed clock, no theme persistence)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reme_tui.engine.reme import RemeLayout

Clock = Callable[[], dt.datetime]


@dataclass(frozen=True, slots=True)
class AppOptions:
    # From the command line (None: the settings file decides).
    theme: str | None = None
    all_markdown: bool = False
    use_saved_index: bool = True
    rebuild: bool = False
    model: str | None = None
    allow_download: bool | None = None
    vector_weight: float | None = None
    layout: RemeLayout | None = None  # ReMe's folders (None: daily/ and digest/)
    chosen_because: str | None = None  # why this workspace, when it was discovered
    # How the app runs (tests and benchmarks change these).
    watch: bool | None = None
    build: bool = True
    clock: Clock | None = None
    theme_dirs: tuple[Path, ...] | None = None
    persist_theme: bool = True
