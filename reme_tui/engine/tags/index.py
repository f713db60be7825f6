"""The two-way tag index (tag -> files, file -> tags), derived only from parsed files."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

OrderBy = Literal["file_count", "tag"]
Order = Literal["asc", "desc"]


class TagIndex:
    """tag -> files and file -> tags, derived only from parsed files."""

    def __init__(self) -> None:
        self._files_by_tag: dict[str, set[str]] = {}
        self._tags_by_file: dict[str, tuple[str, ...]] = {}

    def set_file(self, path: str, tags: Iterable[str]) -> set[str]:
        """Replace a file's tags; returns the tags whose file counts moved."""
        new = tuple(dict.fromkeys(tags))
        old = self._tags_by_file.get(path, ())
        if new == old:
            return set()
        for tag in old:
            files = self._files_by_tag.get(tag)
            if files is not None:
                files.discard(path)
                if not files:
                    del self._files_by_tag[tag]
        if new:
            self._tags_by_file[path] = new
            for tag in new:
                self._files_by_tag.setdefault(tag, set()).add(path)
        else:
            self._tags_by_file.pop(path, None)
        return set(old).symmetric_difference(new)

    def load(self, files: Iterable[tuple[str, Iterable[str]]]) -> None:
        """Every file's tags at once, into an empty index (warm starts)."""
        tags_by_file = self._tags_by_file
        files_by_tag = self._files_by_tag
        for path, tags in files:
            new = tuple(dict.fromkeys(tags))
            if new:
                tags_by_file[path] = new
                for tag in new:
                    holders = files_by_tag.get(tag)
                    if holders is None:
                        files_by_tag[tag] = {path}
                    else:
                        holders.add(path)

    def remove_file(self, path: str) -> set[str]:
        return self.set_file(path, ())

    def tags_of(self, path: str) -> tuple[str, ...]:
        return self._tags_by_file.get(path, ())

    def files_with(self, tag: str) -> frozenset[str]:
        return frozenset(self._files_by_tag.get(tag, ()))

    def count(self, tag: str) -> int:
        return len(self._files_by_tag.get(tag, ()))

    def file_counts(self) -> dict[str, int]:
        """Tag -> how many files carry it."""
        return {tag: len(files) for tag, files in self._files_by_tag.items()}

    def __len__(self) -> int:
        return len(self._files_by_tag)

    def files_any(self, tags: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for tag in tags:
            out |= self._files_by_tag.get(tag, set())
        return out

    def files_all(self, tags: Iterable[str]) -> set[str]:
        wanted = list(tags)
        if not wanted:
            return set()
        sets = sorted((self._files_by_tag.get(t, set()) for t in wanted), key=len)
        out = set(sets[0])
        for other in sets[1:]:
            out &= other
        return out

    def list_tags(
        self, order_by: OrderBy = "file_count", order: Order | None = None
    ) -> list[tuple[str, int]]:
        """Items (tag, file_count); ties always broken by tag ascending."""
        items = [(tag, len(files)) for tag, files in self._files_by_tag.items()]
        if order_by == "tag":
            descending = order == "desc"
            items.sort(key=lambda item: item[0], reverse=descending)
        elif order_by == "file_count":
            descending = order != "asc"
            sign = -1 if descending else 1
            items.sort(key=lambda item: (sign * item[1], item[0]))
        else:
            raise ValueError(f"unknown order_by {order_by!r}; use 'file_count' or 'tag'")
        return items

    def snapshot(self) -> dict[str, tuple[str, ...]]:
        return dict(self._tags_by_file)
