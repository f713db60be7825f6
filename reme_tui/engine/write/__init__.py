"""The one write door: tag edits and safe fixes, merges with their journal (undo, resume),
and reverts to recorded versions; every write goes through files.fileio."""

from .fixes import FixOutcome, PlannedFix, plan_fixes
from .journal import Journal, JournalCorrupt
from .merge import (
    MergeError,
    MergePlan,
    MergeResult,
    UndoResult,
    apply_merge,
    plan_merge,
    resume_merge,
    undo_merge,
)
from .revert import (
    RevertError,
    RevertPlan,
    RevertResult,
    carry_out,
    load_targets,
    plan_undo,
    plan_version,
)
from .tag_edits import EditResult, apply_fix, edit_tags

__all__ = [
    "EditResult",
    "FixOutcome",
    "Journal",
    "JournalCorrupt",
    "MergeError",
    "MergePlan",
    "MergeResult",
    "PlannedFix",
    "RevertError",
    "RevertPlan",
    "RevertResult",
    "UndoResult",
    "apply_fix",
    "apply_merge",
    "carry_out",
    "edit_tags",
    "load_targets",
    "plan_fixes",
    "plan_merge",
    "plan_undo",
    "plan_version",
    "resume_merge",
    "undo_merge",
]
