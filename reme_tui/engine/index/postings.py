"""The keyword index's posting lists, stored flat: a few big numpy arrays, not two per term.

A posting is (slot, tf): a document slot holding the term, and how often. Every term's
list is kept in slot order, in up to three tiers, each newer than the one before:

* the *base*: one CSR over term ids ``0 .. len(ptr) - 2`` (``ptr[t]:ptr[t + 1]`` slices
  ``slots`` and ``tfs``), what a saved index loads and what a fold produces;
* the *overlay*: growable arrays of their own for the terms a one-document update
  touched since the last fold (an edit costs the document's terms, not the index);
* *pending* batches: a bulk insert's postings as three flat arrays sorted by term id
  (a term's run found by binary search), folded into the base once they hold as many
  postings as the base does, so a cold build folds O(log batches) times; a one-document
  append after them moves them into the overlay when they are small beside the base.

Why: two arrays per term cost ~230 bytes of numpy headers a term before any data, which
a memory of one million distinct words (a 19 MB line of random tokens, 1M wikilinks to
distinct targets) turned into ~400 MB; flat tiers cost 8 bytes a term (issue 23).

Reads never change the tiers (readers only hold the index lock, which a fold inside a
read would make a hidden write under); only the updates fold.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

_INT = np.int32
_EMPTY_INT = np.zeros(0, dtype=_INT)
# Fold the overlay into the base once it holds this many terms (each costs ~270 bytes
# of its array and dict entries; a fold costs a pass over every posting).
OVERLAY_TERMS = 1 << 15
# At most this many pending batches before a fold (a read looks a term up in each) ...
MAX_PENDING = 16
# ... and fold once they hold this many times the base's postings (a fold is a pass over
# them all, so a cold build's folds cost about twice its postings in total).
PENDING_SHARE = 1
# A one-document append finds pending batches (an update's batch of many): they move into
# the overlay when this many times their postings are still at most the base's, instead of
# folding every posting into the base. At 50,000 memories (8.5M postings) that fold took
# 0.4-1.6 s under the index lock, on the first single-memory update after a batch, and a
# key typed during a burst of changes waited for it (issue 19).
PENDING_TO_OVERLAY_SHARE = 8

# `gathered` places postings this many at a time: its temporaries (an int64 per posting,
# three of them) were ~200 MB at 50,000 memories, at the peak of a save after a burst.
_SCATTER_BLOCK = 1 << 18

Segment = tuple[np.ndarray, np.ndarray]
"""One stretch of a term's posting list: (slots, tfs) views; slots int32, tfs of an integer
type that holds them (the base keeps them narrow, see `_narrow`)."""


def _narrow(tfs: np.ndarray) -> np.ndarray:
    """Term frequencies (all >= 1) in the smallest unsigned type that holds every one: a
    term seldom occurs 256 times in one chunk, so the base's tfs are mostly one byte, not
    four (issue 19: 26 of 34 MB at 50,000 memories). Readers convert them to float32 or int
    anyway, so scores do not change."""
    if not tfs.shape[0]:
        return tfs
    top = int(tfs.max())
    for dtype in (np.uint8, np.uint16):
        if top <= np.iinfo(dtype).max:
            return tfs.astype(dtype, copy=False)
    return tfs


def _narrow_type(parts: Iterable[np.ndarray]) -> np.dtype:
    """The type `_narrow` would give the concatenation of ``parts``."""
    top = max((int(p.max()) for p in parts if p.shape[0]), default=0)
    for dtype in (np.uint8, np.uint16):
        if top <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(_INT)


def _grow(rows: np.ndarray | None, need: int) -> np.ndarray:
    """A copy of an overlay list's ``rows`` (slots, tfs) with room for at least ``need``
    postings (doubling). One array a term, not one for its slots and one for its tfs:
    after a burst of 3,000 edits at 50,000 memories the overlay held ~115,000 arrays,
    ~12 MB mostly of their headers (issue 19)."""
    old = 0 if rows is None else rows.shape[1]
    out = np.empty((2, max(need, 2 * old, 4)), dtype=_INT)
    if rows is not None:
        out[:, :old] = rows
    return out


def _run_starts(tids: np.ndarray) -> np.ndarray:
    """Where each term's run starts in ascending ``tids``."""
    change = np.empty(tids.shape[0], dtype=bool)
    change[:1] = True
    np.not_equal(tids[1:], tids[:-1], out=change[1:])
    return np.flatnonzero(change)


