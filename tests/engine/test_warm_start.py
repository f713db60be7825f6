"""A warm start in two steps (issue 19): the saved index is read in a thread started before
the build asks for it (`Engine.preload`), and it answers queries once restored, before the
files are checked for changes made since it was saved (`build(before_scan=...)`, also
where the app starts watching the workspace)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index.store import IndexStore, Snapshot, StoreInvalid
from reme_tui.engine.search import SearchQuery
from tests.engine.test_store import FILES, age_files, open_with_store
from tests.helpers import memory, write_workspace


def warm_engine(root: Path) -> Engine:
    engine = Engine.create(root)
    engine.attach_store(IndexStore(root))
    return engine


def test_preload_reads_the_saved_index_in_a_thread_and_build_uses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    loads: list[str] = []
    real_load = IndexStore.load

    def load(store: IndexStore, key: str) -> Snapshot:
        loads.append(threading.current_thread().name)
        return real_load(store, key)

    monkeypatch.setattr(IndexStore, "load", load)
    engine = warm_engine(tmp_path)
    engine.preload()
    outcome = engine.build()
    assert outcome.warm
    assert loads == ["saved-index-load"]  # once, in its own thread, not again by build
    assert engine.fingerprint() == cold.fingerprint()


def test_a_preloaded_index_that_is_unusable_falls_back_to_a_cold_build(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    IndexStore(tmp_path).path.write_bytes(b"not an index")
    engine = warm_engine(tmp_path)
    engine.preload()
    notices: list[str] = []
    outcome = engine.build(notice=notices.append)
    assert not outcome.warm
    assert any("rebuilding the index" in n for n in notices)
    assert engine.fingerprint() == cold.fingerprint()


def test_preload_without_a_store_does_nothing(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    engine = Engine.create(tmp_path)
    engine.preload()
    assert not engine.build().warm
    with pytest.raises(StoreInvalid):
        IndexStore(tmp_path).load(engine._config_key())  # nothing was saved either


def test_the_saved_index_answers_before_the_files_are_checked(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    open_with_store(tmp_path)
    write_workspace(tmp_path, {"digest/wiki/new.md": memory("fresh budget\n", tags=["t9"])})
    (tmp_path / "daily/2026-03-02/note.md").unlink()
    engine = warm_engine(tmp_path)
    seen: list[tuple[bool, int, set[str]]] = []

    def loaded() -> None:
        hits = engine.search(SearchQuery(text="budget", limit=50)).hits
        seen.append((engine.is_built, engine.memory_count, {h.path for h in hits}))

    outcome = engine.build(before_scan=loaded)
    ((built, count, paths),) = seen  # called once
    # Searchable, and exactly what was saved: the check for changes comes after.
    assert built and count == len(FILES)
    assert "daily/2026-03-02/note.md" in paths and "digest/wiki/new.md" not in paths
    assert outcome.warm
    assert engine.memory_count == len(FILES)  # one added, one gone
    assert engine.memory("digest/wiki/new.md") is not None
    assert engine.memory("daily/2026-03-02/note.md") is None
    assert engine.fingerprint() == Engine.open(tmp_path).fingerprint()


def test_before_scan_comes_first_on_a_build_from_scratch_too(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    engine = warm_engine(tmp_path)  # nothing saved yet
    calls: list[tuple[bool, int]] = []
    outcome = engine.build(before_scan=lambda: calls.append((engine.is_built, engine.memory_count)))
    assert not outcome.warm
    assert calls == [(False, 0)]  # once, before any file was read
    assert engine.memory_count == len(FILES)


def test_an_update_waits_for_the_check_after_the_restore(tmp_path: Path) -> None:
    """A watcher batch that arrives while the files are checked is applied after the
    check, never into its middle (the check holds the apply lock)."""
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    open_with_store(tmp_path)
    engine = warm_engine(tmp_path)
    release = threading.Event()
    applied = threading.Event()

    def loaded() -> None:
        def apply() -> None:
            engine.apply(["digest/wiki/hub.md"])
            applied.set()

        threading.Thread(target=apply).start()
        assert not applied.wait(0.2)  # blocked behind the check
        release.set()

    engine.build(before_scan=loaded)
    assert release.is_set() and applied.wait(5)


def test_a_restore_builds_the_link_graph_only_when_first_used(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    engine = warm_engine(tmp_path)
    snapshot = IndexStore(tmp_path).load(engine._config_key())
    state = engine._state
    state.restore(snapshot)
    assert state.links._loaded is not None and not state.links._out  # deferred
    assert "digest/wiki/hub.md" in state.links  # the first use builds it
    assert state.links._loaded is None
    assert state.links.snapshot() == cold._state.links.snapshot()
    assert state.tags.file_counts() == cold._state.tags.file_counts()
    assert state.dated == cold._state.dated and state.undated == cold._state.undated


def test_a_link_graph_loaded_then_changed_equals_one_built_file_by_file() -> None:
    from reme_tui.engine.index import LinkGraph
    from reme_tui.engine.records import Link

    files = [
        ("a.md", [Link("b.md", None, None, 1), Link("b.md", "x", None, 2)]),
        ("b.md", [Link("a.md", None, None, 1), Link("gone.md", None, None, 3)]),
        ("c.md", [Link("a.md", "y", None, 1)]),
    ]
    loaded, built = LinkGraph(), LinkGraph()
    loaded.load([(p, tuple(links)) for p, links in files])
    for path, links in files:
        built.set_file(path, links)
    loaded.remove_file("c.md")  # a change before any read builds it first
    built.remove_file("c.md")
    assert loaded.snapshot() == built.snapshot()
    assert loaded.inlinks("a.md") == built.inlinks("a.md")
    assert loaded.dangling_from("b.md") == built.dangling_from("b.md") == ["gone.md"]
