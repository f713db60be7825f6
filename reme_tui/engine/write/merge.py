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

Applying writes each file through ``fileio.rewrite_memory`` (the one write path) against
the stamp read when planning: a file changed since is refused (reported), the others
are written. The merge is journaled (``journal.py``) before the first write, with each
file's SHA-256 and whole content before and after, so an interrupted merge can be
resumed (``resume_merge``) or undone, and ``undo_merge`` restores a file exactly, but
only while it is still byte-identical to what the merge wrote.
"""

from __future__ import annotations

import difflib
import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml

from ..codes import Code
from ..errors import EditError, UnsafeEditError
from ..files import MEMORY_ROOTS, ConflictError, FileStamp, Roots, read_memory, rewrite_memory
from ..parse import loaded_tag_items, read_tags, rewrite_tags, validate_tag
from ..records import Memory, WriteResult
from ..tags import normalize_tag
from .journal import (
    APPLIED,
    NOTHING_WRITTEN,
    PARTLY_UNDONE,
    PENDING,
    UNDONE,
    Journal,
    JournalCorrupt,
)

# Memories whose raw tag list may name a tag the index does not show for them.
_HIDDEN_TAG_CODES = frozenset(
    {
        Code.TAG_OVER_LIMIT,
        Code.TAG_DUPLICATE,
        Code.NAME_NOT_STRING,
        Code.DESCRIPTION_NOT_STRING,
        Code.FRONTMATTER_BAD_KEY,
        Code.BOM,
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
    roots: Roots = MEMORY_ROOTS  # the engine's memory folders (None: every .md)

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


class MergeConfig(Protocol):
    @property
    def tag_field(self) -> str: ...

    @property
    def all_markdown(self) -> bool: ...

    @property
    def memory_roots(self) -> tuple[str, ...]: ...


class Workspace(Protocol):
    """What planning a merge reads of an opened workspace (the Engine is one)."""

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> MergeConfig: ...

    def files_with_tag(self, tag: str) -> frozenset[str]: ...

    def paths(self) -> list[str]: ...

    def memory(self, path: str) -> Memory | None: ...


def _candidates(engine: Workspace, wanted: Sequence[str]) -> list[str]:
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


def _plan_file(
    root: Path,
    rel: str,
    sources: Sequence[str],
    into: str,
    into_canonical: str,
    field_name: str,
    roots: Roots = MEMORY_ROOTS,
) -> FileChange | None:
    text, stamp = read_memory(root, rel, roots)
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
    engine: Workspace, tags: Iterable[str], into: str, *, field: str | None = None
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
    field_name = field or engine.config.tag_field
    changes: list[FileChange] = []
    skipped: list[tuple[str, str]] = []
    if sources:
        for rel in _candidates(engine, sources):
            try:
                change = _plan_file(
                    engine.root, rel, sources, into, into_canonical, field_name, _roots(engine)
                )
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
        _roots(engine),
    )


def _roots(engine: Workspace) -> Roots:
    config = engine.config
    return None if config.all_markdown else tuple(config.memory_roots)


def _effective_holders(engine: Workspace, sources: Sequence[str]) -> set[str]:
    held: set[str] = set()
    for tag in sources:
        held |= engine.files_with_tag(tag)
    return held


def _constant(text: str) -> Callable[[str], str]:
    """A ``rewrite_memory`` computation that writes ``text`` whatever the file holds."""
    return lambda _old: text


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


# --------------------------------------------------------------------------- apply


@dataclass(slots=True, kw_only=True)
class MergeResult(WriteResult):
    """What a merge (or its resumption) wrote, what it refused, and its journal entry id."""

    journal_id: str | None = None


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _replace_with(expected_sha: str, new_text: str, what: str) -> Callable[[str], str]:
    """A ``rewrite_memory`` computation: ``new_text``, if the file still reads as expected."""

    def compute(text: str) -> str:
        if _sha(text) != expected_sha:
            raise ConflictError(f"file changed since the {what}; not written", None)
        return new_text

    return compute


def apply_merge(plan: MergePlan, *, data_dir: Path | None = None) -> MergeResult:
    """Write every planned file through ``fileio.rewrite_memory`` (refusing those changed
    since planning), journaled before the first write. ``Engine.merge`` calls this and
    re-indexes the written files."""
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
            "after": c.after_text,
        }
        for c in plan.changes
    ]
    entry = {
        "id": entry_id,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "workspace": str(plan.root),
        "tags": list(plan.sources),
        "into": plan.into,
        "state": PENDING,
        "files": files,
    }
    journal.save(entry)  # before writing: a crash mid-merge leaves what resume/undo need
    for change in plan.changes:
        try:
            rewrite_memory(
                plan.root,
                change.path,
                _constant(change.after_text),
                expected=change.stamp,
                roots=plan.roots,
            )
        except ConflictError:
            result.refused.append((change.path, "changed on disk since the merge was planned"))
        except (EditError, OSError) as exc:
            result.refused.append((change.path, _reason(exc)))
        else:
            result.written.append(change.path)
    _finish(journal, entry, files, result)
    return result


def _finish(
    journal: Journal, entry: dict[str, Any], files: list[dict[str, Any]], result: MergeResult
) -> None:
    written = set(result.written)
    final = {
        **entry,
        "files": [f for f in files if f["path"] in written],
        "state": APPLIED if written else NOTHING_WRITTEN,
    }
    try:
        journal.save(final)
    except OSError as exc:
        # The files are written; the entry saved before writing is still there, pending,
        # with every planned file, so undo and resume keep working from it.
        if written:
            result.notes = (
                *result.notes,
                f"the merge journal's final save failed ({exc.strerror or exc}); its entry is"
                " left pending and reme-tui undo-merge still undoes the merge",
            )
            result.journal_id = entry["id"]
        return
    entry.update(final)
    result.journal_id = entry["id"] if written else None


def resume_merge(
    entry: dict[str, Any],
    root: Path,
    *,
    data_dir: Path | None = None,
    roots: Roots = MEMORY_ROOTS,
) -> MergeResult:
    """Finish an interrupted (pending) merge: write each file still as it was before the
    merge, keep those already written, refuse those changed by someone else since."""
    result = MergeResult()
    journal = Journal(root, data_dir)
    files = list(entry.get("files", []))
    for item in files:
        rel = item["path"]
        if "after" not in item:
            result.refused.append((rel, "the journal entry does not hold the merged text"))
            continue
        try:
            text, _ = read_memory(root, rel, roots)
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
            continue
        if _sha(text) == item["after_sha256"]:
            result.written.append(rel)  # written before the interruption
            continue
        try:
            compute = _replace_with(item["before_sha256"], item["after"], "merge")
            rewrite_memory(root, rel, compute, roots=roots)
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
        else:
            result.written.append(rel)
    _finish(journal, dict(entry), files, result)
    return result


# --------------------------------------------------------------------------- undo


@dataclass(slots=True, kw_only=True)
class UndoResult(WriteResult):
    """What undoing a merge restored (``written``) and refused, and the journal entry."""

    entry_id: str | None = None


def undo_merge(
    entry: dict[str, Any],
    root: Path,
    *,
    data_dir: Path | None = None,
    roots: Roots = MEMORY_ROOTS,
) -> UndoResult:
    """Restore each file of ``entry`` exactly as it was before the merge, refusing any
    file that changed since the merge wrote it. Files already as before (never written
    by an interrupted merge, or restored by an earlier partial undo) count as restored
    without a write, so a partial undo can be retried. ``Engine.undo_merge`` re-indexes."""
    result = UndoResult(entry_id=entry.get("id"))
    for item in entry.get("files", []):
        rel = item["path"]
        try:
            text, _ = read_memory(root, rel, roots)
        except FileNotFoundError:
            result.refused.append((rel, "file was deleted since the merge; not restored"))
            continue
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
            continue
        digest = _sha(text)
        if digest == item["before_sha256"]:
            result.written.append(rel)
            continue
        if digest != item["after_sha256"]:
            result.refused.append((rel, "file changed since the merge; not restored"))
            continue
        try:
            compute = _replace_with(item["after_sha256"], item["before"], "merge")
            rewrite_memory(root, rel, compute, roots=roots)
        except ConflictError:
            result.refused.append((rel, "file changed while being restored; not restored"))
        except (EditError, OSError) as exc:
            result.refused.append((rel, _reason(exc)))
        else:
            result.written.append(rel)
    entry = dict(entry)
    entry["state"] = UNDONE if not result.refused else PARTLY_UNDONE
    entry["undo_refused"] = [{"path": p, "reason": r} for p, r in result.refused]
    Journal(root, data_dir).save(entry)
    return result


__all__ = [
    "Journal",
    "JournalCorrupt",
    "MergeError",
    "MergePlan",
    "MergeResult",
    "UndoResult",
    "apply_merge",
    "plan_merge",
    "resume_merge",
    "undo_merge",
]
