"""Records share their repeated strings once indexed (issue 19: memory at 50k memories).

A saved index decoded, or files parsed in worker processes, gave every record its own
copy of the strings many records repeat: a chunk's path, tags and their spellings,
dates, link targets, frontmatter values. Checked by identity (what the sharing does) and
by the bytes a decoded memory costs (what it is for)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from reme_tui.engine.engine import Engine, EngineConfig
from reme_tui.engine.index import store
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.records import Memory
from tests.helpers import memory, write_workspace

N = 300


PATHS = [f"daily/2026-03-0{i % 9 + 1}/n{i:03d}.md" for i in range(N)]


def _workspace(root: Path) -> None:
    files = {
        path: memory(
            f"budget note {i} [[{PATHS[(i + 1) % N]}]]\n",
            name=f"Note {i}",
            tags=[f"company_{i % 7}", "shared_tag"],
        )
        for i, path in enumerate(PATHS)
    }
    write_workspace(root, files)


def _assert_shared(memories: dict[str, Memory]) -> None:
    tags: dict[str, str] = {}
    for path, m in memories.items():
        assert m.path is path
        assert all(c.path is m.path for c in m.chunks)
        for tag in m.tags:
            assert tags.setdefault(tag, tag) is tag
        for tag, spelling in m.tag_spellings:
            assert tags.setdefault(tag, tag) is tag
            assert tags.setdefault(spelling, spelling) is spelling
        for link in m.links:
            assert link.target is memories[link.target].path
        assert m.frontmatter["name"] is m.name and m.frontmatter["description"] is m.description
        assert all(tags[t] is t for t in m.frontmatter["memory_tags"])
    dates = {m.date for m in memories.values()}
    assert len({id(m.date) for m in memories.values()}) == len(dates)


def test_a_warm_start_shares_what_the_saved_index_repeats(tmp_path: Path) -> None:
    _workspace(tmp_path)
    Engine.open(tmp_path, EngineConfig(), store=IndexStore(tmp_path))
    warm = Engine.open(tmp_path, EngineConfig(), store=IndexStore(tmp_path))
    _assert_shared(warm._state.memories)


def test_a_cold_build_and_an_update_share_too(tmp_path: Path) -> None:
    _workspace(tmp_path)
    engine = Engine.open(tmp_path)
    _assert_shared(engine._state.memories)
    write_workspace(tmp_path, {PATHS[0]: memory(f"new [[{PATHS[1]}]]\n", tags=["shared_tag"])})
    engine.apply([tmp_path / PATHS[0]])
    _assert_shared(engine._state.memories)


def test_a_decoded_memory_costs_no_copies(tmp_path: Path) -> None:
    """Each repeated string decoded once: the bytes a memory costs as loaded."""
    _workspace(tmp_path)
    Engine.open(tmp_path, EngineConfig(), store=IndexStore(tmp_path))
    payload = IndexStore(tmp_path)._read()[store._HEADER_BYTES :]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        snapshot = store._loads(payload)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(snapshot.memories) == N
    assert held / N < 1800  # bytes a memory: 1,423 here, 2,374 with every copy
