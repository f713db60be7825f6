"""A save streams the saved index to its file (issue 19: the app's peak at 50k memories
was the live index plus the whole encoded payload, ~256 MB of it)."""

from __future__ import annotations

import random
import string
import tracemalloc
from pathlib import Path

import msgspec
import numpy as np
import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import store
from reme_tui.engine.index.store import IndexStore
from tests.helpers import memory, write_workspace


def _engine(root: Path, count: int, body_bytes: int = 40) -> Engine:
    # Words drawn at random from a vocabulary, so the texts stay near their size once packed.
    rng = random.Random(7)
    words = ["".join(rng.choices(string.ascii_lowercase, k=6)) for _ in range(2_000)]

    def filler() -> str:
        return " ".join(rng.choices(words, k=body_bytes // 7 + 1))

    write_workspace(
        root,
        {
            f"daily/2026-03-01/n{i:04d}.md": memory(f"{filler()} {i}\n", tags=[f"t{i % 5}"])
            for i in range(count)
        },
    )
    return Engine.open(root)


@pytest.mark.parametrize("length", [0, 1, 15, 16, 65_535, 65_536])
def test_array_headers_are_msgspecs(length: int) -> None:
    header = store._array_header(length)
    assert msgspec.msgpack.encode([None] * length)[: len(header)] == header


@pytest.mark.parametrize("length", [0, 1, 2, 3, 4, 8, 16, 17, 255, 256, 65_535, 65_536])
def test_extension_and_map_headers_are_msgspecs(length: int) -> None:
    ext = store._ext_header(1, length)
    assert msgspec.msgpack.encode(msgspec.msgpack.Ext(1, b"x" * length))[: len(ext)] == ext
    head = store._map_header(length)
    assert msgspec.msgpack.encode({str(i): 0 for i in range(length)})[: len(head)] == head


def test_arrays_stream_as_views_of_their_memory_and_encode_as_whole() -> None:
    postings = np.arange(100_000, dtype=np.int32)
    state = {"indices": postings, "nested": {"tfs": postings[::2].astype(np.uint8)}, "k": 1.5}
    parts = list(store._encoded_state(state))
    views = [p for p in parts if isinstance(p, memoryview)]
    assert any(np.shares_memory(np.frombuffer(v, np.int32), postings) for v in views)
    assert b"".join(parts) == store._ENCODER.encode(state)


@pytest.mark.parametrize("count", [0, 3, 16, 40])
def test_a_streamed_payload_is_the_whole_payload_encoded(
    tmp_path: Path, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "_SAVE_PART_BYTES", 200)
    snapshot = _engine(tmp_path, count)._state.snapshot("key", 123)
    whole = store._ENCODER.encode(
        store._Payload(
            snapshot.config_key,
            snapshot.saved_at_ns,
            snapshot.memories,
            snapshot.keyword_state,
            snapshot.extras,
        )
    )
    assert store._dumps(snapshot) == whole


def test_a_save_never_holds_the_whole_payload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "_SAVE_PART_BYTES", 1 << 18)
    engine = _engine(tmp_path / "ws", 1_500, body_bytes=3_000)
    target = IndexStore(engine.root, cache_dir=tmp_path / "cache")
    snapshot = engine._state.snapshot("key", 123)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert target.save(snapshot)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    size = target.path.stat().st_size
    assert size > 4_000_000
    assert peak < size / 4  # ~1 MB of a 5.3 MB file; the whole payload at once was > size
    assert target.load("key").memories == snapshot.memories
