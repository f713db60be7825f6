"""Progress of a long build or embedding on stderr, never on stdout.

On a terminal (rich's answer: an interactive console) a rich progress bar with the count,
the rate and the time left, shown only once the work has taken ``delay`` seconds and cleared
when it ends. Anywhere else (a log, a CI job, a pipe) one plain line at ``delay`` and then
one every ``every`` seconds, so a 24-second cold build is not 24 seconds of silence, and one
line when it ends if any was printed. ``$REME_TUI_PROGRESS_DELAY`` (seconds) changes the
delay: 0 shows progress from the first file. Short work (a warm start) prints nothing and
never imports rich.

The clock is injected (``clock``): tests drive it by hand, nothing here sleeps.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

Clock = Callable[[], float]
DELAY_ENV = "REME_TUI_PROGRESS_DELAY"


def delay_from_env(default: float = 1.0) -> float:
    """``$REME_TUI_PROGRESS_DELAY`` when it is a number >= 0, else ``default``."""
    try:
        delay = float(os.environ.get(DELAY_ENV, default))
    except ValueError:
        return default
    return delay if delay >= 0 else default


class Progress:
    """``update(done, total)`` as the work goes (from any thread), ``finish()`` at the end."""

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "indexing",
        unit: str = "memories",
        delay: float = 1.0,
        every: float = 5.0,
        clock: Clock = time.monotonic,
    ) -> None:
        self._stream = stream
        self._label = label
        self._unit = unit
        self._delay = delay
        self._every = every
        self._clock = clock
        self._start = clock()
        self._lock = threading.Lock()
        self._interactive: bool | None = None  # decided at the first update worth showing
        self._bar: tuple[RichProgress, TaskID] | None = None
        self._next_line = self._start + delay
        self._lines = 0
        self._last = (0, 0)

    def update(self, done: int, total: int) -> None:
        with self._lock:
            self._last = (done, total)
            now = self._clock()
            if total <= 0 or now - self._start < self._delay:
                return
            if self._interactive is None:
                self._interactive = _interactive(self._stream)
            if self._interactive:
                self._draw(done, total)
            elif now >= self._next_line:
                self._write_line(done, total, now)
                self._next_line = now + self._every

    def finish(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar[0].stop()
                self._bar = None
            elif self._lines:
                done, _total = self._last
                seconds = self._clock() - self._start
                self._stream.write(
                    f"reme-tui: {self._label} done: {done:,} {self._unit} in {seconds:.0f} s\n"
                )
                self._stream.flush()

    def _write_line(self, done: int, total: int, now: float) -> None:
        elapsed = now - self._start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f", about {(total - done) / rate:.0f} s left" if rate > 0 else ""
        percent = 100 * done // total
        self._stream.write(
            f"reme-tui: {self._label} {done:,}/{total:,} {self._unit} "
            f"({percent}%, {rate:,.0f}/s{left})\n"
        )
        self._stream.flush()
        self._lines += 1

    def _draw(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = _rich_bar(self._stream, self._label, self._unit, total)
        progress, task = self._bar
        progress.update(task, completed=done, total=total)


def _interactive(stream: TextIO) -> bool:
    """Whether rich would animate on ``stream``: a terminal that is not TERM=dumb."""
    from rich.console import Console

    return Console(file=stream).is_interactive


def _rich_bar(stream: TextIO, label: str, unit: str, total: int) -> tuple[RichProgress, TaskID]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        """How many a second, once rich has measured it."""

        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:,.0f}/s" if task.speed else "")

    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TaskProgressColumn(),
        Rate(),
        TimeRemainingColumn(),
        console=Console(file=stream),
        transient=True,
        redirect_stdout=False,  # stdout is the results' alone, even while the bar shows
    )
    task = progress.add_task(label, total=total)
    progress.start()
    return progress, task
