"""Each keyword path id's date, as an index into the distinct dates: what the match
count needs to count matching chunks per date in array arithmetic."""

from __future__ import annotations

import numpy as np

from ..index import IndexState


class DatesByPathId:
    """The table, caught up from the paths the state touched since it was last read.

    Rebuilt per state generation it walked every path under the index lock: at 50,000
    memories 90-260 ms after each batch a burst of changes applied, while keystrokes
    waited for their counts (issue 19). Path ids are stable until the keyword index hands
    them out anew (`path_numbering`), and the state logs what it indexes or takes out
    (`touched_since`, None once the log started over): either moving on rebuilds it.
    Call with the index lock held."""

    def __init__(self) -> None:
        self._key: tuple[int, int] | None = None  # the keyword index and its numbering
        self._bookmark: tuple[int, int] | None = None  # where it read `IndexState.touched`
        self._generation = -1
        self._codes = np.zeros(0, dtype=np.int64)
        self._count = 0  # path ids covered
        self._dates: list[str | None] = [None]
        self._index_of: dict[str | None, int] = {None: 0}

    def get(self, state: IndexState) -> tuple[np.ndarray, list[str | None]]:
        """For each path id the index of its memory's date in the returned list of
        distinct dates (0: undated, or no memory at that path now)."""
        keyword = state.keyword
        key = (id(keyword), keyword.path_numbering)
        touched = state.touched_since(self._bookmark)
        if key != self._key or touched is None or len(touched) > keyword.path_count // 2:
            self._rebuild(state)
            self._key = key
        elif state.generation != self._generation:
            self._catch_up(state, touched)
        self._bookmark = state.touched_bookmark()
        self._generation = state.generation
        return self._codes[: self._count], self._dates

    def _rebuild(self, state: IndexState) -> None:
        self._dates, self._index_of = [None], {None: 0}
        paths = state.keyword.paths_by_id()
        self._codes = np.array([self._code(state, path) for path in paths], dtype=np.int64)
        self._count = len(paths)

    def _catch_up(self, state: IndexState, touched: list[str]) -> None:
        keyword = state.keyword
        count = keyword.path_count
        if count > self._count:  # new ids: the paths were touched as they were indexed
            if count > len(self._codes):
                grown = np.zeros(max(count, 2 * len(self._codes)), dtype=np.int64)
                grown[: self._count] = self._codes[: self._count]
                self._codes = grown
            self._codes[self._count : count] = 0
            self._count = count
        for path in dict.fromkeys(touched):
            path_id = keyword.path_id(path)
            if path_id is not None:
                self._codes[path_id] = self._code(state, path)

    def _code(self, state: IndexState, path: str) -> int:
        memory = state.memories.get(path)
        date = memory.date if memory is not None else None
        at = self._index_of.get(date)
        if at is None:
            at = self._index_of[date] = len(self._dates)
            self._dates.append(date)
        return at
