"""What the history records and answers: observed memories, change entries, filters."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from ..tags import normalize_tag

KINDS = ("created", "modified", "deleted", "moved")

# "editor": the person's own edit in $EDITOR, opened from the app with `e`.
SOURCES = ("start", "watch", "edit", "editor", "merge", "undo", "revert")


class HistoryError(RuntimeError):
    """The history cannot be opened, read or written (damaged, unwritable, refused)."""


def content_key(data: bytes) -> str:
    """The blob key: the engine's own content hash, so a start compares without reading."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class Observed:
    """One memory as a change left it: its bytes (None when gone), tags and name."""

    path: str
    data: bytes | None
    tags: tuple[str, ...] = ()
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeEntry:
    """One recorded change to one memory."""

    id: int
    group: int
    time_ns: int
    kind: str
    path: str
    old_path: str | None
    old_hash: str | None
    new_hash: str | None
    name: str | None
    tags_before: tuple[str, ...]
    tags_after: tuple[str, ...]
    added: int
    removed: int
    note: str
    reviewed: bool
    source: str
    label: str
    undo: str | None

    @property
    def tags_added(self) -> tuple[str, ...]:
        return tuple(t for t in self.tags_after if t not in self.tags_before)

    @property
    def tags_removed(self) -> tuple[str, ...]:
        return tuple(t for t in self.tags_before if t not in self.tags_after)

    @property
    def summary(self) -> str:
        """One line: "tags: a → b", "+12 −3 lines", "moved from …"."""
        parts: list[str] = []
        if self.kind == "moved" and self.old_path:
            parts.append(f"moved from {self.old_path}")
        elif self.kind == "created":
            parts.append(f"new, {self.added} lines")
        elif self.kind == "deleted":
            parts.append(f"deleted ({self.removed} lines)")
        removed, added = self.tags_removed, self.tags_added
        if self.kind in ("modified", "moved") and (removed or added):
            if removed and added:
                parts.append(f"tags: {', '.join(removed)} → {', '.join(added)}")
            elif added:
                parts.append(f"tags: +{', '.join(added)}")
            else:
                parts.append(f"tags: −{', '.join(removed)}")
        if self.note:
            parts.append(self.note)
        if self.kind in ("modified", "moved") and (self.added or self.removed):
            parts.append(f"+{self.added} −{self.removed} lines")
        if not parts:
            parts.append("same text" if self.kind == "moved" else "whitespace or bytes only")
        return "; ".join(parts)


@dataclass
class RecordResult:
    """What one ``record`` call stored."""

    group: int | None = None
    entries: list[ChangeEntry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class HistoryStats:
    entries: int
    unreviewed: int
    blobs: int
    size_bytes: int


def line_counts(old: bytes | None, new: bytes | None) -> tuple[int, int]:
    """(added, removed) lines from old to new, as multisets of lines: O(n) on the live
    path, where a real diff can be quadratic; a line moved elsewhere counts as unchanged
    (the diff view shows the move)."""
    old_lines = Counter(text_lines(old))
    new_lines = Counter(text_lines(new))
    return sum((new_lines - old_lines).values()), sum((old_lines - new_lines).values())


def text_lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    return data.decode("utf-8", errors="replace").splitlines()


@dataclass(frozen=True, slots=True)
class ChangeFilter:
    """What the Changes view and ``--changes`` narrow the timeline to."""

    kinds: frozenset[str] = frozenset()
    tag: str | None = None
    path_prefix: str | None = None
    unreviewed: bool = False

    @classmethod
    def parse(cls, text: str, *, unreviewed: bool = False) -> ChangeFilter:
        """``kind:modified tag:project_atlas path:digest/``; a bare word is a path prefix."""
        kinds: set[str] = set()
        tag = prefix = None
        for word in text.split():
            key, sep, value = word.partition(":")
            if sep and key == "kind":
                kinds |= {k for k in value.split(",") if k in KINDS}
            elif sep and key == "tag":
                tag = value
            elif sep and key == "path":
                prefix = value
            else:
                prefix = word
        return cls(frozenset(kinds), tag, prefix, unreviewed)

    def matches(self, entry: ChangeEntry) -> bool:
        if self.unreviewed and entry.reviewed:
            return False
        if self.kinds and entry.kind not in self.kinds:
            return False
        if self.path_prefix and not (
            entry.path.startswith(self.path_prefix)
            or (entry.old_path or "").startswith(self.path_prefix)
        ):
            return False
        if self.tag:
            wanted = normalize_tag(self.tag) or self.tag.casefold()
            if wanted not in entry.tags_before and wanted not in entry.tags_after:
                return False
        return True

    @property
    def is_empty(self) -> bool:
        return not (self.kinds or self.tag or self.path_prefix or self.unreviewed)
