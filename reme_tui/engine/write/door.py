"""The one write door: every change reme-tui makes to a memory comes through here.

A tag edit, the compatibility report's safe fix, the junk-tag fixes, a merge, its undo or
resumption, a revert: each takes the one write lock (two writes never interleave, whoever
asks), writes through ``files.fileio`` (read with a stamp, refuse a file changed since,
atomic replace), and comes back as a ``WriteResult`` carrying the ``Delta`` its files made
when re-indexed, recorded in the history under who made it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from ..errors import EditError
from ..files import FileStamp
from ..history import ChangeHistory, HistoryError
from ..parse import SetTags, TagOp
from ..records import Delta
from ..tags import TagFix
from .fixes import FixOutcome, PlannedFix, plan_fixes
from .journal import Journal
from .merge import MergePlan, MergeResult, UndoResult, apply_merge, resume_merge, undo_merge
from .revert import RevertPlan, RevertResult, carry_out, load_targets
from .tag_edits import EditResult, apply_fix, edit_tags


class Reindex(Protocol):
    """Re-index what a write changed and record it: ``(paths, source, label, undo)`` ->
    the delta, or None when the index is not built."""

    def __call__(
        self, paths: Sequence[str], source: str, label: str, undo: str | None = None
    ) -> Delta | None: ...


class WriteDoor:
    """The writes of one workspace, one at a time."""

    def __init__(
        self,
        root: Path,
        tag_field: str,
        roots: tuple[str, ...] | None,
        reindex: Reindex,
        history: Callable[[], ChangeHistory | None],
        tag_fixes: Callable[[], dict[str, TagFix]],
    ) -> None:
        self.root = root
        self._field = tag_field
        self._roots = roots  # where memories may be written (None: any .md, --all-markdown)
        self._reindex = reindex
        self._history = history
        self._tag_fixes = tag_fixes
        # Re-entrant: the junk-tag fixes are tag edits, each taking the lock again.
        self._lock = threading.RLock()

    def edit_tags(self, path: str, op: TagOp, expected: FileStamp | None = None) -> EditResult:
        """Apply a tag operation to memory ``path`` and re-index it.

        Raises EditError: ConflictError when the file changed since ``expected``,
        PathRefused outside the workspace, ReadOnlyFile for 0444 files,
        UnsafeEditError when the frontmatter cannot be edited safely, InvalidTag."""
        with self._lock:
            result = edit_tags(self.root, path, op, expected, self._field, self._roots)
            result.delta = self._reindex(result.written, "edit", f"tags of {path}")
            return result

    def apply_fix(self, path: str, expected: FileStamp | None = None) -> EditResult:
        """The compatibility report's safe fix for memory ``path``, re-indexed."""
        with self._lock:
            result = apply_fix(self.root, path, expected, self._field, self._roots)
            result.delta = self._reindex(result.written, "edit", f"safe fix of {path}")
            return result

    def plan_tag_fixes(
        self, paths: Iterable[str] | None = None
    ) -> tuple[list[PlannedFix], list[tuple[str, str]]]:
        """Dry run of the junk-tag fixes (all, or those of `paths`): plans with diffs, and
        the files that cannot be fixed with why."""
        fixes = self._tag_fixes()
        wanted = fixes.values() if paths is None else [fixes[p] for p in paths if p in fixes]
        return plan_fixes(self.root, wanted, self._field, self._roots)

    def apply_tag_fixes(self, plans: Iterable[PlannedFix]) -> tuple[list[FixOutcome], Delta]:
        """Write planned fixes as tag edits (each refused if its file changed since the
        plan) and return what each did and the re-index delta of them all."""
        outcomes: list[FixOutcome] = []
        delta = Delta()
        with self._lock:
            for plan in plans:
                try:
                    result = self.edit_tags(plan.path, SetTags(plan.fix.new), plan.stamp)
                except EditError as exc:
                    outcomes.append(FixOutcome(plan.path, False, str(exc)))
                    continue
                except OSError as exc:
                    outcomes.append(FixOutcome(plan.path, False, exc.strerror or str(exc)))
                    continue
                outcomes.append(FixOutcome(plan.path, result.changed, None))
                delta.merge(result.delta)
        return outcomes, delta

    def merge(self, plan: MergePlan, *, data_dir: Path | None = None) -> MergeResult:
        """Write a planned tag merge (journaled first) and re-index the written files."""
        with self._lock:
            result = apply_merge(plan, data_dir=data_dir)
            label = f"merge {', '.join(plan.sources)} into {plan.into}"
            result.delta = self._reindex(result.written, "merge", label, result.journal_id)
            return result

    def undo_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> UndoResult | None:
        """Undo ``entry`` (default: the newest merge with something to undo, an
        interrupted one included) and re-index; None when there is nothing to undo.
        Raises JournalCorrupt when a newer journal entry cannot be read."""
        with self._lock:
            entry = entry or Journal(self.root, data_dir).last_undoable()
            if entry is None:
                return None
            result = undo_merge(entry, self.root, data_dir=data_dir, roots=self._roots)
            label = f"undo merge into {entry.get('into', '?')}"
            result.delta = self._reindex(result.written, "undo", label)
            return result

    def resume_merge(
        self, entry: dict[str, object] | None = None, *, data_dir: Path | None = None
    ) -> MergeResult | None:
        """Finish the interrupted merge ``entry`` (default: the newest pending one) and
        re-index; None when no merge was interrupted."""
        with self._lock:
            entry = entry or Journal(self.root, data_dir).last_pending()
            if entry is None:
                return None
            result = resume_merge(entry, self.root, data_dir=data_dir, roots=self._roots)
            label = f"resumed merge into {entry.get('into', '?')}"
            result.delta = self._reindex(result.written, "merge", label, result.journal_id)
            return result

    def revert(self, plan: RevertPlan) -> RevertResult:
        """Carry out a revert plan (see write/revert.py); what it wrote is re-indexed and
        recorded as one "revert" group of the history."""
        result = RevertResult()
        history = self._history()
        if history is None:
            result.refused = [(s.path, "no change history is attached") for s in plan.steps]
            return result
        with self._lock:
            try:
                blobs = load_targets(history, plan.steps)
            except HistoryError as error:
                result.refused = [(s.path, str(error)) for s in plan.steps]
                return result
            for step in plan.steps:
                data = blobs.get(step.target) if step.target else None
                why = carry_out(self.root, step, data, self._roots)
                if why is None:
                    result.written.append(step.path)
                else:
                    result.refused.append((step.path, why))
            result.delta = self._reindex(result.written, "revert", plan.label)
            return result