class Postings:
    """Every term's posting list (slot order), in a flat base, an overlay and pending batches."""

    def __init__(self) -> None:
        self.load(np.zeros(1, dtype=np.int64), _EMPTY_INT, _EMPTY_INT)

    def load(self, ptr: np.ndarray, slots: np.ndarray, tfs: np.ndarray) -> None:
        """Make the CSR (``ptr`` int64, ``slots``/``tfs`` int32) the whole contents."""
        self._ptr = ptr
        self._slots = slots
        self._tfs = _narrow(tfs)
        self._o_rows: dict[int, np.ndarray] = {}  # term -> its slots and tfs, in 2 rows
        self._o_len: dict[int, int] = {}
        self._pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._pending_entries = 0

    # -- updates -----------------------------------------------------------------

    def append(self, tid: int, slot: int, tf: int) -> None:
        """One posting at the end of ``tid``'s list (``slot`` newer than any there)."""
        if self._pending:
            self._pending_out_of_the_way()  # the overlay must stay older than them all
        o_len = self._o_len
        n = o_len.get(tid, 0)
        rows = self._o_rows.get(tid)
        if rows is None or n == rows.shape[1]:
            rows = self._o_rows[tid] = _grow(rows, n + 1)
        rows[0, n] = slot
        rows[1, n] = tf
        o_len[tid] = n + 1

    def _pending_out_of_the_way(self) -> None:
        """The pending batches into the overlay when they are few postings over few terms
        (see PENDING_TO_OVERLAY_SHARE), else everything into the base."""
        starts = [_run_starts(tids) for tids, _, _ in self._pending]
        terms = sum(s.shape[0] for s in starts)  # an upper bound on the distinct terms
        if (
            self._pending_entries * PENDING_TO_OVERLAY_SHARE > self._slots.shape[0]
            or len(self._o_len) + terms > OVERLAY_TERMS
        ):
            self.fold()
            return
        for (tids, slots, tfs), first in zip(self._pending, starts, strict=True):
            ends = [*first[1:].tolist(), tids.shape[0]]
            for tid, start, end in zip(tids[first].tolist(), first.tolist(), ends, strict=True):
                self._extend(tid, slots[start:end], tfs[start:end])
        self._pending = []
        self._pending_entries = 0

    def _extend(self, tid: int, slots: np.ndarray, tfs: np.ndarray) -> None:
        """Postings at the end of ``tid``'s overlay list (slots newer than any there)."""
        n = self._o_len.get(tid, 0)
        end = n + slots.shape[0]
        rows = self._o_rows.get(tid)
        if rows is None or end > rows.shape[1]:
            rows = self._o_rows[tid] = _grow(rows, end)
        rows[0, n:end] = slots
        rows[1, n:end] = tfs
        self._o_len[tid] = end

    def append_sorted(self, tids: np.ndarray, slots: np.ndarray, tfs: np.ndarray) -> None:
        """A batch of postings, ``tids`` ascending and slots ascending inside a term, every
        slot newer than any already held (the arrays are kept, not copied)."""
        if not tids.shape[0]:
            return
        self._pending.append((tids, slots, tfs))
        self._pending_entries += int(tids.shape[0])

    def settle(self) -> None:
        """Fold when the overlay or the pending batches have grown past their share."""
        if (
            len(self._o_len) > OVERLAY_TERMS
            or len(self._pending) >= MAX_PENDING
            or (self._pending and self._pending_entries >= PENDING_SHARE * self._slots.shape[0])
        ):
            self.fold()

    def fold(self) -> None:
        """Everything into the base."""
        if self._o_len or self._pending:
            self.load(*self.gathered(self.n_terms))

    def frozen(self) -> Postings:
        """A copy that later updates leave alone, made without copying postings: the base
        arrays and pending batches are never written once made, and an overlay list is
        only ever written past its current length (or replaced when it grows)."""
        copy = Postings.__new__(Postings)
        copy._ptr, copy._slots, copy._tfs = self._ptr, self._slots, self._tfs
        copy._o_len = dict(self._o_len)
        copy._o_rows = {t: self._o_rows[t][:, :m] for t, m in copy._o_len.items()}
        copy._pending = list(self._pending)
        copy._pending_entries = self._pending_entries
        return copy

    # -- reads -------------------------------------------------------------------

    @property
    def n_terms(self) -> int:
        """One more than the largest term id held (0 when empty)."""
        n = int(self._ptr.shape[0]) - 1
        if self._o_len:
            n = max(n, max(self._o_len) + 1)
        for tids, _, _ in self._pending:
            n = max(n, int(tids[-1]) + 1)
        return n

    def segments(self, tid: int) -> list[Segment]:
        """``tid``'s posting list, in slot order, as consecutive stretches."""
        out: list[Segment] = []
        if tid < self._ptr.shape[0] - 1:
            s, e = int(self._ptr[tid]), int(self._ptr[tid + 1])
            if e > s:
                out.append((self._slots[s:e], self._tfs[s:e]))
        m = self._o_len.get(tid)
        if m:
            rows = self._o_rows[tid]
            out.append((rows[0, :m], rows[1, :m]))
        for tids, slots, tfs in self._pending:
            s = int(np.searchsorted(tids, tid, "left"))
            e = int(np.searchsorted(tids, tid, "right"))
            if e > s:
                out.append((slots[s:e], tfs[s:e]))
        return out

    def is_base(self, array: np.ndarray) -> bool:
        """Whether ``array`` is the base's (`gathered` hands them out, read-only)."""
        return array is self._slots or array is self._tfs

    def gathered(self, n_terms: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every posting list as one CSR over term ids ``0 .. n_terms - 1``: (ptr, slots,
        tfs), each list in slot order; tfs in the narrowest type that holds them all
        (read-only when nothing but the base: the base itself)."""
        n_base = self._ptr.shape[0] - 1
        if not self._o_len and not self._pending:
            if n_base == n_terms:
                return self._ptr, self._slots, self._tfs
            tail = np.full(n_terms - n_base, self._ptr[-1], dtype=np.int64)
            return np.concatenate((self._ptr, tail)), self._slots, self._tfs
        # Each source: (term ids, or None for the base's, whose runs `ptr` gives), slots,
        # tfs, postings per term. Each is sorted by term id, so a posting's place is its
        # term's start in the result, plus its index in the source, minus its term's first
        # index in the source.
        sources: list[tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray]] = []
        if self._slots.shape[0]:
            base_counts = np.zeros(n_terms, dtype=np.int64)
            base_counts[:n_base] = np.diff(self._ptr)
            sources.append((None, self._slots, self._tfs, base_counts))
        if self._o_len:
            used = sorted(self._o_len.items())
            tids = np.repeat(np.array([t for t, _ in used], dtype=_INT), [m for _, m in used])
            sources.append(
                (
                    tids,
                    np.concatenate([self._o_rows[t][0, :m] for t, m in used]),
                    np.concatenate([self._o_rows[t][1, :m] for t, m in used]),
                    np.bincount(tids, minlength=n_terms),
                )
            )
        for tids, slots, tfs in self._pending:
            sources.append((tids, slots, tfs, np.bincount(tids, minlength=n_terms)))
        total = np.zeros(n_terms, dtype=np.int64)
        for *_, counts in sources:
            total += counts
        ptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(total, out=ptr[1:])
        del total
        out_slots = np.empty(int(ptr[-1]), dtype=_INT)
        out_tfs = np.empty(int(ptr[-1]), dtype=_narrow_type(t for _, _, t, _ in sources))
        fill = ptr[:-1].copy()  # where each term's next source goes
        for source_tids, slots, tfs, counts in sources:
            shift = fill - (np.cumsum(counts) - counts)
            for lo in range(0, slots.shape[0], _SCATTER_BLOCK):
                hi = min(lo + _SCATTER_BLOCK, slots.shape[0])
                index = np.arange(lo, hi, dtype=np.int64)
                if source_tids is None:
                    block_tids = np.searchsorted(self._ptr, index, "right") - 1
                else:
                    block_tids = source_tids[lo:hi]
                index += shift[block_tids]
                out_slots[index] = slots[lo:hi]
                out_tfs[index] = tfs[lo:hi]
            fill += counts
        return ptr, out_slots, out_tfs
