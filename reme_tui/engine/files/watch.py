"""Filesystem events -> batches of workspace-relative paths for `Engine.apply`.

watchfiles already coalesces events inside one debounce window; here they are reduced to
one entry per path, filtered to what can affect the index (memories, and directories whose
creation, deletion or move carries memories), and ordered deterministically.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path

import watchfiles

from .workspace import MEMORY_ROOTS, PathOutsideWorkspace, is_memory_path, to_relative

# Wait at most this long (ms) to grow a batch, and this long (ms) of quiet to close one.
DEFAULT_DEBOUNCE_MS = 150
DEFAULT_STEP_MS = 30

_IGNORED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules"})


# Absolute paths the index depends on although they are not memories (symlink targets).
AlsoWatched = Callable[[str], bool]


class MemoryFilter(watchfiles.DefaultFilter):
    """Keep events that can change the index; drop editor swap files and VCS internals.

    A folder whose name has a dot (`digest/proj.v1`) looks like a non-memory file by name
    alone, yet renaming or deleting it moves every memory inside (the OS reports only the
    folder). So such names are kept when they are a directory now, or were one: folders
    with dotted names are remembered from a walk at start and from later events.
    """

    def __init__(
        self,
        root: Path,
        *,
        all_markdown: bool = False,
        also: AlsoWatched | None = None,
        roots: tuple[str, ...] = MEMORY_ROOTS,
    ) -> None:
        super().__init__(ignore_dirs=tuple(_IGNORED_DIRS))
        self._root = root
        self._all_markdown = all_markdown
        self._also = also
        self._roots = roots
        self._dotted_dirs: set[str] = _dotted_dirs(root, all_markdown, roots)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        try:
            rel = to_relative(self._root, path)
        except PathOutsideWorkspace:
            return False
        if is_memory_path(
            rel, all_markdown=self._all_markdown, roots=self._roots
        ) and not _IGNORED_DIRS.intersection(rel.split("/")):
            return True  # a scan indexes it: no name pattern (`.#x.md`, `flycheck_x`) hides it
        if self._also is not None and self._also(path):
            return True  # the target (or part of the chain) of a symlinked memory or folder
        if not super().__call__(change, path):
            return False
        if relevant(rel, all_markdown=self._all_markdown, roots=self._roots):
            return True
        if not _could_be_dotted_dir(rel, self._all_markdown, self._roots):
            return False
        if change != watchfiles.Change.deleted and os.path.isdir(path):
            self._dotted_dirs.add(rel)
            return True
        if rel in self._dotted_dirs:
            if change == watchfiles.Change.deleted:
                self._dotted_dirs.discard(rel)
            return True
        return False


def _inside_roots(rel: str, roots: tuple[str, ...]) -> bool:
    """`rel` is strictly inside one of the memory roots."""
    return any(rel.startswith(root + "/") for root in roots)


def _toward_roots(rel: str, roots: tuple[str, ...]) -> bool:
    """`rel` is a memory root, inside one, or a folder on the way to one."""
    return any(
        rel == root or rel.startswith(root + "/") or root.startswith(rel + "/") for root in roots
    )


def _could_be_dotted_dir(rel: str, all_markdown: bool, roots: tuple[str, ...]) -> bool:
    """Not relevant by name, but a folder of that name could hold memories."""
    if "/" not in rel or (not all_markdown and not _inside_roots(rel, roots)):
        return False
    return not rel.rsplit("/", 1)[-1].startswith(".")


def _dotted_dirs(root: Path, all_markdown: bool, roots: tuple[str, ...]) -> set[str]:
    """Folders under the memory roots whose names contain a dot (not hidden ones)."""
    found: set[str] = set()
    tops = [""] if all_markdown else list(roots)
    for top in tops:
        for dirpath, dirnames, _files in os.walk(root / top if top else root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in _IGNORED_DIRS]
            rel_dir = Path(dirpath).relative_to(root).as_posix()
            for name in dirnames:
                if "." in name:
                    found.add(f"{rel_dir}/{name}" if rel_dir != "." else name)
    return found


def relevant(
    rel: str, *, all_markdown: bool = False, roots: tuple[str, ...] = MEMORY_ROOTS
) -> bool:
    """Could a change at `rel` move the index? Memories, and anything that may be a folder."""
    if rel == "":
        return True
    if not all_markdown and not _toward_roots(rel, roots):
        return False
    name = rel.rsplit("/", 1)[-1]
    if name.startswith(".") and not name.lower().endswith(".md"):
        return False  # hidden temp files (our own atomic writes, editors' scratch files)
    return name.lower().endswith(".md") or "." not in name


def batch_paths(root: Path, changes: Iterable[tuple[watchfiles.Change, str]]) -> list[str]:
    """One relative path per touched entry, sorted; paths outside the root are dropped."""
    out: set[str] = set()
    for _change, path in changes:
        try:
            out.add(to_relative(root, path))
        except PathOutsideWorkspace:
            continue
    return sorted(out)


# How often an armed watcher with nothing to report hands control back (see watch_batches).
ARMED_CHECK_MS = 250
WHOLE_WORKSPACE = ""  # a batch entry meaning "rescan everything" (Engine.apply rescans it)


def watch_batches(
    root: Path,
    *,
    stop_event: threading.Event | None = None,
    all_markdown: bool = False,
    also: AlsoWatched | None = None,
    roots: tuple[str, ...] = MEMORY_ROOTS,
    debounce_ms: int = DEFAULT_DEBOUNCE_MS,
    step_ms: int = DEFAULT_STEP_MS,
    rescan_when_armed: bool = False,
) -> Iterator[list[str]]:
    """Blocking: yield batches of changed relative paths until `stop_event` is set.

    With ``rescan_when_armed``, the first batch, yielded as soon as the watcher is
    watching, is ``[WHOLE_WORKSPACE]``: what changed between the caller's scan and the
    watcher taking hold (an agent writing right after the first results) is caught by
    rescanning once, not lost. watchfiles hands control back only on changes, so it is
    asked to yield on a short timeout as well; the first yield of any kind proves it armed.
    """
    armed = not rescan_when_armed
    for changes in watchfiles.watch(
        root,
        watch_filter=MemoryFilter(root, all_markdown=all_markdown, also=also, roots=roots),
        debounce=debounce_ms,
        step=step_ms,
        stop_event=stop_event,
        rust_timeout=ARMED_CHECK_MS if rescan_when_armed else 5_000,
        yield_on_timeout=rescan_when_armed,
        raise_interrupt=False,
        ignore_permission_denied=True,
    ):
        if not armed:
            armed = True
            yield [WHOLE_WORKSPACE]
        batch = batch_paths(root, changes)
        if batch:
            yield batch


async def awatch_batches(
    root: Path,
    *,
    stop_event: object | None = None,
    all_markdown: bool = False,
    also: AlsoWatched | None = None,
    roots: tuple[str, ...] = MEMORY_ROOTS,
    debounce_ms: int = DEFAULT_DEBOUNCE_MS,
    step_ms: int = DEFAULT_STEP_MS,
    on_start: Callable[[], None] | None = None,
) -> AsyncIterator[list[str]]:
    """Async variant for the app (an `asyncio.Event` or `anyio.Event` stops it).
    ``on_start`` is called once the filter is set up, as the watcher starts."""
    watch_filter = MemoryFilter(root, all_markdown=all_markdown, also=also, roots=roots)
    if on_start is not None:
        on_start()
    async for changes in watchfiles.awatch(
        root,
        watch_filter=watch_filter,
        debounce=debounce_ms,
        step=step_ms,
        stop_event=stop_event,
        ignore_permission_denied=True,
    ):
        batch = batch_paths(root, changes)
        if batch:
            yield batch


def root_is_gone(root: Path) -> bool:
    """True when the workspace directory itself was deleted or moved away."""
    return not os.path.isdir(root)
