"""Incremental BM25 inverted index over chunks, with numpy postings.

Semantics follow reme-ai 0.4.2.0 (`reme/components/keyword_index/bm25_index.py`):

* one document per chunk, keyed by ``(path, start_line)``; a document whose token
  list is empty is not indexed (adding one under an existing key removes the old
  version);
* k1 = 1.5, b = 0.75, ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))`` with N = live
  documents, df = live documents containing the term, avg_len = mean token count
  of live documents; these statistics are global, also when ``top_k`` is limited
  to a set of allowed paths;
* query tokens are deduplicated (first occurrence wins), unknown tokens ignored;
* only documents with a score > 0 are returned (with this idf, that is every
  document containing at least one query term).

Scores are computed in float32 exactly as the reference does (see ``_scores``) and
handed out as Python floats; unlike the reference, ties are broken by key (path, then
start line), so results are deterministic.

Layout. Every indexed version of a document gets a fresh integer *slot*. Each
term's posting list (slots and term frequencies, in slot order) lives in `Postings`:
flat arrays shared by all terms plus a small overlay for recent one-document updates,
so an append is O(1) amortized and a term costs bytes, not two numpy arrays. Removing a
document only marks its slot dead and decrements the live document frequency of
its terms; its stale posting entries stay and add nothing at query time, because a dead
slot's length normalizer is +inf (its contribution is exactly 0). When the stale
entries outnumber the live ones, everything is compacted in one vectorized pass,
so the amortized cost of an update is proportional to the document's size.

Why this module is long (~680 lines): it is one data structure (the inverted index, its
incremental updates, compaction, export/restore for the saved index and the float32
scoring that must match ReMe bit for bit); its invariants (incremental == rebuilt,
scores == an independent BM25) are checked as a whole in ``tests/engine/test_keyword.py``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, islice
from typing import Any, cast

import numpy as np

from ..records import DocKey
from .doc_terms import DocTerms
from .postings import Postings

"""(workspace-relative path, chunk start_line)."""

STATE_VERSION = 1

_INT = np.int32
_EMPTY_INT = np.zeros(0, dtype=_INT)
# The types a state's term frequencies may come in (int32, or narrower when they fit).
_NARROW_TFS = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(_INT))
# add_many() switches from per-term appends to grouped, vectorized appends at this size.
_BULK_MIN_DOCS = 16
# ... or when the documents hold this many tokens (a huge memory: the vectorized path
# has no per-term Python work and takes 40% less time).
_BULK_MIN_TOKENS = 1 << 16
# add_many() counts terms in batches of about this many tokens (bounds temporary memory).
_BULK_BATCH_TOKENS = 1 << 21
# `_doc_terms` groups about this many postings at a time.
_DOC_TERMS_BLOCK = 1 << 16
# Never compact while fewer stale posting entries than this have accumulated.
_MIN_STALE_TO_COMPACT = 1 << 16


@dataclass(frozen=True, slots=True)
class TermScore:
    """One query term's part of a chunk's BM25 score.

    ``part`` is ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len))`` in
    float32; ``added`` is what it added to the float32 running sum (the parts are added
    in query order, as ReMe does): the ``added`` values sum to the score exactly.
    """

    term: str
    tf: int
    df: int
    idf: float
    part: float
    added: float


@dataclass(frozen=True, slots=True)
class ChunkScore:
    """A chunk's BM25 score with its terms and the statistics it was computed with."""

    key: DocKey
    score: float
    terms: tuple[TermScore, ...]
    length: int  # tokens in the chunk
    avg_length: float  # mean tokens over the live chunks
    length_norm: float  # 1 - b + b * length / avg_length
    documents: int  # N: live chunks
    k1: float
    b: float


def _stable_argsort(a: np.ndarray) -> np.ndarray:
    """Stable argsort of non-negative int32 values via 16-bit radix passes (O(n))."""
    if a.shape[0] == 0 or int(a.max()) < 1 << 16:
        return np.argsort(a.astype(np.uint16), kind="stable")
    order = np.argsort((a & 0xFFFF).astype(np.uint16), kind="stable")
    return order[np.argsort((a[order] >> 16).astype(np.uint16), kind="stable")]


def _split(arr: np.ndarray, sizes: Sequence[int]) -> list[np.ndarray]:
    """Consecutive views of ``arr`` with the given sizes (faster than np.split)."""
    ends = list(accumulate(sizes))
    return [arr[s:e] for s, e in zip([0, *ends], ends, strict=False)]


def _doc_ptr(indices: np.ndarray, n_docs: int) -> np.ndarray:
    """Where each document's run starts in postings grouped by document (CSR offsets).
    Counted a block at a time: bincount makes an int64 copy of what it counts."""
    counts = np.zeros(n_docs, dtype=np.int64)
    for start in range(0, indices.shape[0], _DOC_TERMS_BLOCK):
        counts += np.bincount(indices[start : start + _DOC_TERMS_BLOCK], minlength=n_docs)
    ptr = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr


