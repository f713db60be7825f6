"""Which symlinks in the workspace a change elsewhere affects (live index == cold build).

A watcher reports the path that changed, not the symlinks that lead to it: when
``digest/a.md`` changes, a memory ``daily/l.md -> ../digest/a.md`` changed too; when a
file appears in ``notes/real/``, it appears in ``digest/linked -> ../notes/real`` as well;
when a link in a chain (``l.md -> m.md -> a.md``) is replaced by one pointing outside,
``l.md`` leaves the index. ``LinkMap`` remembers every symlink the scans met, with every
location its chain passes through, and says which of them a changed path touches.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

_MAX_HOPS = 40  # the kernel's own limit for symlink chains


def entry_location(path: str) -> str:
    """Where a directory entry really is: its directory resolved, its name kept."""
    head, name = os.path.split(path)
    return os.path.join(os.path.realpath(head), name)


def _chain(path: str) -> tuple[frozenset[str], str]:
    """Every entry a symlink's chain passes through, and where it ends (resolved)."""
    hops: set[str] = set()
    current = entry_location(path)
    for _ in range(_MAX_HOPS):
        hops.add(current)
        try:
            target = os.readlink(current)
        except OSError:
            break  # not a link (the end), or gone
        current = entry_location(os.path.join(os.path.dirname(current), target))
    return frozenset(hops), os.path.realpath(path)


@dataclass(frozen=True, slots=True)
class _Link:
    hops: frozenset[str]
    end: str


class LinkMap:
    """The symlinks under one root, by workspace-relative path."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = os.fspath(root)
        self._links: dict[str, _Link] = {}

    def __len__(self) -> int:
        return len(self._links)

    def clear(self) -> None:
        self._links.clear()

    def record(self, rel: str, abs_path: str | os.PathLike[str] | None = None) -> None:
        path = os.fspath(abs_path) if abs_path is not None else os.path.join(self.root, rel)
        hops, end = _chain(path)
        self._links[rel] = _Link(hops, end)

    def affected(self, rel: str) -> set[str]:
        """The recorded links whose target may have changed when ``rel`` changed.

        Also re-records a link found at ``rel`` itself and forgets links that are gone.
        """
        path = os.path.join(self.root, rel) if rel else self.root
        if os.path.islink(path):
            self.record(rel, path)
        if not self._links:
            return set()
        where = _where(path)
        out: set[str] = set()
        for link_rel, link in list(self._links.items()):
            if link_rel == rel:
                continue
            if not os.path.islink(os.path.join(self.root, link_rel)):
                del self._links[link_rel]
                out.add(link_rel)
                continue
            if _touches(link, where):
                self.record(link_rel)
                out.add(link_rel)
        return out

    def touches(self, abs_path: str | os.PathLike[str]) -> bool:
        """Whether a change at ``abs_path`` may concern a recorded link (for the watcher,
        which otherwise ignores paths that are not memories, e.g. ``notes/real/x.md``)."""
        if not self._links:
            return False
        where = _where(os.fspath(abs_path))
        return any(_touches(link, where) for link in list(self._links.values()))


def _where(path: str) -> set[str]:
    return {entry_location(path), os.path.realpath(path)}


def _touches(link: _Link, where: set[str]) -> bool:
    inside = tuple(w.rstrip(os.sep) + os.sep for w in where)
    return (
        not where.isdisjoint(link.hops)
        or link.end in where
        or link.end.startswith(inside)  # a directory holding the target changed
        or any(w.startswith(link.end.rstrip(os.sep) + os.sep) for w in where)
    )
