"""The app sets glibc's malloc up for a long-lived index (issue 19); elsewhere it is left
alone. What it saves is measured by the terminal bench, not here."""

from __future__ import annotations

import ctypes
import platform
import sys

import pytest

from reme_tui.engine.index import allocator


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc only",
)
def test_glibc_takes_the_settings() -> None:
    assert allocator.tune_allocator()
    assert allocator.tune_allocator()  # again: harmless


def test_other_platforms_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not allocator.tune_allocator()


def test_a_libc_that_is_not_glibc_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    class Musl:
        def mallopt(self, *_: int) -> int:
            raise AssertionError("musl's mallopt must not be called")

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda *_: Musl())
    assert not allocator.tune_allocator()


def test_memory_is_given_back_only_in_a_tuned_process(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(allocator, "_trim", None)
    allocator.give_back()  # untuned (a library user's process): nothing
    monkeypatch.setattr(allocator, "_trim", lambda pad: calls.append(pad) or 1)
    allocator.give_back()
    assert calls == [0]
