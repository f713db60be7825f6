"""Hostile workspaces keep the engine healthy, equal to a rebuild, and explained.

For every case of `tests.hostile`: the engine opens (cold, warm from its saved index, and
incrementally through `apply` as a watcher would drive it), search / list_tags /
diagnostics work, the index equals a fresh rebuild, and the user sees a diagnostic where
something was skipped.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine, WorkspaceError
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace
from tests.hostile import CASES, WIDE_FILES, HostileCase, build_wide, wide_rel


def diagnostic_pairs(engine: Engine) -> set[tuple[str, str]]:
    return {(d.path, d.code) for d in engine.diagnostics()}


def assert_healthy(engine: Engine, case: HostileCase, *, settled: bool = False) -> None:
    paths = set(engine.paths())
    assert case.indexed <= paths, case.indexed - paths
    assert not (case.not_indexed & paths), case.not_indexed & paths
    hits = {h.path for h in engine.search(SearchQuery(text=case.word, limit=200)).hits}
    assert case.indexed <= hits, case.indexed - hits
    assert not (case.not_indexed & hits)
    engine.list_tags()
    engine.list_tags("tag", "asc")
    expected = case.diagnostics if not settled else set()
    missing = expected - diagnostic_pairs(engine)
    assert not missing, f"expected diagnostics not shown: {missing}"
    for path, tags in case.tags.items():
        assert engine.tags_of(path) == tags, path
    for path in paths:
        engine.neighbours(path)
        assert engine.memory(path) is not None


def all_entries(root: Path) -> list[str]:
    """Every file, symlink and directory below root as a watcher would report them."""
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        for name in [*dirnames, *filenames]:
            out.append(name if rel_dir == "." else f"{rel_dir}/{name}")
    return sorted(out)


@pytest.fixture(params=CASES, ids=[c.name for c in CASES])
def case(request: pytest.FixtureRequest) -> HostileCase:
    return request.param


def test_cold_and_warm_open_are_healthy_and_equal_a_rebuild(
    case: HostileCase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    case.build(root)
    with monkeypatch.context() as faults:
        if case.patch is not None:
            case.patch(root, faults)
        engine = Engine.open(root, store=IndexStore(root))
        assert_healthy(engine, case)
        if not case.settled_by_apply:  # a standing fault: a rebuild meets it too
            assert engine.fingerprint() == Engine.open(root).fingerprint()
            warm = Engine.open(root, store=IndexStore(root))
            assert warm.fingerprint() == engine.fingerprint()
            assert diagnostic_pairs(warm) == diagnostic_pairs(engine)
    if case.settled_by_apply:  # a one-off race: the watcher's events settle it
        delta = engine.apply(case.settled_by_apply)
        assert not delta.workspace_missing
        assert engine.fingerprint() == Engine.open(root).fingerprint()
        assert_healthy(engine, case, settled=True)
        assert not {d for d in engine.diagnostics() if d.code == "vanished"}
        warm = Engine.open(root, store=IndexStore(root))
        assert warm.fingerprint() == engine.fingerprint()


def test_applying_the_hostile_files_equals_a_rebuild(
    case: HostileCase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start from an empty workspace, then let `apply` meet the hostile entries: one by one
    (every file, link and folder reported) and as whole folders (a moved-in tree)."""
    root = tmp_path / "ws"
    root.mkdir()
    by_entry = Engine.open(root)
    by_folder = Engine.open(root)
    case.build(root)
    with monkeypatch.context() as faults:
        if case.patch is not None:
            case.patch(root, faults)
        by_entry.apply(all_entries(root))
    with monkeypatch.context() as faults:
        if case.patch is not None and not case.settled_by_apply:
            case.patch(root, faults)
        by_folder.apply(["digest", "daily"])
        if case.settled_by_apply:
            by_entry.apply(case.settled_by_apply)
        rebuilt = Engine.open(root).fingerprint()
    assert by_entry.fingerprint() == rebuilt
    assert by_folder.fingerprint() == rebuilt


