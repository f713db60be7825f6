"""The collector is paused while an index is built and runs again afterwards."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import collector
from reme_tui.engine.index.collector import collector_paused, freeze_after_builds
from tests.helpers import memory, write_workspace


def test_pauses_nest_and_overlap_across_threads() -> None:
    assert gc.isenabled()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with collector_paused():
            inside.set()
            leave.wait()

    worker = threading.Thread(target=other)
    with collector_paused():
        assert not gc.isenabled()
        worker.start()
        inside.wait()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other thread's pause still holds
    leave.set()
    worker.join()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_build_runs_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget\n")})
    seen: list[bool] = []
    from reme_tui.engine.index import build

    real = build.cold_build

    def spy(*args: object) -> object:
        seen.append(gc.isenabled())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "cold_build", spy)
    engine = Engine.open(tmp_path)
    assert seen == [False] and engine.memory_count == 1
    assert gc.isenabled()


def test_the_console_script_freezes_what_builds_make(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full collection walks every object of an index (0.4-0.5 s at 50k memories) and
    the first one after a paused build fell on the first search; reme-tui's own process
    freezes the built objects instead. `main` alone (a library or test process) does not."""
    from reme_tui.cli import entry

    write_workspace(tmp_path, {"digest/a.md": memory("budget\n")})
    # The real command line: the freeze is set up once the command is known to open a
    # workspace (so that --help loads no engine).
    monkeypatch.setattr("sys.argv", ["reme-tui", "tags", str(tmp_path), "--no-cache"])
    assert gc.get_freeze_count() == 0
    try:
        assert entry.run() == 0
        assert gc.get_freeze_count() > 0 and gc.isenabled()
    finally:
        freeze_after_builds(False)
        gc.unfreeze()
    assert not collector._freeze
    Engine.open(tmp_path)
    assert gc.get_freeze_count() == 0


def _watch_collector_in_plan(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    seen: list[bool] = []
    real = engine._planner.plan

    def spy(changes: list[str]) -> object:
        seen.append(gc.isenabled())
        return real(changes)

    monkeypatch.setattr(engine._planner, "plan", spy)
    return seen


def _burst_sized_workspace(root: Path) -> tuple[Engine, list[str]]:
    """An engine over just enough memories for an update of them all to be a burst."""
    paths = [f"digest/m{i}.md" for i in range(collector.BURST_PATHS)]
    write_workspace(root, dict.fromkeys(paths, memory("budget\n")))
    return Engine.open(root), paths


def test_a_burst_of_changes_is_read_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Full collections during a 3,000-file burst fell on the keys typed meanwhile."""
    engine, paths = _burst_sized_workspace(tmp_path)
    seen = _watch_collector_in_plan(engine, monkeypatch)
    write_workspace(tmp_path, dict.fromkeys(paths, memory("budget plan\n")))
    delta = engine.apply(paths)
    assert seen == [False] and len(delta.changed) == len(paths)
    assert gc.isenabled()


def test_a_few_changes_leave_the_collector_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget\n")})
    engine = Engine.open(tmp_path)
    seen = _watch_collector_in_plan(engine, monkeypatch)
    (tmp_path / "digest/a.md").write_text(memory("budget plan\n"), encoding="utf-8")
    engine.apply(["digest/a.md"])
    assert seen == [True]


def test_the_console_script_freezes_what_a_burst_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, paths = _burst_sized_workspace(tmp_path)
    freeze_after_builds()
    try:
        engine.apply(paths[:1])
        assert gc.get_freeze_count() == 0  # a single change: nothing frozen
        engine.apply(paths)
        assert gc.get_freeze_count() > 0
    finally:
        freeze_after_builds(False)
        gc.unfreeze()


def test_batches_close_together_are_one_burst() -> None:
    """A watcher hands a burst over in batches under the threshold: the paths of the
    last seconds' updates count together, and a lone write later does not."""
    now = [0.0]
    window = collector.BurstWindow(clock=lambda: now[0])
    third = collector.BURST_PATHS // 3 + 1

    def paused(paths: int) -> bool:
        with window.paused_for(paths):
            return not gc.isenabled()

    assert gc.isenabled()
    assert [paused(third), paused(third)] == [False, False]
    now[0] = 1.0
    assert paused(third)  # three batches within the window make a burst
    assert gc.isenabled()
    now[0] = 1.0 + collector.BURST_WINDOW_S + 0.1
    assert not paused(1)  # the burst is over: a single write leaves the collector on


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _cycle_made_while_paused(**pause: bool) -> object:
    """A reference cycle made (and dropped) during a pause, as a key typed beside a burst
    makes them; returns a weak reference to it."""
    import weakref

    freeze_after_builds()
    try:
        with collector_paused(**pause):
            cycle = _Cycle()
            ref = weakref.ref(cycle)
            del cycle
        return ref
    finally:
        freeze_after_builds(False)


def test_cycles_made_beside_a_burst_are_collected_not_frozen() -> None:
    """Frozen objects are never collected: at 50,000 memories each 3,000-file burst in
    the app froze ~150,000 objects of the UI's for good (issue 19)."""
    try:
        ref = _cycle_made_while_paused(others_run=True)
        assert ref() is None  # collected before the freeze
    finally:
        gc.unfreeze()


def test_a_build_pause_freezes_without_walking_what_it_made() -> None:
    """A build makes next to no cycles, and collecting its young objects cost ~0.25 s at
    50k memories: only a burst's pause collects first."""
    try:
        ref = _cycle_made_while_paused()
        assert ref() is not None and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    gc.collect()
    assert ref() is None
