"""A worker's batch sends each distinct token once (issue 19): every occurrence arrived as a
string of its own, unpickled among the records that stay and freed a batch later."""

from __future__ import annotations

import pickle
import tracemalloc
from pathlib import Path

from reme_tui.engine.files import FoundFile
from reme_tui.engine.index import loader
from reme_tui.engine.parse import DEFAULT_MAX_FILE_BYTES
from reme_tui.engine.tags import DEFAULT_TAG_FIELD

FILES = 40
WORDS = ["budget", "review", "launch", "vendor", "deadline", "meeting", "risk", "quarter"]


def _items(root: Path) -> list[FoundFile]:
    items = []
    for i in range(FILES):
        path = root / f"n{i}.md"
        path.write_text(f"# Note {i}\n\n" + " ".join(WORDS[(i + j) % 8] for j in range(400)))
        items.append(FoundFile(path.name, path))
    return items


def _held_after_loads(sent: bytes) -> tuple[int, list[loader.Loaded]]:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        received = pickle.loads(sent)
        return tracemalloc.get_traced_memory()[0] - before, received
    finally:
        tracemalloc.stop()


def test_a_batch_sends_each_distinct_token_once(tmp_path: Path) -> None:
    items = _items(tmp_path)
    one_by_one = [loader.load_one(i, DEFAULT_TAG_FIELD, DEFAULT_MAX_FILE_BYTES) for i in items]
    batch = loader._load_batch(items, DEFAULT_TAG_FIELD, DEFAULT_MAX_FILE_BYTES)
    held, received = _held_after_loads(pickle.dumps(batch))
    held_unshared, _ = _held_after_loads(pickle.dumps(one_by_one))
    assert [r.tokens for r in received] == [e.tokens for e in one_by_one]
    tokens = sum(len(t) for r in received for t in r.tokens)
    assert tokens > 15_000
    distinct = {id(token) for r in received for t in r.tokens for token in t}
    assert len(distinct) < 50  # 8 words, "note" and the note numbers: one string each
    # Received, a token costs a list slot, not a string (~60 bytes) of its own.
    assert (held_unshared - held) / tokens > 40


def test_rereads_held_for_an_update_share_their_tokens(tmp_path: Path) -> None:
    """A burst's rereads are all held until the update lands (3,000 files: ~1.5 million
    token strings, which pinned ~100 MB after the burst was in)."""
    items = _items(tmp_path)
    rereads = loader.reread_many(
        [(item, None) for item in items], DEFAULT_TAG_FIELD, DEFAULT_MAX_FILE_BYTES, str(tmp_path)
    )
    one_by_one = [loader.load_one(i, DEFAULT_TAG_FIELD, DEFAULT_MAX_FILE_BYTES) for i in items]
    assert [r.tokens for r in rereads if r is not None] == [e.tokens for e in one_by_one]
    distinct = {id(token) for r in rereads if r is not None for t in r.tokens for token in t}
    assert len(distinct) < 50