def _doc_terms(df: np.ndarray, indices: np.ndarray, n_docs: int) -> np.ndarray:
    """Every document's term ids in document order, ascending within a document, from
    postings grouped by term (``df[t]`` of them for term ``t``, in term order); the
    offsets are `_doc_ptr`'s. Grouped a block of terms at a time: at once, the sort's
    int64 orders of every posting took ~140 MB above a 50k-memory index for a moment."""
    ptr = np.zeros(df.shape[0] + 1, dtype=np.int64)
    np.cumsum(df, out=ptr[1:])
    out = np.empty(indices.shape[0], dtype=_INT)
    fill = _doc_ptr(indices, n_docs)[:-1]  # where each document's next term goes
    term = 0
    while term < df.shape[0]:
        start = int(ptr[term])
        end_term = int(np.searchsorted(ptr, start + _DOC_TERMS_BLOCK, "right")) - 1
        end_term = min(max(end_term, term + 1), df.shape[0])
        docs = indices[start : int(ptr[end_term])]
        order = _stable_argsort(docs)
        by_doc = docs[order]
        rank = np.arange(by_doc.shape[0], dtype=np.int64)
        rank -= np.searchsorted(by_doc, by_doc, "left")  # place inside its document's run
        terms = np.repeat(np.arange(term, end_term, dtype=_INT), df[term:end_term])
        out[fill[by_doc] + rank] = terms[order]
        fill += np.bincount(docs, minlength=n_docs)
        term = end_term
    return out


def _slots(slots: int | set[int] | None) -> tuple[int, ...]:
    """A path's live slots as `KeywordIndex._path_slots` holds them, as a tuple."""
    if slots is None:
        return ()
    return (slots,) if isinstance(slots, int) else tuple(slots)


def _grow(arr: np.ndarray, need: int) -> np.ndarray:
    """Return a copy of ``arr`` with capacity at least ``need`` (doubling)."""
    cap = max(need, 2 * arr.shape[0], 4)
    out = np.empty(cap, dtype=arr.dtype)
    out[: arr.shape[0]] = arr
    return out


