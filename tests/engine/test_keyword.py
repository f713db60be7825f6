"""BM25 keyword index: checked against rank-bm25 with the SPEC's idf."""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from reme_tui.engine.index import doc_terms, keyword, postings
from reme_tui.engine.index.keyword import DocKey, KeywordIndex


class SpecBM25(BM25Okapi):
    """rank-bm25 with idf = ln(1 + (N - df + 0.5) / (df + 0.5)) (no epsilon floor)."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1.0 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def reference_scores(
    docs: dict[DocKey, Sequence[str]], query: Sequence[str]
) -> dict[DocKey, float]:
    """ReMe semantics via rank-bm25: empty docs not indexed, query deduplicated, score > 0."""
    live = {key: list(tokens) for key, tokens in docs.items() if tokens}
    if not live:
        return {}
    keys = list(live)
    bm25 = SpecBM25([live[key] for key in keys])
    scores = bm25.get_scores(list(dict.fromkeys(query)))
    return {key: float(s) for key, s in zip(keys, scores, strict=True) if s > 0}


def reference_top_k(
    ref: dict[DocKey, float], k: int, allowed: set[str] | None
) -> list[tuple[DocKey, float]]:
    items = [(key, s) for key, s in ref.items() if allowed is None or key[0] in allowed]
    items.sort(key=lambda item: (-item[1], item[0]))
    return items[:k]


def assert_same_scores(got: dict[DocKey, float], want: dict[DocKey, float]) -> None:
    assert set(got) == set(want)
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-6, rel=1e-6), key


def assert_same_ranking(got: list[tuple[DocKey, float]], want: list[tuple[DocKey, float]]) -> None:
    assert len(got) == len(want)
    for (gk, gs), (wk, ws) in zip(got, want, strict=True):
        assert gs == pytest.approx(ws, abs=1e-6, rel=1e-6)
        if gk != wk:
            # Float noise between the two implementations may only swap near-ties.
            assert abs(gs - ws) < 1e-6


# -- property test -------------------------------------------------------------

VOCAB = ["alpha", "beta", "gamma", "delta", "eps", "zeta"]
PATHS = ["a.md", "b.md", "dir/c.md", "d.md"]

tokens_st = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=8)
key_st = st.tuples(st.sampled_from(PATHS), st.integers(min_value=1, max_value=4))
op_st = st.one_of(
    st.tuples(st.just("add"), key_st, tokens_st),
    st.tuples(st.just("remove"), key_st),
    st.tuples(st.just("remove_path"), st.sampled_from(PATHS)),
    st.tuples(
        st.just("replace_path"),
        st.sampled_from(PATHS),
        st.lists(st.tuples(st.integers(min_value=1, max_value=4), tokens_st), max_size=4),
    ),
    st.tuples(st.just("add_many"), st.lists(st.tuples(key_st, tokens_st), max_size=24)),
    st.tuples(st.just("compact")),
)
query_st = st.lists(st.sampled_from([*VOCAB, "unknown"]), min_size=0, max_size=5)


def forget_path(model: dict[DocKey, Any], path: str) -> None:
    """Take every document of ``path`` out of the reference ``model``."""
    for key in [key for key in model if key[0] == path]:
        del model[key]


def apply_ops(index: KeywordIndex, ops: list[tuple], model: dict[DocKey, Sequence[str]]) -> None:
    for op in ops:
        kind = op[0]
        if kind == "add":
            _, key, tokens = op
            index.add(key, tokens)
            model[key] = tokens
        elif kind == "remove":
            _, key = op
            present = bool(model.get(key))
            assert index.remove(key) is present
            model.pop(key, None)
        elif kind == "remove_path":
            _, path = op
            expected = sum(1 for key, toks in model.items() if key[0] == path and toks)
            assert index.remove_path(path) == expected
            forget_path(model, path)
        elif kind == "replace_path":
            _, path, lines = op
            docs = [((path, line), tokens) for line, tokens in lines]
            index.replace_path(path, docs)
            forget_path(model, path)
            for key, tokens in docs:
                model[key] = tokens
        elif kind == "add_many":
            _, docs = op
            index.add_many(docs)
            for key, tokens in docs:
                model[key] = tokens
        else:
            index.compact()
        live = {key for key, tokens in model.items() if tokens}
        assert len(index) == len(live)
        for key in model:
            assert (key in index) == (key in live)


@settings(max_examples=150, deadline=None)
@given(
    ops=st.lists(op_st, max_size=25),
    queries=st.lists(query_st, min_size=1, max_size=4),
    allowed=st.one_of(st.none(), st.sets(st.sampled_from([*PATHS, "nowhere.md"]))),
    k=st.integers(min_value=0, max_value=12),
    min_stale=st.sampled_from([0, 3, 1 << 16]),
)
def test_matches_rank_bm25_after_random_updates(
    ops: list[tuple],
    queries: list[list[str]],
    allowed: set[str] | None,
    k: int,
    min_stale: int,
) -> None:
    index = KeywordIndex(min_stale_to_compact=min_stale)
    model: dict[DocKey, Sequence[str]] = {}
    apply_ops(index, ops, model)
    restored = KeywordIndex.from_state(pickle.loads(pickle.dumps(index.export_state())))
    assert len(restored) == len(index)
    for query in queries:
        want = reference_scores(model, query)
        got = index.score(query)
        assert_same_scores(got, want)
        assert restored.score(query) == got
        want_top = reference_top_k(want, k, allowed)
        top = index.top_k(query, k, allowed)
        assert_same_ranking(top, want_top)
        # Our own scores define the tie order exactly.
        assert top == reference_top_k(got, k, allowed)
        assert restored.top_k(query, k, allowed) == top


# -- plain tests ---------------------------------------------------------------


def test_empty_index() -> None:
    index = KeywordIndex()
    assert len(index) == 0
    assert ("a.md", 1) not in index
    assert index.score(["alpha"]) == {}
    assert index.top_k(["alpha"], 5) == []
    assert index.remove(("a.md", 1)) is False
    assert index.remove_path("a.md") == 0
    restored = KeywordIndex.from_state(index.export_state())
    assert len(restored) == 0
    assert restored.top_k(["alpha"], 5) == []


def test_doc_without_tokens_is_not_indexed_and_replaces() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), [])
    assert len(index) == 0 and ("a.md", 1) not in index
    index.add(("a.md", 1), ["alpha"])
    assert ("a.md", 1) in index
    index.add(("a.md", 1), [])  # replacing with nothing removes it
    assert len(index) == 0
    assert index.score(["alpha"]) == {}


def test_unknown_and_empty_query() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "beta"])
    assert index.score(["nope"]) == {}
    assert index.top_k(["nope"], 3) == []
    assert index.top_k([], 3) == []
    assert index.score(["nope", "alpha"]) == index.score(["alpha"])


def test_term_only_in_removed_doc_matches_nothing() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "beta"])
    index.add(("b.md", 1), ["gamma"])
    index.remove(("a.md", 1))
    assert index.score(["alpha"]) == {}
    assert list(index.score(["gamma"])) == [("b.md", 1)]


def test_known_value() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "alpha", "beta"])
    index.add(("b.md", 1), ["beta"])
    n, avg = 2, 2.0
    idf = math.log(1 + (n - 1 + 0.5) / (1 + 0.5))
    tf, length = 2, 3
    want = idf * tf * 2.5 / (tf + 1.5 * (1 - 0.75 + 0.75 * length / avg))
    # float32 like the reference: equal to float32 precision, and bit-exact to its formula.
    assert index.score(["alpha"]) == {("a.md", 1): pytest.approx(want, rel=1e-6)}
    f32 = np.float32
    denominator = (f32(tf) + f32(0.375)) + f32(1.5 * 0.75 / avg) * f32(length)
    exact = (f32(idf) * f32(tf)) * f32(2.5) / denominator
    assert index.score(["alpha"])[("a.md", 1)] == float(exact)


def test_ties_are_ordered_by_path_then_line() -> None:
    index = KeywordIndex()
    for key in [("b.md", 7), ("a.md", 10), ("b.md", 2), ("a.md", 9), ("c.md", 1)]:
        index.add(key, ["alpha", "beta"])
    index.add(("z.md", 1), ["gamma"])
    top = index.top_k(["alpha"], 10)
    assert [key for key, _ in top] == [
        ("a.md", 9),
        ("a.md", 10),
        ("b.md", 2),
        ("b.md", 7),
        ("c.md", 1),
    ]
    assert len({score for _, score in top}) == 1
    # The cut at k must also respect the tie order.
    assert [key for key, _ in index.top_k(["alpha"], 2)] == [("a.md", 9), ("a.md", 10)]


def test_score_order_beats_key_order() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "beta", "gamma", "delta"])
    index.add(("b.md", 1), ["alpha", "alpha"])
    index.add(("c.md", 1), ["zeta"])
    assert [key for key, _ in index.top_k(["alpha"], 5)] == [("b.md", 1), ("a.md", 1)]


def test_k_larger_than_n_and_nonpositive_k() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha"])
    index.add(("b.md", 1), ["alpha", "beta"])
    index.add(("c.md", 1), ["beta"])
    assert len(index.top_k(["alpha"], 100)) == 2  # only positive scores
    assert index.top_k(["alpha"], 0) == []
    assert index.top_k(["alpha"], -1) == []


def test_allowed_paths_filter_keeps_global_statistics() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "beta"])
    index.add(("a.md", 20), ["alpha"])
    index.add(("b.md", 1), ["alpha", "alpha", "gamma"])
    index.add(("c.md", 1), ["beta", "gamma", "delta"])
    full = dict(index.top_k(["alpha", "gamma"], 10))
    filtered = index.top_k(["alpha", "gamma"], 10, allowed_paths={"a.md", "missing.md"})
    assert [key for key, _ in filtered] == sorted(
        [key for key in full if key[0] == "a.md"], key=lambda key: (-full[key], key)
    )
    for key, score in filtered:
        assert score == full[key]
    assert index.top_k(["alpha"], 10, allowed_paths=set()) == []
    assert index.top_k(["alpha"], 10, allowed_paths=["missing.md"]) == []
    assert index.top_k(["alpha"], 10, allowed_paths=["c.md"]) == []


def test_repeated_query_tokens_count_once() -> None:
    # reme-ai's BM25Index._encode_query deduplicates query tokens (dict.fromkeys),
    # unlike rank-bm25's get_scores, which would add a repeated term twice.
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha", "beta"])
    index.add(("b.md", 1), ["beta", "gamma"])
    assert index.score(["alpha", "alpha", "beta", "alpha"]) == index.score(["alpha", "beta"])
    assert index.top_k(["beta", "beta"], 5) == index.top_k(["beta"], 5)


def test_remove_path_and_replace_path() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha"])
    index.add(("a.md", 5), ["beta"])
    index.add(("a.md", 9), [])
    index.add(("b.md", 1), ["alpha"])
    assert index.remove_path("a.md") == 2
    assert len(index) == 1
    index.replace_path("b.md", [(("b.md", 3), ["gamma"]), (("b.md", 8), ["alpha", "gamma"])])
    assert ("b.md", 1) not in index
    assert set(index.score(["gamma"])) == {("b.md", 3), ("b.md", 8)}
    with pytest.raises(ValueError):
        index.replace_path("b.md", [(("other.md", 1), ["alpha"])])


@pytest.mark.parametrize(
    ("batch_tokens", "overlay_terms", "max_pending", "bulk_min_tokens", "to_overlay"),
    [
        (1 << 21, 1 << 15, 16, 1 << 16, 8),
        (37, 1 << 15, 16, 1 << 16, 8),
        (37, 2, 2, 10, 8),
        (37, 1 << 30, 1 << 30, 1 << 16, 8),
        (37, 1 << 15, 16, 10, 1),
        (37, 1 << 15, 16, 10, 1 << 30),
    ],
    ids=[
        "one batch",
        "small batches",
        "folds all the time, few docs go bulk",
        "overlay and pending batches never folded by size",
        "pending batches move into the overlay",
        "pending batches always fold",
    ],
)
def test_bulk_build_and_churn_match_reference(
    batch_tokens: int,
    overlay_terms: int,
    max_pending: int,
    bulk_min_tokens: int,
    to_overlay: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(postings, "PENDING_TO_OVERLAY_SHARE", to_overlay)
    monkeypatch.setattr(keyword, "_BULK_BATCH_TOKENS", batch_tokens)
    monkeypatch.setattr(postings, "OVERLAY_TERMS", overlay_terms)  # when the overlay folds
    monkeypatch.setattr(postings, "MAX_PENDING", max_pending)  # ... and pending batches
    monkeypatch.setattr(postings, "PENDING_SHARE", 1 if max_pending < 1 << 30 else 1 << 30)
    monkeypatch.setattr(keyword, "_BULK_MIN_TOKENS", bulk_min_tokens)  # one huge memory
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(60)]
    weights = [1 / (i + 1) for i in range(60)]
    model: dict[DocKey, list[str]] = {}
    docs = []
    for p in range(40):
        for line in (1, 30, 60):
            n = rng.randrange(0, 25)
            docs.append(((f"p{p}.md", line), rng.choices(vocab, weights, k=n)))
    index = KeywordIndex(min_stale_to_compact=50)
    index.add_many(docs[:60])  # bulk path into an empty index
    index.add_many(docs[60:])  # bulk path appending to existing postings
    index.add_many(docs[:30])  # bulk re-add of present keys
    model.update(docs)
    for step in range(200):
        path = f"p{rng.randrange(40)}.md"
        if step % 3 == 0:
            index.remove_path(path)
            forget_path(model, path)
        else:
            new = [
                ((path, line), rng.choices(vocab, weights, k=rng.randrange(0, 25)))
                for line in (1, 2)
            ]
            index.replace_path(path, new)
            forget_path(model, path)
            model.update(new)
    for _ in range(20):
        query = rng.choices(vocab, k=rng.randrange(1, 5))
        want = reference_scores(model, query)
        assert_same_scores(index.score(query), want)
        assert_same_ranking(index.top_k(query, 10), reference_top_k(want, 10, None))
    state = index.export_state()
    restored = KeywordIndex.from_state(state)
    assert restored.export_state()["terms"] == state["terms"]
    assert restored.score(["w0", "w5"]) == index.score(["w0", "w5"])


def test_from_state_rejects_bad_state() -> None:
    index = KeywordIndex()
    index.add(("a.md", 1), ["alpha"])
    state = index.export_state()
    with pytest.raises(ValueError):
        KeywordIndex.from_state({**state, "version": 999})
    with pytest.raises(ValueError):
        KeywordIndex.from_state({**state, "indptr": state["indptr"][:1]})


@settings(max_examples=60, deadline=None)
@given(
    docs=st.lists(
        st.lists(st.sampled_from(["ab", "cd", "ef", "gh", "ij", "kl"]), max_size=8), max_size=6
    ),
    query=st.lists(st.sampled_from(["ab", "cd", "ef", "zz"]), min_size=1, max_size=4),
    removed=st.integers(min_value=0, max_value=6),
)
def test_terms_in_is_the_query_tokens_each_document_holds(
    docs: list[list[str]], query: list[str], removed: int
) -> None:
    index = KeywordIndex()
    keyed = {(f"p{i % 3}.md", i): tokens for i, tokens in enumerate(docs)}
    for key, tokens in keyed.items():
        index.add(key, tokens)
    gone = [key for key in keyed if key[1] == removed]
    for key in gone:
        index.remove(key)
    restored = KeywordIndex.from_state(index.export_state())
    for key, tokens in keyed.items():
        expected = () if key in gone else tuple(t for t in dict.fromkeys(query) if t in tokens)
        assert index.terms_in(key, query) == expected
        assert restored.terms_in(key, query) == expected
    assert index.terms_in(("nowhere.md", 1), query) == ()


@settings(max_examples=100, deadline=None)
@given(
    before=st.lists(op_st, max_size=15),
    after=st.lists(op_st, min_size=1, max_size=15),
    queries=st.lists(query_st, min_size=1, max_size=3),
    block=st.sampled_from([1, 3, 1 << 16]),  # postings grouped by document per block
)
def test_a_restored_index_groups_its_terms_by_document_only_when_first_needed(
    before: list[tuple], after: list[tuple], queries: list[list[str]], block: int
) -> None:
    """A restore defers the per-document term lists (issue 19: most of a 50k warm start's
    keyword restore); the first update derives them, a few terms' postings at a time, and
    it then behaves as the original."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keyword, "_DOC_TERMS_BLOCK", block)
        index = KeywordIndex()
        model: dict[DocKey, Sequence[str]] = {}
        apply_ops(index, before, model)
        restored = KeywordIndex.from_state(index.export_state())
        assert restored._loaded_postings is not None  # not derived by the restore
        apply_ops(restored, after, dict(model))
        apply_ops(index, after, model)
        for query in queries:
            assert restored.score(query) == index.score(query)
            for key in model:
                assert restored.terms_in(key, query) == index.terms_in(key, query)


