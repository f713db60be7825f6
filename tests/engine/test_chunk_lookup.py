"""A chunk is found through its memory (issue 19: no dict of every chunk by key)."""

from __future__ import annotations

from pathlib import Path

from reme_tui.engine import SearchQuery
from reme_tui.engine.engine import Engine
from tests.helpers import memory, write_workspace


def test_every_chunk_of_a_long_memory_is_found_by_its_start_line(tmp_path: Path) -> None:
    sections = "\n\n".join(f"# Part {i}\n\n" + f"budget line {i} " * 400 for i in range(6))
    write_workspace(tmp_path, {"digest/long.md": memory(sections), "digest/b.md": "budget\n"})
    engine = Engine.open(tmp_path)
    state = engine._state
    chunks = state.memories["digest/long.md"].chunks
    assert len(chunks) > 2 and engine.chunk_count == len(chunks) + 1
    for chunk in chunks:
        assert state.chunk(("digest/long.md", chunk.start_line)) is chunk
    assert state.chunk(("digest/long.md", chunks[0].start_line + 1)) is None
    assert state.chunk(("digest/none.md", 1)) is None
    texts = {c.start_line: c.text for c in chunks}
    for hit in engine.search(SearchQuery("budget", limit=20)).hits:
        if hit.path == "digest/long.md":
            assert hit.text == texts[hit.start_line]
    (tmp_path / "digest/b.md").unlink()
    engine.apply(["digest/b.md"])
    assert engine.chunk_count == len(chunks)