class KeywordIndex:
    """BM25 over chunks; add/replace/remove cost is proportional to the chunk's terms."""

    def __init__(
        self,
        k1: float = 1.5,
        b: float = 0.75,
        *,
        min_stale_to_compact: int = _MIN_STALE_TO_COMPACT,
    ) -> None:
        self.k1 = float(k1)
        self.b = float(b)
        self._min_stale = int(min_stale_to_compact)
        # Moves on whenever path ids are handed out anew (a compaction or a load).
        self.path_numbering = 0
        self._clear()

    def _clear(self) -> None:
        # Documents, by slot (slots [0, _n_slots) are allocated; dead ones keep their data).
        self._n_slots = 0
        self._slot_key: list[DocKey | None] = []
        # Unique term ids of each live slot, packed (`DocTerms`); a restore derives them
        # from its postings when first needed (`_terms_by_slot`).
        self._slot_terms = DocTerms()
        self._loaded_postings: tuple[np.ndarray, np.ndarray, int] | None = None
        self._slot_len = np.zeros(64, dtype=_INT)
        self._slot_live = np.zeros(64, dtype=bool)
        self._slot_path = np.zeros(64, dtype=_INT)  # path id
        self._key_slot: dict[DocKey, int] = {}
        # Paths.
        self._path_id: dict[str, int] = {}
        # Live slots only: one int for a path of one chunk (most of them; a set of one
        # is 216 bytes, 11 MB at 50,000 memories), a set for more.
        self._path_slots: dict[str, int | set[int]] = {}
        # Vocabulary and postings, by term id.
        self._term_id: dict[str, int] = {}
        self._terms: list[str] = []
        self._postings = Postings()
        self._df = np.zeros(64, dtype=np.int64)  # live document frequency (spare capacity)
        # Totals.
        self._total_len = 0  # tokens over live docs
        self._live_entries = 0  # posting entries of live docs
        self._stale_entries = 0  # posting entries of dead slots
        self._norm: np.ndarray | None = None  # cached k1·(1−b+b·len/avg), +inf for dead

    # -- size and membership ---------------------------------------------------

    def __len__(self) -> int:
        return len(self._key_slot)

    def __contains__(self, key: object) -> bool:
        return key in self._key_slot

    @property
    def avg_len(self) -> float:
        """Mean token count of the live documents (0.0 when empty)."""
        n = len(self._key_slot)
        return self._total_len / n if n else 0.0

    def keys(self) -> list[DocKey]:
        """Live document keys, sorted."""
        return sorted(self._key_slot)

    # -- updates ---------------------------------------------------------------

    def add(self, key: DocKey, tokens: Sequence[str]) -> None:
        """Index ``tokens`` under ``key``, replacing any previous version.

        An empty token list only removes the previous version.
        """
        self._remove_slot(key)
        counts = Counter(tokens)
        if counts:
            self._insert(key, len(tokens), counts)
        self._maybe_compact()

    def add_many(self, docs: Iterable[tuple[DocKey, Sequence[str]]]) -> None:
        """Add several documents (later duplicates of a key win); fast for large batches."""
        docs = list(docs)
        if len(docs) < _BULK_MIN_DOCS and sum(len(t) for _, t in docs) < _BULK_MIN_TOKENS:
            for key, tokens in docs:
                self._remove_slot(key)
                counts = Counter(tokens)
                if counts:
                    self._insert(key, len(tokens), counts)
        else:
            for key, _ in docs:
                self._remove_slot(key)
            self._bulk_insert(docs)
        self._maybe_compact()

    def remove(self, key: DocKey) -> bool:
        """Remove one document; return whether it was present."""
        removed = self._remove_slot(key)
        if removed:
            self._maybe_compact()
        return removed

    def remove_path(self, path: str) -> int:
        """Remove every chunk of ``path``; return how many were removed."""
        slots = _slots(self._path_slots.get(path))
        if not slots:
            return 0
        keys = [self._slot_key[s] for s in slots]
        for key in keys:
            assert key is not None
            self._remove_slot(key)
        self._maybe_compact()
        return len(keys)

    def replace_path(self, path: str, docs: Sequence[tuple[DocKey, Sequence[str]]]) -> None:
        """Make ``docs`` the complete set of chunks of ``path``."""
        for key, _ in docs:
            if key[0] != path:
                raise ValueError(f"chunk key {key!r} does not belong to path {path!r}")
        slots = _slots(self._path_slots.get(path))
        if slots:
            for s in slots:
                slot_key = self._slot_key[s]
                assert slot_key is not None
                self._remove_slot(slot_key)
        self.add_many(docs)

    def compact(self) -> None:
        """Drop stale posting entries and dead slots now (normally automatic)."""
        if self._stale_entries == 0 and self._n_slots == len(self._key_slot):
            return
        state = self._csr()
        for name in ("indices", "tfs"):  # views of arrays that held the stale postings too
            if state[name].base is not None:
                state[name] = state[name].copy()
        # Reuse the per-document term lists instead of re-deriving them by sorting.
        term_remap = np.full(len(self._terms), -1, dtype=_INT)
        term_remap[state.pop("_kept_terms")] = np.arange(len(state["terms"]), dtype=_INT)
        get = self._terms_by_slot().get
        live = [cast(np.ndarray, get(s)) for s in state.pop("_live_slots").tolist()]
        flat = term_remap[np.concatenate(live)] if live else _EMPTY_INT
        self._load_csr(state, flat)

    # -- internals: updates ----------------------------------------------------

    def _terms_by_slot(self) -> DocTerms:
        """The unique term ids of every slot, grouped from the postings a restore loaded
        the first time they are needed (any change to the index asks first, so the
        postings are still the loaded ones then)."""
        loaded = self._loaded_postings
        if loaded is not None:
            indices, df, n_docs = loaded  # (a first new slot may be allocated already)
            self._slot_terms.load(_doc_terms(df, indices, n_docs), _doc_ptr(indices, n_docs))
            self._loaded_postings = None
        return self._slot_terms

    def prepare_updates(self) -> None:
        """Derive now what a restore left for the first update or search to derive."""
        self._terms_by_slot()

    def _alloc_slot(self, key: DocKey, length: int) -> int:
        slot = self._n_slots
        if slot == self._slot_len.shape[0]:
            self._slot_len = _grow(self._slot_len, slot + 1)
            self._slot_path = _grow(self._slot_path, slot + 1)
            live = np.zeros(self._slot_len.shape[0], dtype=bool)
            live[:slot] = self._slot_live[:slot]
            self._slot_live = live
        path = key[0]
        pid = self._path_id.get(path)
        if pid is None:
            pid = self._path_id[path] = len(self._path_id)
        self._n_slots = slot + 1
        self._slot_key.append(key)
        self._terms_by_slot().append()
        self._slot_len[slot] = length
        self._slot_live[slot] = True
        self._slot_path[slot] = pid
        self._key_slot[key] = slot
        slots = self._path_slots.get(path)
        if slots is None:
            self._path_slots[path] = slot
        elif isinstance(slots, int):
            self._path_slots[path] = {slots, slot}
        else:
            slots.add(slot)
        self._total_len += length
        self._norm = None
        return slot

    def _room_for_terms(self, n_terms: int) -> None:
        """Make the document-frequency array hold ``n_terms`` (new terms start at 0)."""
        if n_terms > self._df.shape[0]:
            df = np.zeros(max(n_terms, 2 * self._df.shape[0]), dtype=np.int64)
            df[: self._df.shape[0]] = self._df
            self._df = df

    def _term(self, token: str) -> int:
        tid = self._term_id.get(token)
        if tid is None:
            tid = self._term_id[token] = len(self._terms)
            self._terms.append(token)
            self._room_for_terms(tid + 1)
        return tid

    def _insert(self, key: DocKey, length: int, counts: Counter[str]) -> None:
        slot = self._alloc_slot(key, length)
        tids = np.empty(len(counts), dtype=_INT)
        append = self._postings.append
        for i, (token, tf) in enumerate(counts.items()):
            tid = self._term(token)
            append(tid, slot, tf)
            tids[i] = tid
        self._df[tids] += 1  # a document's term ids are distinct
        self._terms_by_slot().set(slot, tids)
        self._live_entries += len(counts)
        self._postings.settle()

    def _bulk_insert(self, docs: list[tuple[DocKey, Sequence[str]]]) -> None:
        # Later duplicates of a key win; documents without tokens are not indexed.
        last: dict[DocKey, Sequence[str]] = {}
        for key, tokens in docs:
            last.pop(key, None)
            last[key] = tokens
        batch: list[tuple[DocKey, Sequence[str]]] = []
        size = 0
        for key, tokens in last.items():
            if not tokens:
                continue
            batch.append((key, tokens))
            size += len(tokens)
            if size >= _BULK_BATCH_TOKENS:
                self._bulk_batch(batch)
                batch, size = [], 0
        if batch:
            self._bulk_batch(batch)

    def _bulk_batch(self, docs: list[tuple[DocKey, Sequence[str]]]) -> None:
        """Insert non-empty documents with vectorized counting (no per-term Python work)."""
        term_id = self._term_id
        n_terms_before = len(term_id)
        setdefault = term_id.setdefault
        for token in dict.fromkeys(chain.from_iterable(tokens for _, tokens in docs)):
            setdefault(token, len(term_id))  # a new token gets the next id
        if len(term_id) > n_terms_before:
            self._terms.extend(islice(term_id, n_terms_before, None))
            self._room_for_terms(len(term_id))
        lengths = [len(tokens) for _, tokens in docs]
        total = sum(lengths)
        first_slot = self._n_slots
        for (key, _), length in zip(docs, lengths, strict=True):
            self._alloc_slot(key, length)
        token_tids = np.fromiter(
            map(term_id.__getitem__, chain.from_iterable(tokens for _, tokens in docs)),
            dtype=_INT,
            count=total,
        )
        token_slots = np.repeat(np.arange(first_slot, self._n_slots, dtype=_INT), lengths)
        # Term-major order with slots ascending inside a term; equal (term, slot) runs
        # are one posting whose length is the term frequency.
        order = _stable_argsort(token_tids)
        token_tids = token_tids[order]
        token_slots = token_slots[order]
        del order
        run = np.empty(total, dtype=bool)
        run[0] = True
        np.not_equal(token_tids[1:], token_tids[:-1], out=run[1:])
        run[1:] |= token_slots[1:] != token_slots[:-1]
        starts = np.flatnonzero(run)
        tids_sorted = token_tids[starts]
        slots_sorted = token_slots[starts]
        tfs_sorted = np.diff(np.append(starts, total)).astype(_INT)
        del token_tids, token_slots, run, starts
        n_post = tids_sorted.shape[0]
        # Unique term ids of each new document.
        by_doc = _stable_argsort(slots_sorted - first_slot)
        per_doc = np.bincount(slots_sorted - first_slot, minlength=len(docs)).tolist()
        slot_terms = self._terms_by_slot()
        for slot, terms in enumerate(_split(tids_sorted[by_doc], per_doc), start=first_slot):
            slot_terms.set(slot, terms)
        self._df[: len(term_id)] += np.bincount(tids_sorted, minlength=len(term_id))
        self._postings.append_sorted(tids_sorted, slots_sorted, tfs_sorted)
        self._postings.settle()
        self._live_entries += n_post

    def _remove_slot(self, key: DocKey) -> bool:
        slot = self._key_slot.pop(key, None)
        if slot is None:
            return False
        self._slot_live[slot] = False
        self._slot_key[slot] = None
        slot_terms = self._terms_by_slot()
        tids = slot_terms.get(slot)
        slot_terms.forget(slot)
        assert tids is not None
        self._df[tids] -= 1
        self._live_entries -= len(tids)
        self._stale_entries += len(tids)
        self._total_len -= int(self._slot_len[slot])
        path = key[0]
        slots = self._path_slots[path]
        if isinstance(slots, int):
            del self._path_slots[path]
        else:
            slots.discard(slot)
            if len(slots) == 1:
                self._path_slots[path] = slots.pop()
        self._norm = None
        return True

    def _maybe_compact(self) -> None:
        if self._stale_entries > max(self._live_entries, self._min_stale):
            self.compact()
        else:
            self._slot_terms.settle()

    # -- internals: compact form ----------------------------------------------

    def _csr(self) -> dict[str, Any]:
        """Live documents and their postings in compact (CSR) form, slots renumbered."""
        return self._captured()()

    def _captured(self) -> Callable[[], dict[str, Any]]:
        """`_csr`, in two steps: what it needs, copied now (a few ms at 50,000 memories:
        the slots' arrays, not the postings), and the CSR worked out from that copy when
        called, which later updates leave alone, so it may run without the index lock."""
        n = self._n_slots
        live = self._slot_live[:n].copy()
        slot_len = self._slot_len[:n].copy()
        slot_key = self._slot_key[:n]
        terms, n_terms = self._terms, len(self._terms)  # only appended to, or replaced
        postings = self._postings.frozen()
        k1, b = self.k1, self.b
        return lambda: _csr_of(live, slot_len, slot_key, terms[:n_terms], postings, k1, b)

    def _load_csr(self, state: dict[str, Any], doc_terms: np.ndarray | None = None) -> None:
        """Replace the contents with a compact state (slots = document rows). ``doc_terms``:
        every document's term ids, concatenated in document order (derived when first
        needed when None)."""
        paths: list[str] = list(state["paths"])
        doc_path = np.asarray(state["doc_path"], dtype=_INT)
        doc_line = np.asarray(state["doc_line"], dtype=np.int64)
        doc_len = np.asarray(state["doc_len"], dtype=_INT)
        terms: list[str] = list(state["terms"])
        indptr = np.asarray(state["indptr"], dtype=np.int64)
        # Not copied (0.3 s for the 2 x 34 MB of a 50k-memory restore): the postings never
        # write into their base arrays (`Postings.gathered` hands them out read-only), and
        # a saved index's arrays were copied out of the file's bytes when decoded.
        indices = np.asarray(state["indices"], dtype=_INT)
        tfs = state["tfs"]
        if not (isinstance(tfs, np.ndarray) and tfs.dtype in _NARROW_TFS):
            tfs = np.asarray(tfs, dtype=_INT)
        n_docs = doc_len.shape[0]
        n_terms = len(terms)
        df = np.diff(indptr)
        valid = (
            doc_path.shape[0] == doc_line.shape[0] == n_docs
            and indptr.shape[0] == n_terms + 1
            and indptr[0] == 0
            and indptr[-1] == indices.shape[0] == tfs.shape[0]
            and len(set(terms)) == n_terms
            and (n_terms == 0 or int(df.min()) > 0)
            and (
                n_docs == 0
                or (
                    int(doc_path.min()) >= 0
                    and int(doc_path.max()) < len(paths)
                    and int(doc_len.min()) > 0
                )
            )
            and (
                indices.shape[0] == 0
                or (int(indices.min()) >= 0 and int(indices.max()) < n_docs and int(tfs.min()) > 0)
            )
        )
        keys: list[DocKey] = []
        if valid:
            keys = [
                (paths[p], line)
                for p, line in zip(doc_path.tolist(), doc_line.tolist(), strict=True)
            ]
            valid = len(set(keys)) == n_docs
        if not valid:
            raise ValueError("inconsistent keyword index state")

        self._clear()
        self.path_numbering += 1
        cap = max(64, n_docs)
        self._n_slots = n_docs
        self._slot_key = list(keys)
        self._slot_len = np.zeros(cap, dtype=_INT)
        self._slot_len[:n_docs] = doc_len
        self._slot_live = np.zeros(cap, dtype=bool)
        self._slot_live[:n_docs] = True
        self._slot_path = np.zeros(cap, dtype=_INT)
        self._slot_path[:n_docs] = doc_path
        self._key_slot = {key: i for i, key in enumerate(keys)}
        self._path_id = {p: i for i, p in enumerate(paths)}
        path_slots = self._path_slots
        for i, key in enumerate(keys):
            slots = path_slots.setdefault(key[0], i)
            if isinstance(slots, set):
                slots.add(i)
            elif slots != i:
                path_slots[key[0]] = {slots, i}
        self._term_id = {t: i for i, t in enumerate(terms)}
        self._terms = terms
        self._postings.load(indptr.copy(), indices, tfs)
        self._df = np.zeros(max(64, n_terms), dtype=np.int64)
        self._df[:n_terms] = df
        if doc_terms is None:
            # Derived when first needed (`_terms_by_slot`): a warm start shows its index
            # without it (0.3-0.9 s of a 50k-memory restore went to this grouping).
            self._loaded_postings = (indices, df, n_docs)
        else:
            self._slot_terms.load(doc_terms, _doc_ptr(indices, n_docs))
        self._total_len = int(doc_len.sum())
        self._live_entries = int(indices.shape[0])
        self._stale_entries = 0
        self._norm = None

    # -- persistence -----------------------------------------------------------

    def export_state(self) -> dict[str, Any]:
        """Plain dict of numpy arrays, lists and scalars describing the live index.

        Keys: version, k1, b, paths (sorted list[str]), doc_path (int32 index into
        paths), doc_line (int64), doc_len (int32), terms (list[str]), and the CSR
        postings indptr (int64, len(terms)+1), indices (int32 doc row), tfs (uint8,
        uint16 or int32: as narrow as the postings keep them).
        """
        return self.export_later()()

    def export_later(self) -> Callable[[], dict[str, Any]]:
        """`export_state` in two steps: what it needs is copied now (under the caller's
        lock), and the state is worked out when the result is called, from that copy (see
        `_captured`): at 50,000 memories a save held the index lock 0.5-3 s for it, and a
        search typed meanwhile waited (issue 19)."""
        captured = self._captured()

        def export() -> dict[str, Any]:
            state = captured()
            del state["_kept_terms"], state["_live_slots"]
            return state

        return export

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> KeywordIndex:
        """Rebuild an index from ``export_state()`` output (raises ValueError if invalid)."""
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"unsupported keyword index state version {state.get('version')!r}")
        index = cls(k1=float(state["k1"]), b=float(state["b"]))
        index._load_csr(state)
        return index

    # -- queries ---------------------------------------------------------------

    def _length_terms(self) -> np.ndarray:
        """Per slot, the float32 `k1 * b / avg_len * len` term of the BM25 denominator
        (+inf for a dead slot, so its contribution is exactly 0)."""
        norm = self._norm
        if norm is None:
            n = self._n_slots
            n_live = len(self._key_slot)
            avg = self._total_len / n_live if n_live else 1.0
            denom_norm = np.float32(self.k1 * self.b / avg if avg > 0 else 0.0)
            norm = np.full(n, np.inf, dtype=np.float32)
            live = self._slot_live[:n]
            norm[live] = denom_norm * self._slot_len[:n][live].astype(np.float32)
            self._norm = norm
        return norm

    def _scores(self, query_tokens: Sequence[str]) -> np.ndarray | None:
        """BM25 score of every slot (0 for dead slots), or None if nothing can match.

        Computed exactly as the reference does, in float32 and term by term in query
        order: `idf * tf * (k1 + 1) / (tf + k1 * (1 - b) + k1 * b / avg_len * len)`.
        Matching its rounding matters: scores agree bit for bit, so ties and `min_score`
        cut-offs fall where ReMe's do (float64 differed in the 7th digit).
        """
        n_live = len(self._key_slot)
        if not n_live:
            return None
        tids = []
        for token in dict.fromkeys(query_tokens):
            tid = self._term_id.get(token)
            if tid is not None and int(self._df[tid]) > 0:
                tids.append(tid)
        if not tids:
            return None
        length_terms = self._length_terms()
        k1p1 = np.float32(self.k1 + 1.0)
        denom_base = np.float32(self.k1 * (1.0 - self.b))
        scores = np.zeros(self._n_slots, dtype=np.float32)
        for tid in tids:
            df = int(self._df[tid])
            idf = np.float32(math.log(1.0 + (n_live - df + 0.5) / (df + 0.5)))
            for slots, tfs in self._postings.segments(tid):
                tf = tfs.astype(np.float32)
                denominator = tf + denom_base
                denominator += length_terms.take(slots)
                part = idf * tf
                part *= k1p1
                part /= denominator
                scores[slots] += part  # slots are unique within one posting list
        return scores.astype(np.float64)

    def score(self, query_tokens: Sequence[str]) -> dict[DocKey, float]:
        """Every live document with a positive score (global statistics)."""
        scores = self._scores(query_tokens)
        if scores is None:
            return {}
        hits = np.flatnonzero(scores > 0)
        keys = cast(list[DocKey], self._slot_key)
        return {keys[s]: v for s, v in zip(hits.tolist(), scores[hits].tolist(), strict=True)}

    def explain(self, key: DocKey, query_tokens: Sequence[str]) -> ChunkScore | None:
        """How document ``key`` scores for ``query_tokens``, term by term (None: not
        indexed): the same float32 arithmetic as ``_scores``, in the same order, so the
        ``added`` of the terms sum to the score ``top_k`` gives, exactly."""
        slot = self._key_slot.get(key)
        if slot is None:
            return None
        n_live = len(self._key_slot)
        length = int(self._slot_len[slot])
        avg = self._total_len / n_live if n_live else 1.0
        length_term = self._length_terms()[slot]
        k1p1 = np.float32(self.k1 + 1.0)
        denom_base = np.float32(self.k1 * (1.0 - self.b))
        total = np.float32(0.0)
        terms: list[TermScore] = []
        for token in dict.fromkeys(query_tokens):
            tid = self._term_id.get(token)
            df = int(self._df[tid]) if tid is not None else 0
            if tid is None or df <= 0:
                terms.append(TermScore(token, 0, 0, 0.0, 0.0, 0.0))
                continue
            idf = np.float32(math.log(1.0 + (n_live - df + 0.5) / (df + 0.5)))
            tf_count = 0
            for slots, tfs in self._postings.segments(tid):
                where = np.flatnonzero(slots == slot)
                if where.shape[0]:
                    tf_count = int(tfs[where[0]])
            if not tf_count:
                terms.append(TermScore(token, 0, df, float(idf), 0.0, 0.0))
                continue
            tf = np.float32(tf_count)
            denominator = np.float32(tf + denom_base)
            denominator = np.float32(denominator + length_term)
            part = np.float32(idf * tf)
            part = np.float32(part * k1p1)
            part = np.float32(part / denominator)
            before = total
            total = np.float32(total + part)
            added = float(total) - float(before)
            terms.append(TermScore(token, tf_count, df, float(idf), float(part), added))
        return ChunkScore(
            key=key,
            score=float(total),
            terms=tuple(terms),
            length=length,
            avg_length=avg,
            length_norm=1.0 - self.b + self.b * length / avg if avg > 0 else 1.0,
            documents=n_live,
            k1=self.k1,
            b=self.b,
        )

    def terms_in(self, key: DocKey, query_tokens: Sequence[str]) -> tuple[str, ...]:
        """The query tokens (deduplicated, in query order) that occur in document ``key``:
        a lookup in its term ids, where tokenizing the chunk again cost more than the
        search itself for a page of results."""
        slot = self._key_slot.get(key)
        tids = self._terms_by_slot().get(slot) if slot is not None else None
        if tids is None:
            return ()
        wanted = [
            (t, tid)
            for t in dict.fromkeys(query_tokens)
            if (tid := self._term_id.get(t)) is not None
        ]
        if not wanted:
            return ()
        # One comparison per query token: np.isin's set machinery cost 40 µs a hit here,
        # 80 % of a 50-hit search at 10,000 memories (issue 19); this is 2 µs a token.
        return tuple(t for t, tid in wanted if (tids == tid).any())

    def path_mask(self, paths: Collection[str]) -> np.ndarray:
        """A reusable filter for `top_k(allowed_mask=...)`: True for each known path in
        `paths`. Valid until the next add/remove (callers cache it per index state)."""
        path_id = self._path_id
        mask = np.zeros(len(path_id), dtype=bool)
        pids = [pid for p in paths if (pid := path_id.get(p)) is not None]
        mask[pids] = True
        return mask

    def _inside(self, cand: np.ndarray, allowed_mask: np.ndarray | None) -> np.ndarray:
        """The candidate slots whose path ``allowed_mask`` (from ``path_mask``) allows."""
        if allowed_mask is None or not cand.shape[0]:
            return cand
        pids = self._slot_path[cand]
        inside = pids < allowed_mask.shape[0]
        cand = cand[inside]
        return cand[allowed_mask[pids[inside]]]

    def matching_path_ids(
        self, query_tokens: Sequence[str], *, allowed_mask: np.ndarray | None = None
    ) -> np.ndarray:
        """The path id (see `paths_by_id`) of every document with a score above 0, inside
        ``allowed_mask``: one entry per matching chunk."""
        scores = self._scores(query_tokens)
        if scores is None:
            return np.empty(0, dtype=_INT)
        return self._slot_path[self._inside(np.flatnonzero(scores > 0), allowed_mask)]

    def paths_by_id(self) -> list[str]:
        """Every path the index has given an id, in id order."""
        return list(self._path_id)  # ids are handed out in insertion order

    def path_id(self, path: str) -> int | None:
        """The id of ``path`` (see `paths_by_id`), or None when it never had one."""
        return self._path_id.get(path)

    @property
    def path_count(self) -> int:
        """How many paths have an id (the next one handed out)."""
        return len(self._path_id)

    def top_k(
        self,
        query_tokens: Sequence[str],
        k: int,
        allowed_paths: Collection[str] | None = None,
        *,
        allowed_mask: np.ndarray | None = None,
    ) -> list[tuple[DocKey, float]]:
        """Best ``k`` documents by score (desc), ties by key (asc), scores > 0 only.

        ``allowed_paths`` restricts the candidates (None = all); N, df and avg_len
        stay global.
        """
        if k <= 0 or (allowed_paths is not None and not allowed_paths):
            return []
        scores = self._scores(query_tokens)
        if scores is None:
            return []
        cand = self._inside(np.flatnonzero(scores > 0), allowed_mask)
        if allowed_mask is None and allowed_paths is not None and cand.shape[0]:
            path_id = self._path_id
            pids = [pid for p in allowed_paths if (pid := path_id.get(p)) is not None]
            if not pids:
                return []
            pmask = np.zeros(len(path_id), dtype=bool)
            pmask[pids] = True
            cand = cand[pmask[self._slot_path[cand]]]
        vals = scores[cand]
        if cand.shape[0] > k:
            # Keep everything tied with the k-th best so the key tie-break is exact.
            kth = np.partition(vals, cand.shape[0] - k)[cand.shape[0] - k]
            sel = vals >= kth
            cand = cand[sel]
            vals = vals[sel]
        keys = cast(list[DocKey], self._slot_key)
        ranked = sorted(
            zip(vals.tolist(), (keys[s] for s in cand.tolist()), strict=True),
            key=lambda item: (-item[0], item[1]),
        )
        return [(key, val) for val, key in ranked[:k]]


