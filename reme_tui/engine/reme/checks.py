"""Checks that need the whole workspace and ReMe's layout: link roles (memory, source,
missing source, dangling), stale day-index pages, and agent junk tags.

The engine holds the indexes; this module reads them (under the engine's lock) and answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..codes import Code
from ..files import is_memory_path
from ..index import LinkGraph
from ..records import Diagnostic, Memory
from ..tags import TagFix, judge_tag, lint_tags
from .day_index import StaleEntry, day_of_index, stale_entries
from .layout import RemeLayout
from .provenance import Source, SourceChecker, link_role, sources_of

_StaleKey = tuple[str, tuple[tuple[str, str], ...]]

# Link problems listed per memory (issue 23): each wikilink to no memory costs a role check
# (a stat for a source-like target) and a row. A 12 MB memory of 1,000,000 distinct dangling
# links took --diagnostics to 2.7 GB and 365 s; past the cap the rest are counted, not
# checked, and told in one row. No real memory came near: the two sample workspaces peak at
# a handful of links per memory.
MAX_LINK_PROBLEMS = 100


@dataclass(frozen=True, slots=True)
class CheckContext:
    checker: SourceChecker
    known: Mapping[str, str]  # canonical tag -> preferred spelling
    files: Mapping[str, int]  # tag -> how many memories have it


@dataclass(frozen=True, slots=True)
class Tagging:
    """The memories and the tag index's counts at one moment (memories are replaced, never
    changed, by an update, so the tuple stays true to that moment)."""

    memories: tuple[Memory, ...]
    files: Mapping[str, int]


def preferred_spellings(memories: Iterable[Memory]) -> dict[str, str]:
    """Canonical tag -> its most used spelling among ``memories`` (then the first)."""
    counts: Counter[tuple[str, str]] = Counter()
    for memory in memories:
        counts.update(memory.tag_spellings)
    best: dict[str, tuple[int, str]] = {}
    for (canonical, spelling), count in counts.items():
        spelling = " ".join(spelling.split())
        if judge_tag(spelling).canonical != canonical:
            continue
        current = best.get(canonical)
        if current is None or (-count, spelling) < (-current[0], current[1]):
            best[canonical] = (count, spelling)
    return {canonical: spelling for canonical, (_, spelling) in best.items()}


class RemeChecks:
    """Workspace-level ReMe checks over the engine's memories and link graph."""

    def __init__(
        self,
        root: Path,
        layout: RemeLayout,
        tag_field: str,
        memories: Mapping[str, Memory],
        links: Callable[[], LinkGraph],
        read_text: Callable[[str], str | None],
        tag_counts: Callable[[], Mapping[str, int]],
        all_markdown: bool = False,
    ) -> None:
        self._root = root
        self._layout = layout
        self._tag_field = tag_field
        self._memories = memories
        self._graph_of = links  # the engine replaces its graph on every rebuild
        self._read_text = read_text
        self._tag_counts = tag_counts  # canonical tag -> memories filed under it (tag index)
        self._all_markdown = all_markdown
        self._stale_cache: dict[str, tuple[_StaleKey, list[StaleEntry]]] = {}

    @property
    def _links(self) -> LinkGraph:
        return self._graph_of()

    # -- links and sources -------------------------------------------------------

    def _looks_like_memory(self, target: str) -> bool:
        return is_memory_path(
            target, all_markdown=self._all_markdown, roots=self._layout.memory_roots
        )

    def sources(self, path: str, checker: SourceChecker | None = None) -> list[Source]:
        memory = self._memories.get(path)
        if memory is None:
            return []
        return sources_of(
            memory.field_links,
            memory.links,
            is_indexed=self._memories.__contains__,
            looks_like_memory=self._looks_like_memory,
            checker=checker or SourceChecker(self._root),
            layout=self._layout,
        )

    def dangling(self, path: str, checker: SourceChecker | None = None) -> list[str]:
        """Targets of `path` that are neither memories nor sources (existing or missing)."""
        checker = checker or SourceChecker(self._root)
        return [
            target
            for target in self._links.dangling_from(path)
            if self._role(target, checker) == "dangling"
        ]

    def _role(self, target: str, checker: SourceChecker) -> str:
        return link_role(
            target,
            is_indexed=self._memories.__contains__,
            looks_like_memory=self._looks_like_memory,
            checker=checker,
            layout=self._layout,
        )

    def link_diagnostics(self, path: str, checker: SourceChecker) -> list[Diagnostic]:
        memory = self._memories[path]
        found: list[Diagnostic] = []
        unlinked = set(self._links.dangling_from(path))
        stale_missing = {e.target for e in self.stale(path) if e.reason == "missing"}
        unchecked: list[int | None] = []  # lines of the links past the cap
        for link in memory.links:
            if link.target not in unlinked or link.target in stale_missing:
                continue
            if len(found) >= MAX_LINK_PROBLEMS:
                unchecked.append(link.line)
                continue
            role = self._role(link.target, checker)
            if role == "dangling":
                found.append(
                    Diagnostic(
                        path,
                        link.line,
                        Code.LINK_DANGLING,
                        f"[[{link.target}]] does not name a memory in this workspace",
                    )
                )
            elif role == "missing-source":
                found.append(_missing_source(path, link.line, link.target, None))
        for field_link in memory.field_links:
            if field_link.target in self._memories:
                continue
            if len(found) >= MAX_LINK_PROBLEMS:
                unchecked.append(field_link.line)
            elif not checker.exists(field_link.target):
                found.append(
                    _missing_source(path, field_link.line, field_link.target, field_link.field)
                )
        if unchecked:
            found.append(_more_links(path, unchecked[0], len(unchecked)))
        return found

    # -- day-index pages ---------------------------------------------------------

    def stale(self, path: str) -> list[StaleEntry]:
        """Out-of-date entries when `path` is a day-index page (cached by content)."""
        day = day_of_index(path, self._layout.daily_dir)
        memory = self._memories.get(path)
        if day is None or memory is None:
            return []
        folder = f"{self._layout.daily_dir}/{day}/"
        notes = sorted(
            p
            for p in self._memories
            if p.startswith(folder) and "/" not in p[len(folder) :] and p.endswith(".md")
        )
        listed = [e.target for e in self._links.outlinks(path)]
        listed += self._links.dangling_from(path)
        key: _StaleKey = (
            memory.content_hash,
            tuple(
                (p, m.content_hash if (m := self._memories.get(p)) else "")
                for p in sorted({*notes, *listed})
            ),
        )
        cached = self._stale_cache.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = self._read_text(path)
        entries = (
            []
            if text is None
            else stale_entries(path, text, self._layout.daily_dir, self._memories.get, notes)
        )
        self._stale_cache[path] = (key, entries)
        return entries

    # -- agent junk tags ---------------------------------------------------------

    def preferred_spellings(self) -> dict[str, str]:
        """Canonical tag -> its most used spelling in the workspace (then the first)."""
        return preferred_spellings(self._memories.values())

    def tag_lints(
        self, path: str, known: Mapping[str, str], files: Mapping[str, int]
    ) -> tuple[list[Diagnostic], TagFix | None]:
        memory = self._memories[path]
        if self._tag_field not in memory.frontmatter:
            return [], None
        line = memory.tag_line
        result = lint_tags(path, memory.frontmatter[self._tag_field], line, known, files)
        return list(result.diagnostics), result.fix

    def tag_fixes(self) -> dict[str, TagFix]:
        known = self.preferred_spellings()
        files = self._tag_counts()
        fixes: dict[str, TagFix] = {}
        for path in sorted(self._memories):
            _diagnostics, fix = self.tag_lints(path, known, files)
            if fix is not None:
                fixes[path] = fix
        return fixes

    # -- everything --------------------------------------------------------------

    def diagnostics(
        self,
        path: str,
        checker: SourceChecker,
        known: Mapping[str, str],
        files: Mapping[str, int],
    ) -> list[Diagnostic]:
        found = self.link_diagnostics(path, checker)
        found.extend(entry.diagnostic() for entry in self.stale(path))
        found.extend(self.tag_lints(path, known, files)[0])
        return found

    def tagging(self) -> Tagging:
        """What `context_of` needs, taken under the engine's lock (~1 ms at 50,000
        memories) so that the work can be done outside it."""
        return Tagging(tuple(self._memories.values()), self._tag_counts())

    def context_of(self, tagging: Tagging) -> CheckContext:
        """What every memory's checks share, worked out once for a whole pass from a
        `tagging` taken earlier (under the lock): the spellings' count reads every
        memory (~30 ms of CPU at 50,000), and under the lock a search typed during a
        burst waited for it at the start of each diagnostics pass (issue 19)."""
        return CheckContext(
            SourceChecker(self._root), preferred_spellings(tagging.memories), tagging.files
        )

    def diagnostics_of(self, paths: Iterable[str], context: CheckContext) -> list[Diagnostic]:
        """Each memory's own problems (from its parse), then its workspace checks; paths
        no longer indexed are skipped (a pass in slices sees updates between them)."""
        found: list[Diagnostic] = []
        for path in paths:
            memory = self._memories.get(path)
            if memory is None:
                continue
            found.extend(memory.diagnostics)
            found.extend(self.diagnostics(path, context.checker, context.known, context.files))
        return found

    def forget(self, paths: set[str]) -> None:
        for path in paths:
            self._stale_cache.pop(path, None)


def _missing_source(path: str, line: int | None, target: str, field: str | None) -> Diagnostic:
    where = f"`{field}` names" if field else "links to"
    return Diagnostic(
        path,
        line,
        Code.SOURCE_MISSING,
        f"{where} the source [[{target}]], which is not in the workspace",
    )


def _more_links(path: str, line: int | None, count: int) -> Diagnostic:
    return Diagnostic(
        path,
        line,
        Code.LINK_DANGLING,
        f"{count:,} more wikilinks to no indexed memory were not checked one by one "
        f"(at most {MAX_LINK_PROBLEMS} link problems are listed per memory)",
    )
