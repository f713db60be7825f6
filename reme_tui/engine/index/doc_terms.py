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
"""

from __future__ import annotations

import numpy as np

_INT = np.int32
_EMPTY = np.zeros(0, dtype=_INT)
# Pack the per-document arrays into the flat one once there are this many (or more).
PACK_MIN = 1024


class DocTerms:
    """Distinct term ids by document slot: a packed CSR for slots below ``n_packed``, one
    array per slot above."""

    def __init__(self) -> None:
        self.load(_EMPTY, np.zeros(1, dtype=np.int64))

    def load(self, flat: np.ndarray, ptr: np.ndarray) -> None:
        """Make ``flat[ptr[s]:ptr[s + 1]]`` the term ids of slot ``s`` (and nothing else)."""
        self._flat = flat
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
        """The term ids of ``slot`` (a view; None for a removed slot added since the last
        pack)."""
        if slot < self._n_packed:
            return self._flat[int(self._ptr[slot]) : int(self._ptr[slot + 1])]
        return self._tail[slot - self._n_packed]

    def forget(self, slot: int) -> None:
        """``slot`` was removed: drop its own array (a packed one waits for compaction)."""
        if slot >= self._n_packed:
            self._tail[slot - self._n_packed] = None

    def settle(self) -> None:
        """Pack the per-slot arrays into the flat one when they have grown many."""
        if len(self._tail) < max(PACK_MIN, self._n_packed // 8):
            return
        parts = [_EMPTY if t is None else t for t in self._tail]
        sizes = np.fromiter((p.shape[0] for p in parts), dtype=np.int64, count=len(parts))
        ptr = np.empty(self._n_packed + len(parts) + 1, dtype=np.int64)
        ptr[: self._n_packed + 1] = self._ptr
        np.cumsum(sizes, out=ptr[self._n_packed + 1 :])
        ptr[self._n_packed + 1 :] += self._ptr[-1]
        self.load(np.concatenate([self._flat, *parts]).astype(_INT, copy=False), ptr)
