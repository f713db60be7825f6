"""How many memories use each top-level frontmatter key, kept from the paths that changed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from ..records import Memory


class KeyTally:
    """The frontmatter keys in use, by the memories' key sets (most memories share one
    set, so a path holds a small number, not its keys)."""

    def __init__(self) -> None:
        self.bookmark: tuple[int, int] | None = None  # where it read `IndexState.touched`
        self._set_ids: dict[frozenset[str], int] = {}
        self._sets: list[frozenset[str]] = []
        self._set_of: dict[str, int] = {}  # path -> key set id
        self._memories_with: Counter[int] = Counter()  # key set id -> memories

    def restart(self, memories: Mapping[str, Memory]) -> None:
        """Count every memory again (the touched log started over)."""
        self._set_ids, self._sets, self._set_of = {}, [], {}
        self._memories_with = Counter()
        self.catch_up(memories, memories)

    def catch_up(self, touched: Iterable[str], memories: Mapping[str, Memory]) -> None:
        """Count again the memories at ``touched`` paths (gone ones are taken out)."""
        for path in dict.fromkeys(touched):
            old = self._set_of.pop(path, None)
            if old is not None:
                self._memories_with[old] -= 1
            memory = memories.get(path)
            if memory is None:
                continue
            keys = frozenset(memory.frontmatter)
            set_id = self._set_ids.get(keys)
            if set_id is None:
                set_id = self._set_ids[keys] = len(self._sets)
                self._sets.append(keys)
            self._set_of[path] = set_id
            self._memories_with[set_id] += 1

    def keys(self) -> frozenset[str]:
        """Every key some memory uses."""
        used: set[str] = set()
        for set_id, count in self._memories_with.items():
            if count > 0:
                used |= self._sets[set_id]
        return frozenset(used)
