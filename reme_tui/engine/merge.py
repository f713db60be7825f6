"""Merging tags: plan (dry-run diffs), apply with the safe write, journal, undo.

Which files a merge touches
---------------------------
Every memory whose tag entry (``memory_tags`` by default) is a YAML *list* holding an
item equal, after ReMe's normalization, to one of the merged tags. That includes items
ReMe itself ignores because they are past the third tag and files whose frontmatter
ReMe voids (a non-string ``name``, a byte-order mark): the spelling is still written
there and would come back the day the file is fixed. A *scalar* entry
(``memory_tags: project-atlas``) is left alone: ReMe reads no tag from it, so it does not
carry the tag; the compatibility report offers to make it a list. Files whose
frontmatter cannot be edited safely (invalid YAML, anchors, ...) are listed as skipped.

In each file the first item naming any merged tag (or the target itself) becomes the
target, in place, so it keeps its rank among the first three; later such items are
removed. An item already spelled as the target's canonical form keeps its spelling.
Only the tag entry's lines change (``edit.rewrite_tags``); the rewrite is re-read and
refused when any other item would change value or type.

Applying writes each file with ``edit.atomic_write`` against the stamp read when
planning: a file changed since is refused (reported), the others are written. The
merge is journaled in the user data directory (``journal/<id>.json``: each file's
SHA-256 before and after, and its whole content before), so ``undo_merge`` restores a
file exactly, but only while it is still byte-identical to what the merge wrote.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .edit import (
    ConflictError,
    EditError,
    FileStamp,
    UnsafeEditError,
    atomic_write,
    read_tags,
    read_with_stamp,
    resolve_in_workspace,
    rewrite_tags,
    validate_tag,
)
from .tags import DEFAULT_TAG_FIELD, normalize_tag
from .userdata import read_json, workspace_data_dir, write_json

if TYPE_CHECKING:
    from .core import Delta, Engine

JOURNAL_DIR = "journal"
# Memories whose raw tag list may name a tag the index does not show for them.
_HIDDEN_TAG_CODES = frozenset(
    {
        "tag-over-limit",
        "tag-duplicate",
        "name-not-string",
        "description-not-string",
        "frontmatter-bad-key",
        "bom",
    }
)


class MergeError(ValueError):
    """The merge request itself is unusable (no tags, invalid target): a usage error."""


# --------------------------------------------------------------------------- plan


@dataclass(frozen=True)
class FileChange:
    """One file a merge rewrites: raw tag items before and after, texts and its stamp."""

    path: str
    before_tags: tuple[str, ...]
    after_tags: tuple[str, ...]
    before_text: str
    after_text: str
    stamp: FileStamp

    def diff(self, context: int = 1) -> str:
        """Unified diff of the file (line endings shown as plain line breaks)."""
        lines = difflib.unified_diff(
            self.before_text.splitlines(),
            self.after_text.splitlines(),
            f"a/{self.path}",
            f"b/{self.path}",
            n=context,
            lineterm="",
        )
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "before": list(self.before_tags),
            "after": list(self.after_tags),
            "diff": self.diff(),
        }


@dataclass(frozen=True)
class MergePlan:
    """What merging ``sources`` into ``into`` would change; nothing is written yet."""

    root: Path
    sources: tuple[str, ...]  # canonical tags merged away (the target's canonical excluded)
    into: str  # the target as it will be written
    into_canonical: str
    field: str
    changes: tuple[FileChange, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why) files that could not be planned

    @property
    def paths(self) -> list[str]:
        return [change.path for change in self.changes]

    def diff(self) -> str:
        return "".join(change.diff() for change in self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "tags": list(self.sources),
            "into": self.into,
            "files": [change.to_json() for change in self.changes],
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
        }


def _canonical_sources(tags: Iterable[str]) -> list[str]:
    out: dict[str, None] = {}
    for tag in tags:
        canonical = normalize_tag(tag)
        if canonical is not None:
            out.setdefault(canonical, None)
    return list(out)


def _candidates(engine: Engine, wanted: Sequence[str]) -> list[str]:
    paths: set[str] = set()
    for tag in wanted:
        paths |= engine.files_with_tag(tag)
    for path in engine.paths():
        memory = engine.memory(path)
        if memory is not None and any(d.code in _HIDDEN_TAG_CODES for d in memory.diagnostics):
            paths.add(path)
    return sorted(paths)


def merged_items(
    items: Sequence[Any], sources: Iterable[str], into: str, into_canonical: str
) -> list[Any] | None:
    """The new raw item list, or None when no item names a merged tag."""
    names = set(sources)
    if not any(normalize_tag(item) in names for item in items):
        return None
    everything = names | {into_canonical}
    keep = next(
        (item for item in items if normalize_tag(item) == into_canonical),
        into,
    )
    out: list[Any] = []
    placed = False
    for item in items:
        if normalize_tag(item) in everything:
            if not placed:
                out.append(keep)
                placed = True
            continue
        out.append(item)
    return out


def loaded_tag_items(text: str, field_name: str) -> list[Any] | None:
    """The tag entry as YAML loads it; None when there is no frontmatter or the entry is
    absent or not a list. Raises yaml.YAMLError for invalid YAML."""
    body = text[1:] if text.startswith("\ufeff") else text
    lines = body.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            data = yaml.safe_load("".join(lines[1:index]))
            value = data.get(field_name) if isinstance(data, dict) else None
            return value if isinstance(value, list) else None
    return None


def _plan_file(
    root: Path, rel: str, sources: Sequence[str], into: str, into_canonical: str, field_name: str
) -> FileChange | None:
    text, stamp = read_with_stamp(resolve_in_workspace(root, rel))
    loaded = loaded_tag_items(text, field_name)
    if loaded is None:
        return None  # absent, empty or scalar: carries no tag for ReMe
    new_items = merged_items(loaded, sources, into, into_canonical)
    if new_items is None:
        return None
    before = read_tags(text, field_name)
    after_display = [item if isinstance(item, str) else str(item) for item in new_items]
    after_text = rewrite_tags(text, after_display, field_name)
    reloaded = loaded_tag_items(after_text, field_name) or []
    if reloaded != new_items or [type(i) for i in reloaded] != [type(i) for i in new_items]:
        raise UnsafeEditError(
            "the list holds items that are not text (true, null, ...); edit it by hand"
        )
    if after_text == text:
        return None
    return FileChange(
        rel, tuple(before), tuple(read_tags(after_text, field_name)), text, after_text, stamp
    )


def plan_merge(
    engine: Engine, tags: Iterable[str], into: str, *, field: str | None = None
) -> MergePlan:
    """Every file that carries one of ``tags`` and how it would read with ``into`` instead.

    Raises MergeError when ``into`` is not a valid tag or no tag remains to merge.
    """
    try:
        into_canonical = validate_tag(into)
    except EditError as exc:
        raise MergeError(f"target {exc}") from None
    given = list(tags)
    canonical = _canonical_sources(given)
    if not canonical:
        raise MergeError("no valid tags to merge" if given else "give at least one tag to merge")
    sources = [tag for tag in canonical if tag != into_canonical]
    field_name = field or getattr(engine.config, "tag_field", DEFAULT_TAG_FIELD)
    changes: list[FileChange] = []
    skipped: list[tuple[str, str]] = []
    if sources:
        for rel in _candidates(engine, sources):
            try:
                change = _plan_file(engine.root, rel, sources, into, into_canonical, field_name)
            except (EditError, OSError, yaml.YAMLError) as exc:
                if rel in _effective_holders(engine, sources):
                    skipped.append((rel, _reason(exc)))
                continue
            if change is not None:
                changes.append(change)
    return MergePlan(
        engine.root,
        tuple(sources),
        into,
        into_canonical,
        field_name,
        tuple(changes),
        tuple(skipped),
    )


def _effective_holders(engine: Engine, sources: Sequence[str]) -> set[str]:
    held: set[str] = set()
    for tag in sources:
        held |= engine.files_with_tag(tag)
    return held


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


# --------------------------------------------------------------------------- apply


@dataclass
class MergeResult:
    """What ``apply_merge`` wrote, what it refused, and its journal entry id."""

    written: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    journal_id: str | None = None
    delta: Delta | None = None

    @property
    def ok(self) -> bool:
        return not self.refused


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _write(root: Path, rel: str, data: str, expected: FileStamp) -> None:
    path = resolve_in_workspace(root, rel)
    if os.stat(path).st_nlink > 1:
        raise UnsafeEditError(f"{rel} has other hard links; a rename would split them")
    atomic_write(path, data.encode("utf-8"), expected=expected)


def apply_merge(
    plan: MergePlan, engine: Engine | None = None, *, data_dir: Path | None = None
) -> MergeResult:
    """Write every planned file (refusing those changed since planning), journal it,
    then route the written paths through ``engine.apply`` when an engine is given."""
    result = MergeResult()
    if not plan.changes:
        return result
    journal = Journal(plan.root, data_dir)
    entry_id = journal.new_id()
    files = [
        {
            "path": c.path,
            "before_sha256": _sha(c.before_text),
            "after_sha256": _sha(c.after_text),
            "before": c.before_text,
        }
        for c in plan.changes
    ]
    entry = {
        "id": entry_id,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "workspace": str(plan.root),
        "tags": list(plan.sources),
        "into": plan.into,
        "state": "pending",
        "files": files,
    }
    journal.save(entry)  # before writing: a crash mid-merge still leaves the before texts
    for change in plan.changes:
        try:
            _write(plan.root, change.path, change.after_text, change.stamp)
        except ConflictError:
            result.refused.append((change.path, "changed on disk since the merge was planned"))
        except (EditError, OSError) as exc:
            result.refused.append((change.path, _reason(exc)))
        else:
            result.written.append(change.path)
    written = set(result.written)
    entry["files"] = [f for f in files if f["path"] in written]
    entry["state"] = "applied" if written else "nothing-written"
    journal.save(entry)
    result.journal_id = entry_id if written else None
    if engine is not None and result.written:
        result.delta = engine.apply(result.written)
    return result


# --------------------------------------------------------------------------- journal


@dataclass
class UndoResult:
    restored: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    delta: Delta | None = None


class Journal:
    """Merge entries of one workspace, newest last (``journal/<id>.json``)."""

    def __init__(self, root: Path, data_dir: Path | None = None) -> None:
        self.root = Path(root)
        self.directory = workspace_data_dir(self.root, data_dir) / JOURNAL_DIR

    def new_id(self) -> str:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        taken = {p.stem for p in self.directory.glob("*.json")} if self.directory.exists() else ()
        suffix = 0
        while f"{stamp}-{suffix:03d}" in taken:
            suffix += 1
        return f"{stamp}-{suffix:03d}"

    def save(self, entry: dict[str, Any]) -> None:
        write_json(self.directory / f"{entry['id']}.json", entry)

    def entries(self) -> list[dict[str, Any]]:
        if not self.directory.exists():
            return []
        out = []
        for path in sorted(self.directory.glob("*.json")):
            entry = read_json(path)
            if isinstance(entry, dict) and isinstance(entry.get("files"), list):
                out.append(entry)
        return out

    def last_undoable(self) -> dict[str, Any] | None:
        """The newest applied merge not yet undone."""
        for entry in reversed(self.entries()):
            if entry.get("state") == "applied" and entry.get("files"):
                return entry
        return None


def undo_merge(
    entry: dict[str, Any],
    root: Path,
    engine: Engine | None = None,
    *,
    data_dir: Path | None = None,
) -> UndoResult:
    """Restore each file of ``entry`` exactly as it was before the merge, refusing any
    file that changed since the merge wrote it (its SHA-256 differs from the journal's)."""
    result = UndoResult()
    for item in entry.get("files", []):
        rel = item["path"]
        try:
            path = resolve_in_workspace(root, rel)
            _, stamp = read_with_stamp(path)
        except FileNotFoundError:
            result.refused.append((rel, "file was deleted since the merge; not restored"))
            continue
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
            continue
        if stamp.sha256 != item["after_sha256"]:
            result.refused.append((rel, "file changed since the merge; not restored"))
            continue
        try:
            _write(root, rel, item["before"], stamp)
        except ConflictError:
            result.refused.append((rel, "file changed while being restored; not restored"))
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
        else:
            result.restored.append(rel)
    entry = dict(entry)
    entry["state"] = "undone" if not result.refused else "partly-undone"
    entry["undo_refused"] = [{"path": p, "reason": r} for p, r in result.refused]
    Journal(root, data_dir).save(entry)
    if engine is not None and result.restored:
        result.delta = engine.apply(result.restored)
    return result
