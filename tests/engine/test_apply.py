"""Incremental `apply` always ends equal to a fresh rebuild of the files."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import build as index_build
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace

WORDS = ["budget", "atlas", "launch", "alice", "review", "plan", "risk", "vendor"]
TAGS = ["alice", "Bob", "project_atlas", "Project Atlas", "acme"]
SLOTS = [
    "daily/2026-03-01/a.md",
    "daily/2026-03-01/b.md",
    "daily/2026-03-02.md",
    "digest/wiki/x.md",
    "digest/wiki/deep/y.md",
    "digest/personal/z.md",
]


def assert_equals_rebuild(engine: Engine) -> None:
    fresh = Engine.open(engine.root)
    assert engine.fingerprint() == fresh.fingerprint()
    for word in WORDS[:3]:
        query = SearchQuery(text=word, limit=20)
        ours = [(h.path, h.start_line, round(h.score, 9)) for h in engine.search(query).hits]
        theirs = [(h.path, h.start_line, round(h.score, 9)) for h in fresh.search(query).hits]
        assert ours == theirs


def test_add_modify_delete_return_deltas(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/wiki/a.md": memory("budget\n", tags=["alice"])})
    engine = Engine.open(tmp_path)
    write_workspace(tmp_path, {"digest/wiki/b.md": memory("budget two\n", tags=["bob"])})
    delta = engine.apply(["digest/wiki/b.md"])
    assert delta.added == ["digest/wiki/b.md"] and delta.tags_moved == {"bob"}
    write_workspace(tmp_path, {"digest/wiki/a.md": memory("budget again\n", tags=["carol"])})
    delta = engine.apply([tmp_path / "digest/wiki/a.md"])
    assert delta.changed == ["digest/wiki/a.md"] and delta.tags_moved == {"alice", "carol"}
    (tmp_path / "digest/wiki/b.md").unlink()
    delta = engine.apply(["digest/wiki/b.md"])
    assert delta.removed == ["digest/wiki/b.md"] and delta.tags_moved == {"bob"}
    assert engine.apply(["digest/wiki/a.md"]).is_empty  # unchanged file: no delta
    assert_equals_rebuild(engine)


def test_directory_delete_and_rename(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {f"digest/wiki/team/{i}.md": memory(f"plan {i}\n", tags=["alice"]) for i in range(5)},
    )
    engine = Engine.open(tmp_path)
    (tmp_path / "digest/wiki/team").rename(tmp_path / "digest/wiki/crew")
    delta = engine.apply(["digest/wiki/team", "digest/wiki/crew"])
    assert len(delta.removed) == 5 and len(delta.added) == 5
    shutil.rmtree(tmp_path / "digest/wiki/crew")
    delta = engine.apply([tmp_path / "digest/wiki/crew"])
    assert len(delta.removed) == 5 and engine.memory_count == 0
    assert_equals_rebuild(engine)


def test_ignores_non_memories_and_paths_outside(tmp_path: Path) -> None:
    engine = Engine.open(write_workspace(tmp_path, {"notes/a.md": "budget\n"}))
    assert engine.apply(["notes/a.md", "../escape.md", "/etc/passwd"]).is_empty


def test_apply_root_rescans_everything(tmp_path: Path) -> None:
    engine = Engine.open(write_workspace(tmp_path, {"digest/a.md": memory("x\n")}))
    write_workspace(tmp_path, {"daily/2026-01-01/b.md": memory("y\n")})
    (tmp_path / "digest/a.md").unlink()
    delta = engine.apply([tmp_path])
    assert delta.added == ["daily/2026-01-01/b.md"] and delta.removed == ["digest/a.md"]


operation = st.tuples(
    st.sampled_from(["write", "delete", "rename", "rmdir"]),
    st.sampled_from(SLOTS),
    st.sampled_from(SLOTS),
    st.lists(st.sampled_from(WORDS), min_size=0, max_size=8),
    st.lists(st.sampled_from(TAGS), max_size=4),
    st.booleans(),
)


def _carry_out(root: Path, op: tuple) -> list[str]:
    """Do one operation on disk; the paths a watcher would report for it."""
    kind, slot, other, words, tags, link = op
    path = root / slot
    if kind == "write":
        body = " ".join(words) + (f"\n[[{other}]]\n" if link else "\n")
        write_workspace(root, {slot: memory(body, tags=tags)})
    elif kind == "delete" and path.exists():
        path.unlink()
    elif kind == "rename" and path.exists() and slot != other:
        (root / other).parent.mkdir(parents=True, exist_ok=True)
        path.replace(root / other)
        return [slot, other]
    elif kind == "rmdir" and path.parent.exists() and path.parent != root:
        shutil.rmtree(path.parent)
        return [str(Path(slot).parent)]
    return [slot]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=st.lists(operation, min_size=1, max_size=12))
def test_random_interleavings_equal_rebuild(tmp_path_factory, ops) -> None:
    root = tmp_path_factory.mktemp("ws")
    engine = Engine.open(root)
    for op in ops:
        engine.apply(_carry_out(root, op))
    assert_equals_rebuild(engine)


def _apply_batch(root: Path, engine: Engine, ops: list) -> None:
    """Carry out every operation on disk, then hand all touched paths to one `apply`."""
    engine.apply([path for op in ops for path in _carry_out(root, op)])


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    first=st.lists(operation, min_size=1, max_size=12),
    second=st.lists(operation, min_size=1, max_size=12),
)
def test_random_batches_applied_one_file_per_slice_equal_rebuild(
    tmp_path_factory, first, second
) -> None:
    root = tmp_path_factory.mktemp("ws")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index_build, "APPLY_SLICE", 1)
        engine = Engine.open(root)
        _apply_batch(root, engine, first)
        _apply_batch(root, engine, second)
    assert_equals_rebuild(engine)


def test_a_big_batch_leaves_the_index_to_searches_between_slices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search typed during a burst waits for one slice, not the burst: between slices
    the index lock is free and the files put in so far are searchable."""
    files = {f"digest/wiki/n{i:02d}.md": memory(f"plan {i}\n") for i in range(20)}
    engine = Engine.open(write_workspace(tmp_path, files))
    write_workspace(tmp_path, {p: memory("budget burst\n") for p in files})
    monkeypatch.setattr(index_build, "APPLY_SLICE", 5)
    monkeypatch.setattr(index_build, "APPLY_SLICE_S", 3600.0)  # slices of 5, however slow
    between = threading.Event()
    resume = threading.Event()
    seen: list[int] = []

    def pause_once() -> None:
        if not between.is_set():
            between.set()
            resume.wait()

    monkeypatch.setattr(index_build, "let_readers_in", pause_once)
    applying = threading.Thread(target=engine.apply, args=(sorted(files),))
    applying.start()
    try:
        between.wait()
        free = engine._lock.acquire(blocking=False)
        if free:
            engine._lock.release()
        seen.append(len(engine.search(SearchQuery(text="burst", limit=50)).hits))
    finally:
        resume.set()
        applying.join()
    assert free, "the index lock was held across slices"
    assert seen == [5]  # the first slice is in, the rest not yet
    assert len(engine.search(SearchQuery(text="burst", limit=50)).hits) == 20
    assert_equals_rebuild(engine)


def test_a_slice_ends_when_it_has_held_the_lock_long_enough(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 50,000 memories, with the screen sharing the GIL, 32 files held the lock
    50-120 ms: a slice also ends on time (here: at once, so one file a slice)."""
    files = {f"digest/wiki/n{i:02d}.md": memory(f"plan {i}\n") for i in range(12)}
    engine = Engine.open(write_workspace(tmp_path, files))
    write_workspace(tmp_path, {p: memory("budget burst\n") for p in files})
    monkeypatch.setattr(index_build, "APPLY_SLICE", 5)
    monkeypatch.setattr(index_build, "APPLY_SLICE_S", 0.0)
    gaps: list[int] = []
    monkeypatch.setattr(index_build, "let_readers_in", lambda: gaps.append(1))
    engine.apply(sorted(files))
    assert len(gaps) == len(files) - 1
    assert len(engine.search(SearchQuery(text="burst", limit=50)).hits) == 12
    assert_equals_rebuild(engine)
