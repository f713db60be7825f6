"""Plan agent-junk-tag fixes (from `tag_lints`) as a dry-run diff.

The fix for a file replaces only its tag entry (`frontmatter.apply_op` with `SetTags`);
`Engine.apply_tag_fixes` writes it through the one write path (`Engine.edit_tags`),
conflict-checked against the text the plan was made from. Every other byte stays.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import EditError
from ..files import MEMORY_ROOTS, FileStamp, Roots, read_memory
from ..parse import SetTags, apply_op
from ..tags import TagFix


@dataclass(frozen=True, slots=True)
class PlannedFix:
    """One file's fix, made from the text read with `stamp`; `diff` is a unified diff."""

    path: str
    fix: TagFix
    stamp: FileStamp
    diff: str


@dataclass(frozen=True, slots=True)
class FixOutcome:
    path: str
    changed: bool
    error: str | None


def plan_fixes(
    root: Path, fixes: Iterable[TagFix], field: str, roots: Roots = MEMORY_ROOTS
) -> tuple[list[PlannedFix], list[tuple[str, str]]]:
    """Plans (with diffs) for the fixes, and (path, reason) for files that cannot be planned."""
    plans: list[PlannedFix] = []
    refused: list[tuple[str, str]] = []
    for fix in fixes:
        try:
            text, stamp = read_memory(root, fix.path, roots)
            new_text, _old, _new = apply_op(text, SetTags(fix.new), field)
        except EditError as exc:
            refused.append((fix.path, str(exc)))
            continue
        except OSError as exc:
            refused.append((fix.path, exc.strerror or str(exc)))
            continue
        if new_text == text:
            continue
        diff = "".join(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                new_text.splitlines(keepends=True),
                fromfile=f"a/{fix.path}",
                tofile=f"b/{fix.path}",
                n=1,
            )
        )
        plans.append(PlannedFix(fix.path, fix, stamp, diff))
    return plans, refused
