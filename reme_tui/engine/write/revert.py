"""Reverting memories to recorded versions: a plan (the dry run) of per-file steps.

A plan is made from the history alone and says, per path, what the file must hold now
(``expected``: the content hash the person saw, None = absent) and what it will hold
(``target``: a recorded version, None = removed). ``Engine.revert`` carries it out through
the engine's write path and refuses every step whose file no longer matches ``expected``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import EditError
from ..files import (
    MEMORY_ROOTS,
    ConflictError,
    Roots,
    create_memory,
    read_memory_bytes,
    remove_memory,
    replace_memory,
)
from ..history import ChangeEntry, ChangeHistory, content_key
from ..records import WriteResult


class RevertError(ValueError):
    """The requested version does not exist or cannot be restored."""


@dataclass(frozen=True, slots=True)
class RevertStep:
    path: str
    expected: str | None  # content hash the file must have now; None: must not exist
    target: str | None  # content hash to restore; None: remove the file

    @property
    def action(self) -> str:
        if self.target is None:
            return "remove"
        return "restore" if self.expected is None else "rewrite"


@dataclass
class RevertPlan:
    label: str
    steps: list[RevertStep] = field(default_factory=list)

    def listing(self) -> list[str]:
        """The dry run, one line per file."""
        words = {"remove": "remove", "restore": "restore (deleted now)", "rewrite": "rewrite"}
        return [f"{words[s.action]:<22} {s.path}" for s in self.steps]


@dataclass(slots=True, kw_only=True)
class RevertResult(WriteResult):
    """What a revert wrote and refused."""


def _states(entry: ChangeEntry) -> dict[str, tuple[str | None, str | None]]:
    """path -> (hash before, hash after) for every path one entry touched."""
    if entry.kind == "moved" and entry.old_path:
        return {entry.old_path: (entry.old_hash, None), entry.path: (None, entry.new_hash)}
    return {entry.path: (entry.old_hash, entry.new_hash)}


def plan_undo(entries: Sequence[ChangeEntry], label: str = "") -> RevertPlan:
    """Put every path the entries touched back as it was before the oldest of them."""
    collapsed: dict[str, tuple[str | None, str | None]] = {}
    for entry in sorted(entries, key=lambda e: (e.time_ns, e.id)):
        for path, (before, after) in _states(entry).items():
            first = collapsed.get(path)
            collapsed[path] = (before if first is None else first[0], after)
    plan = RevertPlan(label or _undo_label(entries))
    for path in sorted(collapsed):
        before, after = collapsed[path]
        if before != after:
            plan.steps.append(RevertStep(path, expected=after, target=before))
    return plan


def _undo_label(entries: Sequence[ChangeEntry]) -> str:
    if len(entries) == 1:
        return f"revert #{entries[0].id} ({entries[0].kind} {entries[0].path})"
    ids = sorted(e.id for e in entries)
    return f"revert {len(entries)} changes (#{ids[0]}–#{ids[-1]})"


def version_of(entry: ChangeEntry, path: str, *, before: bool = False) -> str | None:
    """The content of ``path`` that ``entry`` names as a version: what it wrote there, or for
    a deletion what it deleted; with ``before``, what the path held before the entry."""
    if before:
        if entry.kind == "moved" and entry.path == path:
            return None  # the path was empty before the move
        return entry.old_hash if path in (entry.path, entry.old_path) else None
    if entry.path == path and entry.new_hash:
        return entry.new_hash
    if entry.kind == "deleted" and entry.path == path:
        return entry.old_hash
    if entry.kind == "moved" and entry.old_path == path:
        return entry.old_hash
    return None


def plan_version(
    history: ChangeHistory, path: str, entry_id: int, *, before: bool = False
) -> RevertPlan:
    """Restore ``path`` to the version entry ``entry_id`` recorded (``before``: the one it
    replaced), against what the history last recorded for it (RevertError when there is
    no such version)."""
    entry = history.entry(entry_id)
    if entry is None:
        raise RevertError(f"no change #{entry_id} in the history")
    target = version_of(entry, path, before=before)
    absent_before = before and (
        (entry.kind == "created" and entry.path == path)
        or (entry.kind == "moved" and entry.path == path)
    )
    if target is None and not absent_before:
        which = "before" if before else "from"
        raise RevertError(f"change #{entry_id} holds no version of {path} ({which} it)")
    expected = history.current().get(path)
    name = f"#{entry_id}^" if before else f"#{entry_id}"
    plan = RevertPlan(f"revert {path} to {name}")
    if expected != target:
        plan.steps.append(RevertStep(path, expected=expected, target=target))
    return plan


def load_targets(history: ChangeHistory, steps: Iterable[RevertStep]) -> dict[str, bytes]:
    """The bytes of every target version (HistoryError when one is missing or damaged)."""
    out: dict[str, bytes] = {}
    for step in steps:
        if step.target is not None and step.target not in out:
            out[step.target] = history.blob(step.target)
    return out


def carry_out(
    root: Path, step: RevertStep, data: bytes | None, roots: Roots = MEMORY_ROOTS
) -> str | None:
    """Do one step through the engine's write path (engine/files/fileio.py); returns why it
    was refused (None when done).

    The file must still hold ``step.expected`` (by content hash): the bytes are read with
    their stamp and every write is checked against that stamp, so a change between the
    check and the write is refused too. A restore never overwrites anything.
    """
    try:
        found = read_memory_bytes(root, step.path, roots)
    except EditError as error:
        return str(error)
    except OSError as error:
        return f"cannot read it: {error.strerror or error}"
    current, stamp = found if found is not None else (None, None)
    if (content_key(current) if current is not None else None) != step.expected:
        return "changed since the diff was shown; not reverted"
    try:
        if step.target is None and stamp is not None:
            remove_memory(root, step.path, expected=stamp, roots=roots)
        elif stamp is None:
            create_memory(root, step.path, data or b"", roots=roots)
        else:
            replace_memory(root, step.path, data or b"", expected=stamp, roots=roots)
    except ConflictError:
        return "changed while being reverted; not reverted"
    except FileExistsError:
        return "a file appeared there since the diff was shown; not restored"
    except (EditError, OSError) as error:
        return str(error)
    return None