@pytest.mark.parametrize("block", [5, 1 << 16])  # postings compacted and saved per block
@pytest.mark.parametrize("min_stale", [1 << 16, 40])
def test_packed_term_ids_follow_churn(
    monkeypatch: pytest.MonkeyPatch, min_stale: int, block: int
) -> None:
    """Documents' term ids packed into one flat array every few updates (and compacted, or
    not) still say what each document holds and take it out exactly."""
    monkeypatch.setattr(doc_terms, "PACK_MIN", 3)
    monkeypatch.setattr(keyword, "_DOC_TERMS_BLOCK", block)
    rng = random.Random(11)
    vocab = [f"w{i}" for i in range(30)]
    index = KeywordIndex(min_stale_to_compact=min_stale)
    model: dict[DocKey, list[str]] = {}
    for step in range(300):
        path = f"p{rng.randrange(25)}.md"
        if step % 4 == 0:
            index.remove_path(path)
            forget_path(model, path)
            continue
        new = [((path, line), rng.choices(vocab, k=rng.randrange(0, 6))) for line in (1, 9)]
        index.replace_path(path, new)
        forget_path(model, path)
        model.update(new)
        if step % 50 == 0:
            index = KeywordIndex.from_state(index.export_state())
    for _ in range(20):
        query = rng.choices(vocab, k=3)
        assert_same_scores(index.score(query), reference_scores(model, query))
        for key, tokens in model.items():
            expected = tuple(t for t in dict.fromkeys(query) if t in tokens)
            assert index.terms_in(key, query) == expected


