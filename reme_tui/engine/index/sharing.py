"""Equal strings held once across the indexed records.

Decoding a saved index gives every record its own copy of every string, and files parsed
in worker processes come back one pickle each, so strings that many records repeat were
held many times over (issue 19, 50,000 memories warm: ~60 MB of copies): a chunk's path
is its memory's path; the ~1,100 distinct tags and their spellings were ~200,000 strings
and ~100,000 (tag, spelling) pairs; a link's target is the path of the memory it names;
a few thousand distinct dates; the frontmatter's values repeat the name, the description
and the tags.

Replacing a field of a record by an *equal* string is invisible to every reader (equality,
hashing and order do not change), so the records are made to share in place, just before
they are indexed, while nothing else reads them yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ..records import Memory

# The pool forgets everything past this many strings (tags and dates no longer in any
# memory are not tracked one by one); later records share among themselves again.
POOL_LIMIT = 1 << 16
# Longer strings are rarely repeated; they are not pooled.
_POOLED_CHARS = 128


def _set(record: object, name: str, value: object) -> None:
    """Set a field of a frozen record (to an equal value: see the module docstring)."""
    object.__setattr__(record, name, value)


class StringPool:
    """One copy of each tag, spelling and date among the indexed memories."""

    def __init__(self) -> None:
        self._strings: dict[str, str] = {}
        self._pairs: dict[tuple[str, str], tuple[str, str]] = {}

    def clear(self) -> None:
        self._strings = {}
        self._pairs = {}

    def __len__(self) -> int:
        return len(self._strings) + len(self._pairs)

    def text(self, value: str) -> str:
        """The pooled copy of ``value`` (``value`` itself the first time, or when long)."""
        if len(value) > _POOLED_CHARS:
            return value
        strings = self._strings
        pooled = strings.get(value)
        if pooled is None:
            if len(strings) >= POOL_LIMIT:
                self.clear()
                strings = self._strings
            pooled = strings[value] = value
        return pooled

    def _pair(self, pair: tuple[str, str]) -> tuple[str, str]:
        pooled = self._pairs.get(pair)
        if pooled is None:
            if len(self._pairs) >= POOL_LIMIT:
                self._pairs = {}
            pooled = self._pairs[pair] = (self.text(pair[0]), self.text(pair[1]))
        return pooled

    def share(self, memory: Memory, path_of: Callable[[str], str | None]) -> None:
        """Make ``memory`` hold the pooled strings, and the one copy of its path (its
        chunks too) and of the paths its links name (``path_of``: that copy, None if
        there is none yet)."""
        path = path_of(memory.path)
        if path is None:
            path = memory.path
        elif path is not memory.path:
            _set(memory, "path", path)
        for chunk in memory.chunks:
            if chunk.path is not path and chunk.path == path:
                _set(chunk, "path", path)
        if memory.tags:
            _set(memory, "tags", tuple(map(self.text, memory.tags)))
        if memory.tag_spellings:
            _set(memory, "tag_spellings", tuple(map(self._pair, memory.tag_spellings)))
        if memory.date is not None:
            _set(memory, "date", self.text(memory.date))
        for link in memory.links:
            target = path_of(link.target)
            if target is not None and target is not link.target:
                _set(link, "target", target)
        if memory.frontmatter:
            self._share_frontmatter(memory)

    def _share_frontmatter(self, memory: Memory) -> None:
        """Top-level values (and the items of top-level lists) equal to the memory's name,
        description or a pooled string become that string."""
        own = {s: s for s in (memory.name, memory.description) if s is not None}
        frontmatter = memory.frontmatter
        for key, value in frontmatter.items():
            if isinstance(value, str):
                frontmatter[key] = self._shared(value, own)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        value[i] = self._shared(item, own)

    def _shared(self, value: str, own: dict[str, str]) -> str:
        mine = own.get(value)
        if mine is not None:
            return mine
        pooled = self._strings.get(value)
        return value if pooled is None else pooled


def paths_in(memories: Mapping[str, Memory]) -> Callable[[str], str | None]:
    """`StringPool.share`'s ``path_of`` over memories by path: a memory's own path."""

    def path_of(target: str) -> str | None:
        memory = memories.get(target)
        return None if memory is None else memory.path

    return path_of


def one_copy(paths: Iterable[str]) -> Callable[[str], str | None]:
    """`StringPool.share`'s ``path_of`` over known paths (the first copy of each)."""
    copies: dict[str, str] = {}
    for path in paths:
        copies.setdefault(path, path)
    return copies.get


def share_all(pool: StringPool, memories: list[Memory]) -> dict[str, Memory]:
    """Every memory made to share (links to any of them included); by path."""
    by_path = {m.path: m for m in memories}
    path_of = paths_in(by_path)
    for memory in memories:
        pool.share(memory, path_of)
    return by_path
