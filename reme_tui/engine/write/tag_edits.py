"""What the engine's tag writes compute: a tag edit and the compatibility report's safe fix.

Both are a text transformation handed to ``fileio.rewrite_memory`` (the one write
path); ``Engine.edit_tags`` and ``Engine.apply_fix`` re-index the file afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UnsafeEditError
from ..files import MEMORY_ROOTS, FileStamp, Rewrite, Roots, rewrite_memory
from ..parse import (
    BOM,
    BOM_NOTE,
    SetTags,
    TagOp,
    apply_op,
    effective_tags,
    loaded_tag_items,
    read_tags,
    rewrite_tags,
)
from ..records import WriteResult
from ..tags import DEFAULT_TAG_FIELD, judge_tag


@dataclass(slots=True, kw_only=True)
class EditResult(WriteResult):
    """A tag edit or safe fix of one file; tag lists are raw items as ``read_tags`` gives
    them. ``written`` is ``[path]`` when the file changed."""

    path: str
    old_tags: tuple[str, ...]
    new_tags: tuple[str, ...]
    old_stamp: FileStamp
    new_stamp: FileStamp

    @property
    def changed(self) -> bool:
        return bool(self.written)

    @property
    def old_canonical(self) -> tuple[str, ...]:
        return effective_tags(self.old_tags)

    @property
    def new_canonical(self) -> tuple[str, ...]:
        return effective_tags(self.new_tags)


def edit_tags(
    root: Path,
    rel_path: str,
    op: TagOp,
    expected: FileStamp | None = None,
    field: str = DEFAULT_TAG_FIELD,
    roots: Roots = MEMORY_ROOTS,
) -> EditResult:
    """Apply ``op`` to the tag entry of memory ``rel_path`` and save it (no re-index;
    ``Engine.edit_tags`` is the entry point that also re-indexes)."""
    tags: dict[str, list[str]] = {}

    def compute(text: str) -> str:
        new_text, tags["old"], tags["new"] = apply_op(text, op, field)
        return new_text

    done = rewrite_memory(root, rel_path, compute, expected=expected, roots=roots)
    notes = (BOM_NOTE,) if done.old_text.startswith(BOM) else ()
    old, new = tuple(tags["old"]), tuple(tags["new"] if done.changed else tags["old"])
    return _edit_result(rel_path, done, old, new, notes)


def _display(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def safe_fix_text(text: str, field: str = DEFAULT_TAG_FIELD) -> str:
    """Make a scalar tag entry a list, or drop the list items ReMe drops as invalid or too
    long (``true``, ``'---'``, 70 characters); nothing else changes."""
    old = read_tags(text, field)
    loaded = loaded_tag_items(text, field)
    if loaded is None:  # scalar (or absent): a valid scalar becomes a one-item list
        return apply_op(text, SetTags(old), field)[0]
    keep = [item for item in loaded if judge_tag(item).canonical is not None]
    new_text = rewrite_tags(text, [_display(item) for item in keep], field)
    after = loaded_tag_items(new_text, field) or []
    if after != keep or [type(i) for i in after] != [type(i) for i in keep]:
        raise UnsafeEditError("the tag list could not be cleaned safely; edit it by hand")
    return new_text


def apply_fix(
    root: Path,
    rel: str,
    expected: FileStamp | None = None,
    field: str = DEFAULT_TAG_FIELD,
    roots: Roots = MEMORY_ROOTS,
) -> EditResult:
    """Write ``safe_fix_text`` to memory ``rel`` (no re-index; see ``Engine.apply_fix``).

    Raises EditError (ConflictError when the file changed since ``expected``)."""
    done = rewrite_memory(
        root, rel, lambda text: safe_fix_text(text, field), expected=expected, roots=roots
    )
    old = tuple(read_tags(done.old_text, field))
    new = tuple(read_tags(done.new_text, field)) if done.changed else old
    return _edit_result(rel, done, old, new)


def _edit_result(
    rel: str,
    done: Rewrite,
    old: tuple[str, ...],
    new: tuple[str, ...],
    notes: tuple[str, ...] = (),
) -> EditResult:
    return EditResult(
        written=[rel] if done.changed else [],
        path=rel,
        old_tags=old,
        new_tags=new,
        old_stamp=done.old_stamp,
        new_stamp=done.new_stamp,
        notes=notes,
    )
