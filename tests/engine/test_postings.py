"""The flat posting tiers against a plain model: every term's list in slot order, whatever
mix of one-document appends, batches and folds built it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.index import postings
from reme_tui.engine.index.postings import Postings

TERMS = 12

# One step: a document's postings (term -> tf) added one posting at a time (False) or as
# a sorted batch (True), or a fold.
step = st.one_of(
    st.tuples(
        st.booleans(),
        st.dictionaries(st.integers(0, TERMS - 1), st.integers(1, 300), min_size=1),
    ),
    st.just("fold"),
)


def lists_of(tiers: Postings) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for tid in range(TERMS):
        pairs = [
            (int(s), int(f))
            for slots, tfs in tiers.segments(tid)
            for s, f in zip(slots, tfs, strict=True)
        ]
        if pairs:
            out[tid] = pairs
    return out


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(step, max_size=40),
    share=st.sampled_from([1, 8, 1 << 30]),
    overlay_terms=st.sampled_from([3, 1 << 15]),
    scatter_block=st.sampled_from([2, 1 << 18]),  # a fold places postings in blocks
)
def test_every_list_stays_in_slot_order(
    steps: list[object], share: int, overlay_terms: int, scatter_block: int
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(postings, "PENDING_TO_OVERLAY_SHARE", share)
        patch.setattr(postings, "OVERLAY_TERMS", overlay_terms)
        patch.setattr(postings, "_SCATTER_BLOCK", scatter_block)
        tiers = Postings()
        model: dict[int, list[tuple[int, int]]] = {}
        for slot, item in enumerate(steps):
            if item == "fold":
                tiers.fold()
                continue
            assert isinstance(item, tuple)
            as_batch, doc = item
            for tid, tf in sorted(doc.items()):
                model.setdefault(tid, []).append((slot, tf))
            if as_batch:
                tids = np.array(sorted(doc), dtype=np.int32)
                tiers.append_sorted(
                    tids,
                    np.full(len(doc), slot, dtype=np.int32),
                    np.array([doc[t] for t in sorted(doc)], dtype=np.int32),
                )
            else:
                for tid, tf in doc.items():
                    tiers.append(tid, slot, tf)
            tiers.settle()
        assert lists_of(tiers) == model
        tiers.fold()
        assert lists_of(tiers) == model


def test_a_small_batch_moves_into_the_overlay_without_a_fold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first one-document update after a batch of many used to fold every posting
    into the base: 0.4-1.6 s under the index lock at 50,000 memories (issue 19)."""
    tiers = Postings()
    tiers.load(
        np.arange(0, 801, 100, dtype=np.int64),  # 8 terms, 100 postings each
        np.tile(np.arange(100, dtype=np.int32), 8),
        np.ones(800, dtype=np.int32),
    )
    base = tiers._slots
    tiers.append_sorted(
        np.array([1, 1, 5], dtype=np.int32),
        np.array([100, 101, 100], dtype=np.int32),
        np.array([2, 3, 4], dtype=np.int32),
    )
    folds: list[int] = []
    monkeypatch.setattr(tiers, "fold", lambda: folds.append(1))
    tiers.append(5, 102, 7)
    assert folds == [] and tiers._slots is base and not tiers._pending
    assert [s.tolist() for s, _ in tiers.segments(5)][1] == [100, 102]
    assert [f.tolist() for _, f in tiers.segments(1)][1] == [2, 3]
