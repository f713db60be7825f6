"""The one write door (``door``): tag edits and safe fixes (``tag_edits``, ``fixes``), merges
with their journal, undo and resumption (``merge``, ``journal``), reverts to recorded
versions (``revert``). Every write goes through files.fileio and comes back as a
``WriteResult`` carrying its ``Delta``."""

from .door import WriteDoor
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
    "WriteDoor",
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