@pytest.mark.parametrize("top", [3, 255, 256, 65_535, 65_536])
def test_term_frequencies_of_any_size_score_the_same(top: int) -> None:
    """The base keeps term frequencies in the narrowest type that holds them; a chunk
    holding a term more often than that type allows must widen it, never wrap."""
    docs = {
        ("a.md", 1): ["alpha"] * top + ["beta"],
        ("b.md", 1): ["alpha", "beta", "beta"],
        ("c.md", 1): ["gamma"] * 7,
    }
    index = KeywordIndex()
    index.add_many(list(docs.items()))
    for built in (index, KeywordIndex.from_state(index.export_state())):
        for query in (["alpha"], ["beta", "alpha"], ["gamma", "alpha"]):
            assert_same_scores(built.score(query), reference_scores(docs, query))
        explained = built.explain(("a.md", 1), ["alpha"])
        assert explained is not None and explained.terms[0].tf == top
    index.add(("d.md", 1), ["alpha"] * (top + 1))  # the overlay, then a fold
    index.compact()
    docs[("d.md", 1)] = ["alpha"] * (top + 1)
    assert_same_scores(index.score(["alpha"]), reference_scores(docs, ["alpha"]))


def _same_state(a: dict[str, object], b: dict[str, object]) -> None:
    assert a.keys() == b.keys()
    for key, value in a.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(value, cast(np.ndarray, b[key])), key
        else:
            assert value == b[key], key


