"""Back/forward history of everything opened in the preview."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Visit:
    path: str
    line: int | None = None
    browsing: bool = False  # came from moving the results cursor; coalesces with the next one


class History:
    """A browser-style history. Cursor-browsing visits replace each other instead of piling up."""

    def __init__(self, limit: int = 200) -> None:
        self._visits: list[Visit] = []
        self._index = -1
        self._limit = limit

    @property
    def current(self) -> Visit | None:
        return self._visits[self._index] if self._index >= 0 else None

    @property
    def can_back(self) -> bool:
        return self._index > 0

    @property
    def can_forward(self) -> bool:
        return self._index < len(self._visits) - 1

    def __len__(self) -> int:
        return len(self._visits)

    def visit(self, visit: Visit) -> None:
        current = self.current
        if current is not None and current.path == visit.path:
            self._visits[self._index] = visit
            return
        del self._visits[self._index + 1 :]
        if current is not None and current.browsing and visit.browsing:
            self._visits[self._index] = visit
            return
        self._visits.append(visit)
        if len(self._visits) > self._limit:
            del self._visits[0]
        self._index = len(self._visits) - 1

    def back(self) -> Visit | None:
        if not self.can_back:
            return None
        self._index -= 1
        return self.current

    def forward(self) -> Visit | None:
        if not self.can_forward:
            return None
        self._index += 1
        return self.current

    def forget(self, path: str) -> None:
        """Drop a deleted memory from the history."""
        keep = [v for v in self._visits if v.path != path]
        if len(keep) == len(self._visits):
            return
        current = self.current
        self._visits = keep
        if current is not None and current in keep:
            self._index = keep.index(current)
        else:
            self._index = len(keep) - 1