def _live_postings(
    ptr: np.ndarray,
    slots: np.ndarray,
    tfs: np.ndarray,
    live: np.ndarray,
    remap: np.ndarray,
    *,
    in_place: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The postings (CSR by ``ptr``) of live slots only, slots renumbered by ``remap``:
    (slots, tfs, postings per term). A block at a time, written over ``slots`` and ``tfs``
    when ``in_place`` (a copy `gathered` just made): at once, the masks, the repeat of every
    term id and bincount's int64 copy took ~200 MB above a 50k-memory index, a save's peak
    after a burst. The tfs are the given ones when no posting is dropped."""
    n_terms = ptr.shape[0] - 1
    counts = np.diff(ptr)  # less the dropped ones (few: a removal's stale postings)
    out_slots = slots if in_place else np.empty(slots.shape[0], dtype=_INT)
    out_tfs: np.ndarray | None = tfs if in_place else None  # made at the first drop
    written = 0
    for start in range(0, slots.shape[0], _DOC_TERMS_BLOCK):
        block = slots[start : start + _DOC_TERMS_BLOCK]
        keep = live[block]
        kept = remap[block[keep]]
        end = written + kept.shape[0]
        if out_tfs is None and end - written < block.shape[0]:
            out_tfs = np.empty(slots.shape[0], dtype=tfs.dtype)
            out_tfs[:written] = tfs[:written]  # every posting before was kept
        if out_tfs is not None:
            out_tfs[written:end] = tfs[start : start + block.shape[0]][keep]
        out_slots[written:end] = kept
        if end - written < block.shape[0]:
            dropped = np.flatnonzero(~keep)
            dropped += start
            counts -= np.bincount(np.searchsorted(ptr, dropped, "right") - 1, minlength=n_terms)
        written = end
    if out_tfs is None:
        return out_slots, tfs, counts
    return out_slots[:written], out_tfs[:written], counts


def _csr_of(
    live: np.ndarray,
    slot_len: np.ndarray,
    slot_key: list[DocKey | None],
    terms: list[str],
    postings: Postings,
    k1: float,
    b: float,
) -> dict[str, Any]:
    """`KeywordIndex._csr` of a captured index (see `_captured`)."""
    n = live.shape[0]
    live_slots = np.flatnonzero(live)
    remap = np.full(n, -1, dtype=_INT)
    remap[live_slots] = np.arange(live_slots.shape[0], dtype=_INT)
    keys = [slot_key[s] for s in live_slots.tolist()]
    paths = sorted({key[0] for key in keys if key is not None})
    path_index = {p: i for i, p in enumerate(paths)}
    doc_path = np.array([path_index[k[0]] for k in keys if k is not None], dtype=_INT)
    doc_line = np.array([k[1] for k in keys if k is not None], dtype=np.int64)
    doc_len = slot_len[live_slots].astype(_INT)
    n_terms = len(terms)
    ptr, all_slots, all_tfs = postings.gathered(n_terms)
    all_slots, all_tfs, counts = _live_postings(
        ptr, all_slots, all_tfs, live, remap, in_place=not postings.is_base(all_slots)
    )
    kept = np.flatnonzero(counts)
    indptr = np.zeros(kept.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts[kept], out=indptr[1:])
    return {
        "version": STATE_VERSION,
        "k1": k1,
        "b": b,
        "paths": paths,
        "doc_path": doc_path,
        "doc_line": doc_line,
        "doc_len": doc_len,
        "terms": [terms[t] for t in kept.tolist()],
        "indptr": indptr,
        "indices": all_slots.astype(_INT, copy=False),
        # As narrow as the postings keep them (`postings._narrow`): not widened to int32
        # for the save (a 34 MB copy at 50,000 memories) and narrowed again by the load.
        "tfs": all_tfs if all_tfs.dtype in _NARROW_TFS else all_tfs.astype(_INT),
        "_kept_terms": kept,
        "_live_slots": live_slots,
    }
