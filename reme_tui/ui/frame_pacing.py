"""Frames paced from the last frame: a change after a pause is painted at once.

Textual paints a screen from a repeating timer (one frame at most every 1/TEXTUAL_FPS
seconds) that it pauses while nothing is dirty. Its schedule is a fixed grid from when the
timer started, and after a pause it skips to the grid point *after* the next one: the
first change after a pause is painted at once, but the second waits 1 to 2 intervals.
A keystroke is exactly that pair: the typed character is the first frame, the results
(ready ~5-10 ms later) the second, and they waited for a frame slot 8.3-16.7 ms after the
first at 120 FPS; a `j` and its preview the same (issue 19).

`PacedFrameTimer` keeps the cap (frames at least an interval apart) and drops the grid:
the next frame may come one interval after the last one, and comes as soon as a change
asks for it after that. A screen's first frame still waits an interval, as Textual's
does: painted at once, a modal's first frame left the screen behind it half drawn (in the
dismissed-pairs snapshot). `PacedFrames` gives a screen that timer.
"""

from __future__ import annotations

from typing import cast

from textual._time import get_time, sleep
from textual.screen import UPDATE_PERIOD, Screen
from textual.timer import EventTargetGone, Timer


class PacedFrameTimer(Timer):
    """A paused-when-idle repeating timer whose ticks are at least its interval apart,
    timed from the last tick rather than from a grid (Textual 8.2.8's `Timer._run`, whose
    contract this keeps: tick while active, stop when the target is gone)."""

    async def _run(self) -> None:
        interval = self._interval
        await self._active.wait()
        last_tick = get_time()  # the first tick an interval after the first ask, as Textual's
        while True:
            await self._active.wait()
            wait = last_tick + interval - get_time()
            if wait > 0:
                await sleep(wait)
                if not self._active.is_set():
                    continue  # paused meanwhile: the screen painted by other means
            last_tick = get_time()
            try:
                await self._tick(next_timer=last_tick, count=0)
            except EventTargetGone:
                break


class PacedFrames:
    """Give a screen a `PacedFrameTimer`: put this mixin first in the screen's bases.

    Not a `Screen` itself: Textual takes a screen's CSS from the chain of first DOM bases,
    so a `Screen` subclass first in the bases of a `ModalScreen` would hide the modal's own
    CSS (its see-through background)."""

    _paced_timer: PacedFrameTimer | None = None

    @property
    def _update_timer(self) -> Timer:
        timer = self._paced_timer
        if timer is None:
            screen = cast(Screen[object], self)
            timer = PacedFrameTimer(
                screen,
                UPDATE_PERIOD,
                name="screen_update",
                callback=screen._on_timer_update,
                pause=True,
            )
            timer._start()
            screen._timers.add(timer)
            self._paced_timer = timer
        return timer