def test_ten_thousand_files_in_one_directory(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    build_wide(root)
    engine = Engine.open(root, store=IndexStore(root))
    assert engine.memory_count == WIDE_FILES
    assert {h.path for h in engine.search(SearchQuery(text="w4321")).hits} == {wide_rel(4321)}
    assert dict(engine.list_tags())["t0"] == (WIDE_FILES + 6) // 7
    # A change to one file among 10,000 is picked up by apply and by the next warm open,
    # which re-reads from disk what it cannot trust (so it stands in for a rebuild).
    write_workspace(root, {wide_rel(17): memory("rewritten budget zebra\n", tags=["zebra"])})
    (root / wide_rel(18)).unlink()
    delta = engine.apply([wide_rel(17), wide_rel(18)])
    assert delta.changed == [wide_rel(17)] and delta.removed == [wide_rel(18)]
    assert delta.tags_moved == {"zebra", "t3", "t4"}
    warm = Engine.open(root, store=IndexStore(root))
    assert warm.fingerprint() == engine.fingerprint()
    assert {h.path for h in warm.search(SearchQuery(text="zebra")).hits} == {wide_rel(17)}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads chmod 000 files anyway")
def test_real_chmod_000_file_and_directory(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_workspace(
        root,
        {
            "digest/ok.md": memory("budget ok\n"),
            "digest/locked.md": memory("budget locked\n"),
            "digest/closed/inner.md": memory("budget inner\n"),
        },
    )
    (root / "digest/locked.md").chmod(0)
    (root / "digest/closed").chmod(0)
    try:
        engine = Engine.open(root, store=IndexStore(root))
        assert engine.paths() == ["digest/ok.md"]
        pairs = diagnostic_pairs(engine)
        assert ("digest/locked.md", "unreadable") in pairs
        assert ("digest/closed", "unreadable-dir") in pairs
        assert engine.fingerprint() == Engine.open(root).fingerprint()
        (root / "digest/locked.md").chmod(0o644)
        (root / "digest/closed").chmod(0o755)
        engine.apply(["digest/locked.md", "digest/closed"])
        assert engine.paths() == ["digest/closed/inner.md", "digest/locked.md", "digest/ok.md"]
        assert engine.fingerprint() == Engine.open(root).fingerprint()
    finally:
        (root / "digest/locked.md").chmod(0o644)
        (root / "digest/closed").chmod(0o755)


# -- the workspace itself goes away --------------------------------------------------------


def open_sample(tmp_path: Path) -> tuple[Path, Engine]:
    root = tmp_path / "ws"
    write_workspace(
        root,
        {
            "digest/a.md": memory("budget alpha [[digest/b.md]]\n", tags=["alice"]),
            "digest/b.md": memory("budget beta\n", tags=["bob"]),
        },
    )
    return root, Engine.open(root, store=IndexStore(root))


def assert_still_answers(engine: Engine) -> None:
    assert {h.path for h in engine.search(SearchQuery(text="budget")).hits} == {
        "digest/a.md",
        "digest/b.md",
    }
    assert engine.list_tags() == [("alice", 1), ("bob", 1)]
    engine.diagnostics()
    engine.neighbours("digest/a.md")
    engine.browse()


@pytest.mark.parametrize("how", ["deleted", "renamed", "replaced-by-file", "swapped"])
def test_workspace_gone_while_open(tmp_path: Path, how: str) -> None:
    root, engine = open_sample(tmp_path)
    if how == "deleted":
        shutil.rmtree(root)
    elif how == "renamed":
        root.rename(tmp_path / "moved")
    elif how == "replaced-by-file":
        shutil.rmtree(root)
        root.write_text("not a directory\n")
    else:  # moved away and another folder put in its place (a watcher follows the old one)
        root.rename(tmp_path / "moved")
        write_workspace(root, {"digest/other.md": memory("budget other\n")})
    for changes in (["digest/a.md"], [root / "digest"], [root], ["digest/new.md", "digest"]):
        delta = engine.apply(changes)
        assert delta.workspace_missing and delta.is_empty
    assert_still_answers(engine)  # the last good index stays readable
    engine.save()  # the store lives in the cache dir: saving does not need the workspace
    if how != "swapped":
        with pytest.raises(WorkspaceError):
            Engine.open(root)
    if how == "renamed":  # moved back: business as usual
        (tmp_path / "moved").rename(root)
        write_workspace(root, {"digest/c.md": memory("budget gamma\n")})
        delta = engine.apply(["digest/c.md"])
        assert delta.added == ["digest/c.md"] and not delta.workspace_missing
        assert engine.fingerprint() == Engine.open(root).fingerprint()


def test_memory_roots_deleted_while_open(tmp_path: Path) -> None:
    root, engine = open_sample(tmp_path)
    shutil.rmtree(root / "digest")
    delta = engine.apply(["digest"])
    assert sorted(delta.removed) == ["digest/a.md", "digest/b.md"]
    assert delta.tags_moved == {"alice", "bob"} and not delta.workspace_missing
    assert engine.fingerprint() == Engine.open(root).fingerprint()
