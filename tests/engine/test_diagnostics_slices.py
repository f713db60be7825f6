"""`Engine.diagnostics` holds the index lock a slice of memories at a time: at 50,000
memories the whole pass took about a second, and the app runs it after every update,
so a search typed during a burst waited for it (issue 19)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import build as index_build
from reme_tui.engine.records import Memory
from reme_tui.engine.reme import checks as checks_module
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace


def _workspace(root: Path) -> Path:
    files = {
        f"digest/n{i:02d}.md": memory(f"plan {i} [[digest/gone{i}.md]]\n", tags=["a"])
        for i in range(12)
    }
    files["digest/other.md"] = memory("budget [[digest/nowhere.md]]\n", tags=["ok"])
    files["digest/bad.md"] = "---\nname: [unclosed\n---\nbody\n"
    return write_workspace(root, files)


def test_the_slices_find_what_one_pass_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = Engine.open(_workspace(tmp_path))
    whole = engine.diagnostics()
    monkeypatch.setattr(index_build, "APPLY_SLICE", 5)
    monkeypatch.setattr(index_build, "APPLY_SLICE_S", 3600.0)
    assert engine.diagnostics() == whole
    paths = {d.path for d in whole}
    assert paths >= {"digest/n00.md", "digest/n11.md", "digest/other.md", "digest/bad.md"}


def test_a_search_gets_the_index_between_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = Engine.open(_workspace(tmp_path))
    monkeypatch.setattr(index_build, "APPLY_SLICE", 5)
    monkeypatch.setattr(index_build, "APPLY_SLICE_S", 3600.0)
    between, resume = threading.Event(), threading.Event()

    def pause_once() -> None:
        if not between.is_set():
            between.set()
            resume.wait()

    monkeypatch.setattr(index_build, "let_readers_in", pause_once)
    found: list[object] = []
    counting = threading.Thread(target=lambda: found.append(engine.diagnostics()))
    counting.start()
    try:
        assert between.wait(10)
        free = engine._lock.acquire(blocking=False)
        if free:
            engine._lock.release()
        hits = engine.search(SearchQuery(text="plan", limit=50)).hits
    finally:
        resume.set()
        counting.join()
    assert free, "the index lock was held across slices"
    assert len(hits) == 12 and found


def test_a_memory_removed_between_slices_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _workspace(tmp_path)
    engine = Engine.open(root)
    monkeypatch.setattr(index_build, "APPLY_SLICE", 5)
    monkeypatch.setattr(index_build, "APPLY_SLICE_S", 3600.0)
    removed = False

    def remove_a_later_one() -> None:
        nonlocal removed
        if not removed:
            removed = True
            (root / "digest/other.md").unlink()
            engine.apply(["digest/other.md"])

    assert "digest/other.md" in {d.path for d in engine.diagnostics()}
    monkeypatch.setattr(index_build, "let_readers_in", remove_a_later_one)
    found = engine.diagnostics()
    assert removed
    assert "digest/other.md" not in {d.path for d in found}
    assert found == engine.diagnostics()


def test_the_spellings_are_counted_outside_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting every memory's tag spellings cost ~30 ms of CPU at 50,000 memories, and
    a search typed during a burst waited for it at the start of each pass."""
    engine = Engine.open(_workspace(tmp_path))
    whole = engine.diagnostics()
    held_while_counting: list[bool] = []
    count_spellings = checks_module.preferred_spellings

    def watched(memories: Iterable[Memory]) -> dict[str, str]:
        def probe() -> None:
            free = engine._lock.acquire(blocking=False)
            if free:
                engine._lock.release()
            held_while_counting.append(not free)

        prober = threading.Thread(target=probe)
        prober.start()
        prober.join()
        return count_spellings(memories)

    monkeypatch.setattr(checks_module, "preferred_spellings", watched)
    assert engine.diagnostics() == whole
    assert held_while_counting == [False]
