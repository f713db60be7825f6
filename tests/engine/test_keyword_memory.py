"""A memory of many distinct words costs the keyword index bytes a term, not arrays a term.

Issue 23: a 19 MB line of ~1M distinct random words took ~400 MB in the posting lists
alone (two numpy arrays a term, ~230 bytes of headers each before any data), over the
500 MB target for one hostile file. Measured with tracemalloc (allocation sizes are
deterministic), per distinct term, with the token strings allocated before tracing.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from reme_tui.engine.index import postings
from reme_tui.engine.index.keyword import KeywordIndex

TERMS = 60_000
CHUNK_TOKENS = 550  # ~10 KB chunks of ~18-character words, as the chunker cuts them
# The vocabulary's dict and list, document frequencies, flat postings and each chunk's
# term ids come to ~90 bytes a term; two arrays a term were over 300.
MAX_BYTES_PER_TERM = 150


def _hostile_docs() -> list[tuple[tuple[str, int], list[str]]]:
    words = [f"w{i:016x}" for i in range(TERMS)]
    docs = [
        (("digest/hostile.md", 1 + i), words[i : i + CHUNK_TOKENS])
        for i in range(0, TERMS, CHUNK_TOKENS)
    ]
    docs += [((f"daily/2026-01-01/m{i}.md", 1), ["alpha", "beta", f"own{i}"]) for i in range(50)]
    return docs


def _bytes_per_term(build: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept is not None
    return (after - before) / TERMS


def test_a_built_index_costs_bytes_per_term() -> None:
    docs = _hostile_docs()

    def build() -> KeywordIndex:
        index = KeywordIndex()
        index.add_many(docs)
        return index

    assert _bytes_per_term(build) < MAX_BYTES_PER_TERM


def test_a_loaded_index_costs_bytes_per_term() -> None:
    index = KeywordIndex()
    index.add_many(_hostile_docs())
    state = index.export_state()
    del index
    assert _bytes_per_term(lambda: KeywordIndex.from_state(state)) < MAX_BYTES_PER_TERM


def test_many_single_document_updates_stay_compact(monkeypatch: pytest.MonkeyPatch) -> None:
    """One-document updates go to the overlay, which folds into the flat arrays before it
    holds more than OVERLAY_TERMS terms (~400 bytes each: a bounded few MB by default)."""
    monkeypatch.setattr(postings, "OVERLAY_TERMS", 1_000)
    docs = _hostile_docs()
    small = [docs[i : i + 1] for i in range(len(docs))]  # below the bulk threshold

    def build() -> KeywordIndex:
        index = KeywordIndex()
        for one in small:
            index.add_many(one)
        return index

    assert _bytes_per_term(build) < MAX_BYTES_PER_TERM


# -- per document (issue 19: the app's memory at 50,000 memories) -----------------------

DOCS = 20_000


def _one_chunk_paths() -> list[tuple[tuple[str, int], list[str]]]:
    return [((f"daily/2026-01-01/n{i:05d}.md", 1), ["budget", f"t{i % 500}"]) for i in range(DOCS)]


def test_a_loaded_index_costs_bytes_a_document_not_an_array_and_a_set() -> None:
    """A document's term ids live in one flat array (an array each was 112 bytes of header)
    and a path of one chunk keeps its slot as an int (a set of one was 216 bytes)."""
    index = KeywordIndex()
    index.add_many(_one_chunk_paths())
    state = index.export_state()
    del index
    held = _bytes_per_term(lambda: KeywordIndex.from_state(state)) * TERMS / DOCS
    assert held < 380  # bytes a document: 255 here, 583 before


def test_exporting_a_compact_index_makes_few_posting_sized_arrays() -> None:
    """A save exports the keyword state while the live index is held: at 50,000 memories
    each posting-sized array is ~34 MB, and exporting made seven of them."""
    vocab = [f"w{i}" for i in range(1_000)]
    docs = [((f"d{i}.md", 1), vocab[(7 * i) % 700 :][:300]) for i in range(2_000)]
    index = KeywordIndex()
    index.add_many(docs)
    index = KeywordIndex.from_state(index.export_state())  # compact: no stale postings
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        state = index.export_state()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    postings_bytes = state["indices"].nbytes
    assert postings_bytes > 1_000_000
    assert peak / postings_bytes < 3.5  # 1.4 here, 6.3 before


def test_a_loaded_index_keeps_term_frequencies_in_a_byte() -> None:
    """Term frequencies below 256 take one byte each in the loaded postings, not four."""
    vocab = [f"w{i}" for i in range(1_000)]
    docs = [((f"d{i}.md", 1), vocab[(7 * i) % 700 :][:300]) for i in range(2_000)]
    index = KeywordIndex()
    index.add_many(docs)
    state = index.export_state()
    del index
    postings_count = state["indices"].shape[0]

    def load() -> KeywordIndex:  # from arrays of its own, as a saved index just decoded
        decoded = {**state, "indices": state["indices"].copy(), "tfs": state["tfs"].copy()}
        return KeywordIndex.from_state(decoded)

    held = _bytes_per_term(load) * TERMS
    # A posting's slot (4 bytes) and its tf (the documents' term ids wait for first use).
    assert held / postings_count < 6.5  # 5.7 here, 8.7 with int32 tfs
