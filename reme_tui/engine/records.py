"""Plain records shared by every engine module (no behaviour beyond trivial helpers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import textpack
from .codes import Code, Severity

# A chunk's identity: (path, start_line).
DocKey = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One thing the reference would silently drop or could not read."""

    path: str
    line: int | None
    code: Code
    message: str

    @property
    def severity(self) -> Severity:
        return Code.of(self.code).severity

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True, eq=False)
class Chunk:
    """A searchable slice of a memory's body; lines are 1-based over the whole file.

    Its text is held packed (`textpack`: most of the index's memory is chunk text) and
    unpacked by every read of ``text``; make one with `Chunk.of`. Equal chunks have equal
    texts, whatever their packed bytes."""

    path: str
    start_line: int
    end_line: int
    packed: bytes

    @classmethod
    def of(cls, path: str, start_line: int, end_line: int, text: str) -> Chunk:
        return cls(path, start_line, end_line, textpack.pack(text))

    @property
    def text(self) -> str:
        return textpack.unpack(self.packed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chunk):
            return NotImplemented
        return (self.path, self.start_line, self.end_line) == (
            other.path,
            other.start_line,
            other.end_line,
        ) and (self.packed == other.packed or self.text == other.text)

    def __hash__(self) -> int:
        return hash((self.path, self.start_line, self.end_line, self.text))


@dataclass(frozen=True, slots=True)
class Link:
    """One `[[target#anchor|alias]]` occurrence (deduplicated by target and anchor)."""

    target: str
    anchor: str | None
    alias: str | None
    line: int
    embed: bool = False  # written ``![[...]]``


@dataclass(frozen=True, slots=True)
class FieldLink:
    """A `[[target]]` inside a frontmatter value (`source_conversation`, `source_images`...).

    ReMe does not make these graph edges; reme-tui shows them as provenance.
    """

    field: str
    target: str
    line: int | None


@dataclass(frozen=True, slots=True)
class Memory:
    """Everything parsed from one memory file."""

    path: str
    date: str | None
    name: str | None
    description: str | None
    tags: tuple[str, ...]
    tag_spellings: tuple[tuple[str, str], ...]
    chunks: tuple[Chunk, ...]
    links: tuple[Link, ...]
    diagnostics: tuple[Diagnostic, ...]
    size: int
    mtime_ns: int
    content_hash: str
    frontmatter_end_line: int = 0
    body_start_line: int = 1
    # With size and mtime, what a warm start compares: a file replaced by another of the
    # same size and mtime (cp -p, rsync -t, a restored backup) still has a new inode or
    # ctime, so it is read again instead of trusted.
    ino: int = 0
    ctime_ns: int = 0
    # The frontmatter mapping ReMe uses (empty when voided), as loaded by the safe loader.
    frontmatter: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    field_links: tuple[FieldLink, ...] = ()
    tag_line: int | None = None


@dataclass(slots=True)
class Delta:
    """What one `apply` changed."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    tags_moved: set[str] = field(default_factory=set)
    workspace_missing: bool = False

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.changed or self.removed)

    def merge(self, other: Delta | None) -> None:
        """Add what ``other`` changed (several writes reported as one change)."""
        if other is None:
            return
        self.added += other.added
        self.changed += other.changed
        self.removed += other.removed
        self.tags_moved |= other.tags_moved
        self.workspace_missing = self.workspace_missing or other.workspace_missing


@dataclass(slots=True, kw_only=True)
class WriteResult:
    """What one write through the engine's write door did, whatever it was (a tag edit, a
    fix, a merge, its undo or resumption, a revert): the files written, the files refused
    with why, and the index change the written files made (None when the index is not
    built, so nothing was re-indexed)."""

    written: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    notes: tuple[str, ...] = ()  # what the user should know although the write succeeded
    delta: Delta | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return not self.refused
