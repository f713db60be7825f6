"""Documents' term ids, packed as their low 16 bits and the steps of the high ones (issue
19): every slot gives back its ids exactly, past 2^16 and 2^17 too, packed or not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.index import doc_terms
from reme_tui.engine.index.doc_terms import DocTerms

term_ids = st.sets(st.integers(0, 300_000), max_size=40)


def _csr(docs: list[set[int]]) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in docs], out=ptr[1:])
    flat = [t for d in docs for t in sorted(d)]
    return np.array(flat, dtype=np.int32), ptr


@settings(max_examples=200, deadline=None)
@given(packed=st.lists(term_ids, max_size=12), added=st.lists(term_ids, max_size=12))
def test_every_slot_gives_back_its_term_ids(packed: list[set[int]], added: list[set[int]]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(doc_terms, "PACK_MIN", 3)
        terms = DocTerms()
        terms.load(*_csr(packed))
        for i, ids in enumerate(added):
            terms.append()
            terms.set(len(packed) + i, np.array(list(ids), dtype=np.int32))  # any order
            terms.settle()
        for slot, ids in enumerate([*packed, *added]):
            got = terms.get(slot)
            assert got is not None and sorted(got.tolist()) == sorted(ids)
            assert got.dtype == np.int32


def test_ids_that_do_not_ascend_are_refused() -> None:
    with pytest.raises(ValueError):
        DocTerms().load(np.array([70_000, 5], dtype=np.int32), np.array([0, 2]))


def test_the_packed_ids_take_two_bytes_each() -> None:
    ids = np.arange(0, 3_000_000, 3, dtype=np.int32)  # one document, ids past 2^21
    terms = DocTerms()
    terms.load(ids, np.array([0, ids.shape[0]]))
    assert terms._flat.low.nbytes == 2 * ids.shape[0]
    assert np.array_equal(terms.get(0), ids)  # type: ignore[arg-type]
