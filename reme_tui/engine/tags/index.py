"""ReMe tag normalization and the two-way tag index (tag -> files, file -> tags)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

# The frontmatter key ReMe reads tags from (configurable: `[index] tag_field`).
DEFAULT_TAG_FIELD = "memory_tags"
MAX_TAG_LENGTH = 64
MAX_TAGS_PER_FILE = 3

OrderBy = Literal["file_count", "tag"]
Order = Literal["asc", "desc"]


class TagError(ValueError):
    """Raised when query tags normalize to nothing."""


@dataclass(frozen=True, slots=True)
class TagVerdict:
    """Why an input item was or was not accepted as a tag."""

    canonical: str | None
    reason: str | None  # None when accepted; else "type", "empty", "too-long", "no-alnum"


def judge_tag(item: Any) -> TagVerdict:
    """Normalize one frontmatter item the way ReMe does, saying why it was rejected."""
    if isinstance(item, bool) or not isinstance(item, str | int):
        return TagVerdict(None, "type")
    joined = "_".join(str(item).split())
    if not joined:
        return TagVerdict(None, "empty")
    if len(joined) > MAX_TAG_LENGTH:
        return TagVerdict(None, "too-long")
    if not any(ch.isalnum() for ch in joined):
        return TagVerdict(None, "no-alnum")
    return TagVerdict(joined.casefold(), None)


def normalize_tag(item: Any) -> str | None:
    """Canonical form of one tag, or None when ReMe would drop it."""
    return judge_tag(item).canonical


def normalize_query_tags(tags: Iterable[Any]) -> list[str]:
    """Normalize query tags (no 3-tag limit), deduplicated in order.

    Raises TagError when tags were given but every one normalizes to nothing.
    """
    given = list(tags)
    seen: dict[str, None] = {}
    for item in given:
        canonical = normalize_tag(item)
        if canonical is not None:
            seen.setdefault(canonical, None)
    if given and not seen:
        raise TagError("tags contained no valid values")
    return list(seen)


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

    def remove_file(self, path: str) -> set[str]:
        return self.set_file(path, ())

    def tags_of(self, path: str) -> tuple[str, ...]:
        return self._tags_by_file.get(path, ())

    def files_with(self, tag: str) -> frozenset[str]:
        return frozenset(self._files_by_tag.get(tag, ()))

    def count(self, tag: str) -> int:
        return len(self._files_by_tag.get(tag, ()))

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
