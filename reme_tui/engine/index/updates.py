"""What a change of the workspace means for the index, worked out before the index is touched.

The watcher (or a write) names paths; the planner turns them into an `Update`: which memories
to read again (read and parsed here, without the index lock, so searches go on meanwhile)
and which known paths to drop. Directories are rescanned, symlinks that point at a changed
path are followed as a cold build would follow them, and a path leading outside the
workspace is never read.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..files import (
    FoundFile,
    LinkMap,
    PathOutsideWorkspace,
    is_memory_path,
    resolves_inside,
    scan,
    to_relative,
)
from ..records import Diagnostic
from .loader import reread_many
from .state import IndexState, Update


@dataclass(frozen=True, slots=True)
class Scope:
    """Which files are memories and how they are read (from the engine's config)."""

    tag_field: str
    max_file_bytes: int
    all_markdown: bool
    roots: tuple[str, ...]


def dir_identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


class Planner:
    """Plans updates for one workspace against the memories the index holds now."""

    def __init__(
        self,
        root: Path,
        scope: Scope,
        symlinks: LinkMap,
        state: IndexState,
    ) -> None:
        self.root = root
        self.scope = scope
        self._root_real = os.path.realpath(root)
        self._root_identity = dir_identity(root)
        self._symlinks = symlinks
        self._state = state  # read only here (appliers run one at a time)

    def scan_all(self) -> tuple[list[FoundFile], list[Diagnostic]]:
        """Every memory on disk now, and what the scan could not follow or read."""
        diagnostics: list[Diagnostic] = []
        self._symlinks.clear()
        found = list(
            scan(
                self.root,
                all_markdown=self.scope.all_markdown,
                on_diagnostic=diagnostics.append,
                on_symlink=self._symlinks.record,
                roots=self.scope.roots,
            )
        )
        return found, diagnostics

    def plan(self, changes: Iterable[str | os.PathLike[str]]) -> Update | None:
        """Read and parse what changed (None: the workspace itself is gone or replaced)."""
        if not self.root.is_dir() or dir_identity(self.root) != self._root_identity:
            return None
        update = Update()
        gone: set[str] = set()
        rescanned: dict[str, set[str]] = {}
        wanted: dict[str, FoundFile] = {}
        for rel in self._with_symlinks(changes):
            abs_path = self.root / rel if rel else self.root
            if not rel or abs_path.is_dir():
                if abs_path.is_symlink() and not resolves_inside(self._root_real, abs_path):
                    gone.add(rel)  # a symlinked directory leading outside: not followed
                else:
                    rescanned[rel] = self._rescan_dir(rel, wanted)
            elif is_memory_path(
                rel, all_markdown=self.scope.all_markdown, roots=self.scope.roots
            ) and (abs_path.is_file()):
                found = self._find_single(rel)
                if found is not None:
                    wanted.setdefault(found.rel, found)
                else:
                    gone.add(rel)
            else:
                gone.add(rel)
        self.plan_rereads(list(wanted.values()), update)
        update.forget = self._paths_to_forget(gone, rescanned, update)
        return update

    def plan_rereads(self, items: list[FoundFile], update: Update) -> None:
        """Read ``items`` again (those not in ``update`` yet) against the records held."""
        items = [item for item in items if item.rel not in update.rereads]
        rereads = reread_many(
            [(item, self._state.memories.get(item.rel)) for item in items],
            self.scope.tag_field,
            self.scope.max_file_bytes,
            self._root_real,
        )
        update.rereads.update(zip((item.rel for item in items), rereads, strict=True))

    def _with_symlinks(self, changes: Iterable[str | os.PathLike[str]]) -> list[str]:
        """The changed paths (relative, inside), then every symlink whose target they
        touch: the watcher reports the target, a cold build would see the link change."""
        out: dict[str, None] = {}
        for change in changes:
            try:
                out[to_relative(self.root, change)] = None
            except PathOutsideWorkspace:
                continue
        for rel in list(out):
            for link in sorted(self._symlinks.affected(rel)):
                out.setdefault(link, None)
        return list(out)

    def _rescan_dir(self, rel: str, wanted: dict[str, FoundFile]) -> set[str]:
        seen: set[str] = set()
        for item in scan(
            self.root,
            start=rel,
            all_markdown=self.scope.all_markdown,
            on_symlink=self._symlinks.record,
            roots=self.scope.roots,
        ):
            seen.add(item.rel)
            wanted.setdefault(item.rel, item)
        return seen

    def _paths_to_forget(
        self, gone: set[str], rescanned: dict[str, set[str]], update: Update
    ) -> list[str]:
        """One pass over known paths: those at or under a gone path, or under a rescanned
        directory without having been seen by its scan, or that are now themselves a
        directory (a file replaced by a folder of the same name)."""
        if not gone and not rescanned:
            return []
        forget: list[str] = []
        for path in dict.fromkeys([*self._state.memories, *self._state.failures, *update.rereads]):
            if path in gone or path in rescanned:
                forget.append(path)
                continue
            parts = path.split("/")
            for depth in range(len(parts) - 1, -1, -1):
                prefix = "/".join(parts[:depth])
                if depth and prefix in gone:
                    forget.append(path)
                    break
                seen = rescanned.get(prefix)
                if seen is not None:
                    if path not in seen:
                        forget.append(path)
                    break
        return forget

    def _find_single(self, rel: str) -> FoundFile | None:
        """The file as a scan would see it (symlink policy included), or None."""
        abs_path = self.root / rel
        if abs_path.is_symlink() and not resolves_inside(self._root_real, abs_path):
            return None
        if any(p.is_symlink() for p in abs_path.parents if self.root in p.parents):
            parent, _, _ = rel.rpartition("/")
            for item in scan(
                self.root,
                start=parent,
                all_markdown=self.scope.all_markdown,
                roots=self.scope.roots,
            ):
                if item.rel == rel:
                    return item
            return None
        return FoundFile(rel, abs_path)