@pytest.mark.parametrize("block", [3, 1 << 16])  # live postings picked a block at a time
@pytest.mark.parametrize("bulk_min_tokens", [1 << 16, 10], ids=["overlay", "pending batches"])
def test_a_state_exported_later_is_the_state_when_it_was_captured(
    bulk_min_tokens: int, block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save captures the index under the lock and works the state out after it (at
    50,000 memories the whole export held the lock 0.5-3 s): updates made in between
    must not show in it."""
    monkeypatch.setattr(keyword, "_BULK_MIN_TOKENS", bulk_min_tokens)
    monkeypatch.setattr(keyword, "_DOC_TERMS_BLOCK", block)
    rng = random.Random(3)
    vocab = [f"w{i}" for i in range(40)]
    index = KeywordIndex(min_stale_to_compact=20)
    index.add_many([((f"p{p}.md", 1), rng.choices(vocab, k=12)) for p in range(30)])
    for p in range(10):  # an overlay (or pending batches) and stale postings
        index.replace_path(f"p{p}.md", [((f"p{p}.md", 1), rng.choices(vocab, k=15))])
    now = index.export_state()
    later = index.export_later()
    for step in range(60):  # churn, folds and compactions after the capture
        path = f"p{rng.randrange(40)}.md"
        if step % 4 == 0:
            index.remove_path(path)
        else:
            index.replace_path(path, [((path, 1), rng.choices([*vocab, "new"], k=20))])
    _same_state(later(), now)
    _same_state(KeywordIndex.from_state(later()).export_state(), now)
