"""Each keyword-index document's distinct term ids (the forward index), stored packed.

The keyword index needs a document's term ids to take it out (its terms' document
frequencies drop), to compact, and to tell which query tokens a hit holds. Kept as one
numpy array per document, 50,000 documents cost ~6 MB of array headers (112 bytes each)
and a list beside the ids themselves (issue 19: the app's memory at 50k memories). Here
the older documents share one flat array with offsets (a CSR, what a saved index loads
and a compaction produces), and only the documents added since keep an array each; those
are packed into the flat array once they are many (an eighth of the packed ones, at least
``PACK_MIN``), so a pack's copying stays a constant share of the updates' work.

A removed packed document keeps its ids in the flat array until the next compaction (as
its postings do); a removed newer one drops its array at once.

The flat array holds each id's low 16 bits (uint16, half of int32: 17 MB at 50,000
memories, issue 19); a document's ids ascend, so their high bits only step up, and the
places where they do are kept beside it (about one a document, a vocabulary rarely
passing 2^17 words).
"""

from __future__ import annotations

import numpy as np

_INT = np.int32
_EMPTY = np.zeros(0, dtype=_INT)
# Pack the per-document arrays into the flat one once there are this many (or more).
PACK_MIN = 1024
_BLOCK = 1 << 16  # ids encoded at a time


class _Packed:
    """Ascending term ids per document, as their low 16 bits and the steps of the high."""

    def __init__(self, ids: np.ndarray, ptr: np.ndarray) -> None:
        """``ids[ptr[d]:ptr[d + 1]]``: document ``d``'s term ids, ascending. Worked out a
        block at a time: at once, the high bits and those before them were two arrays the
        size of every id (~70 MB at 50,000 memories, the peak of a warm start's check)."""
        self.low = ids.astype(np.uint16)  # the low 16 bits (astype wraps)
        starts = ptr[:-1][ptr[:-1] < ptr[1:]]  # where a document's ids begin
        step_at: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
        steps: list[np.ndarray] = [_EMPTY]
        for start in range(0, ids.shape[0], _BLOCK):
            high = ids[start : start + _BLOCK] >> 16
            before = np.empty_like(high)  # the high bits of the id before, 0 at a start
            before[0] = int(ids[start - 1]) >> 16 if start else 0
            before[1:] = high[:-1]
            first, last = np.searchsorted(starts, (start, start + high.shape[0]))
            before[starts[first:last] - start] = 0
            high -= before
            if int(high.min()) < 0:
                raise ValueError("a document's term ids must ascend")
            at = np.flatnonzero(high)
            step_at.append(at + start)
            steps.append(high[at].astype(_INT))
        self.step_at = np.concatenate(step_at)
        self.step = np.concatenate(steps)

    def get(self, start: int, end: int) -> np.ndarray:
        ids = self.low[start:end].astype(_INT)
        step_at = self.step_at
        first = int(step_at.searchsorted(start))
        last = first
        while last < step_at.shape[0] and step_at[last] < end:  # about one a document
            ids[int(step_at[last]) - start :] += int(self.step[last]) << 16
            last += 1
        return ids

    def extended(self, more: _Packed) -> _Packed:
        """These documents, then ``more``'s."""
        both = _Packed.__new__(_Packed)
        both.low = np.concatenate((self.low, more.low))
        both.step_at = np.concatenate((self.step_at, more.step_at + self.low.shape[0]))
        both.step = np.concatenate((self.step, more.step))
        return both


class DocTerms:
    """Distinct term ids by document slot: a packed CSR for slots below ``n_packed``, one
    array per slot above."""

    def __init__(self) -> None:
        self.load(_EMPTY, np.zeros(1, dtype=np.int64))

    def load(self, flat: np.ndarray, ptr: np.ndarray) -> None:
        """Make ``flat[ptr[s]:ptr[s + 1]]`` the term ids of slot ``s`` (and nothing else);
        each slot's ascending."""
        self._flat = _Packed(flat, ptr)
        self._ptr = ptr
        self._n_packed = int(ptr.shape[0]) - 1
        self._tail: list[np.ndarray | None] = []

    def __len__(self) -> int:
        return self._n_packed + len(self._tail)

    def append(self) -> None:
        """A new slot at the end, its terms not known yet (see `set`)."""
        self._tail.append(None)

    def set(self, slot: int, terms: np.ndarray) -> None:
        """The term ids of a slot added since the last pack."""
        self._tail[slot - self._n_packed] = terms

    def get(self, slot: int) -> np.ndarray | None:
        """The term ids of ``slot`` (ascending for a packed slot; None for a removed slot
        added since the last pack)."""
        if slot < self._n_packed:
            return self._flat.get(int(self._ptr[slot]), int(self._ptr[slot + 1]))
        return self._tail[slot - self._n_packed]

    def forget(self, slot: int) -> None:
        """``slot`` was removed: drop its own array (a packed one waits for compaction)."""
        if slot >= self._n_packed:
            self._tail[slot - self._n_packed] = None

    def settle(self) -> None:
        """Pack the per-slot arrays into the flat one when they have grown many."""
        if len(self._tail) < max(PACK_MIN, self._n_packed // 8):
            return
        parts = [_EMPTY if t is None else np.sort(t) for t in self._tail]
        sizes = np.fromiter((p.shape[0] for p in parts), dtype=np.int64, count=len(parts))
        tail_ptr = np.zeros(len(parts) + 1, dtype=np.int64)
        np.cumsum(sizes, out=tail_ptr[1:])
        ptr = np.empty(self._n_packed + len(parts) + 1, dtype=np.int64)
        ptr[: self._n_packed + 1] = self._ptr
        ptr[self._n_packed + 1 :] = tail_ptr[1:] + self._ptr[-1]
        packed = self._flat.extended(_Packed(np.concatenate(parts).astype(_INT), tail_ptr))
        self._flat, self._ptr = packed, ptr
        self._n_packed += len(parts)
        self._tail = []
