"""Frames are paced from the last frame: the results of a keystroke, the second change
after a pause, are painted as soon as they are ready once an interval has passed, not at
the grid point 1-2 intervals after the typed character's frame (issue 19)."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import itertools
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest
import textual._time
import textual.timer
from textual._context import active_app
from textual.screen import ModalScreen, Screen
from textual.timer import Timer

from reme_tui.ui import frame_pacing, screens
from reme_tui.ui.app import RemeApp
from reme_tui.ui.frame_pacing import PacedFrames, PacedFrameTimer

INTERVAL = 0.01


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def get_time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class _Target:
    """What a timer sends to (it keeps a weak reference)."""


class _App:
    _exit = False
    features: frozenset[str] = frozenset()

    def _handle_exception(self, error: Exception) -> None:
        raise error


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def _frames_at(make: Callable[..., Timer], clock: _Clock, asks: list[float]) -> list[float]:
    """When frames are painted for changes asked at ``asks`` (each frame pauses the timer,
    as a screen's update does)."""
    active_app.set(_App())  # type: ignore[arg-type]
    frames: list[float] = []

    def paint() -> None:
        frames.append(round(clock.now, 6))
        timer.pause()

    timer = make(_Target(), INTERVAL, callback=paint, pause=True)
    timer._start()
    await _settle()
    for at in asks:
        clock.now = max(clock.now, at)
        timer.resume()
        await _settle()
    timer.stop()
    return frames


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    for module in (frame_pacing, textual.timer):
        monkeypatch.setattr(module, "sleep", fake.sleep)
    monkeypatch.setattr(frame_pacing, "get_time", fake.get_time)
    monkeypatch.setattr(textual._time, "get_time", fake.get_time)
    return fake


def test_the_second_change_after_a_pause_is_painted_an_interval_later(clock: _Clock) -> None:
    # a typed character at 200.0, its results at 200.004, the next key much later
    # a screen's first frame; a typed character at 200.0, its results at 200.004; a key
    # much later, its results after more than an interval
    asks = [150.0, 200.0, 200.004, 300.0, 300.013]
    frames = asyncio.run(_frames_at(PacedFrameTimer, clock, asks))
    assert frames == [150.01, 200.0, 200.01, 300.0, 300.013]


def test_textuals_own_timer_waits_for_its_grid(clock: _Clock) -> None:
    """Why the paced timer exists: Textual 8.2.8's timer paints the results a grid point
    1-2 intervals after the typed character's frame. If this fails after an upgrade,
    Textual paces frames itself and `frame_pacing` can go."""
    asks = [150.0, 300.0, 300.004]
    frames = asyncio.run(_frames_at(Timer, clock, asks))
    assert frames[0] == 150.01  # a screen's first frame: an interval after it is asked for
    assert frames[1] == 300.0  # the first change after a pause: at once
    assert frames[2] - frames[1] > INTERVAL  # the second: the grid point after the next


def test_the_frames_are_capped_at_one_an_interval(clock: _Clock) -> None:
    asks = [200.0 + i * 0.001 for i in range(30)]
    frames = asyncio.run(_frames_at(PacedFrameTimer, clock, asks))
    gaps = [b - a for a, b in itertools.pairwise(frames)]
    assert frames and min(gaps) >= INTERVAL - 1e-9


def _screen_classes() -> list[type[Screen[Any]]]:
    found: list[type[Screen[Any]]] = []
    for info in pkgutil.iter_modules(screens.__path__):
        module = importlib.import_module(f"{screens.__name__}.{info.name}")
        found.extend(
            cls
            for cls in vars(module).values()
            if isinstance(cls, type)
            and issubclass(cls, Screen)
            and cls.__module__ == module.__name__
        )
    return found


@pytest.mark.parametrize("screen", _screen_classes(), ids=lambda cls: cls.__name__)
def test_every_screen_paces_its_frames_and_keeps_its_css(screen: type[Screen[Any]]) -> None:
    """Each screen's update timer is the paced one, and a modal is still styled as a modal
    (Textual takes CSS along the first DOM base: a Screen before ModalScreen hid it)."""
    assert inspect.getattr_static(screen, "_update_timer") is vars(PacedFrames)["_update_timer"]
    if issubclass(screen, ModalScreen):
        assert "ModalScreen" in screen._css_type_names


@pytest.mark.anyio
async def test_the_app_paints_with_the_paced_timer(app_factory: Any) -> None:
    app: RemeApp = app_factory()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen._update_timer, PacedFrameTimer)
        app.action_help()
        await pilot.pause()
        assert isinstance(app.screen, ModalScreen)
        assert isinstance(app.screen._update_timer, PacedFrameTimer)
