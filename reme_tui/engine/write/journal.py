"""The merge journal: one JSON entry per merge, written before any memory is touched.

``<data dir>/workspaces/<key>/journal/<id>.json`` (directories 0700, files 0600: an entry
holds whole memories). Ids sort by time, so the newest entry is the last name.

Entries older than the retention period (the change history's, 90 days by default) are
pruned when the app starts, except those that still need the user: ``pending`` and
``partly-undone``; corrupt ones are left to be reported.

States: ``pending`` (written before the first file; a crash leaves it so), ``applied``,
``nothing-written``, ``partly-undone`` (some files could not be restored; undo can be
retried), ``undone``. Undo takes the newest entry that still has something to undo,
pending ones included, so it never reverts an older merge over an interrupted one. An
entry that cannot be read is reported (``JournalCorrupt``), never taken for "nothing".
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..dates import stamp_now, stamp_seconds
from ..files import CorruptFile, is_stale_temp, read_json_checked, workspace_data_dir, write_json

JOURNAL_DIR = "journal"
PENDING = "pending"
APPLIED = "applied"
NOTHING_WRITTEN = "nothing-written"
PARTLY_UNDONE = "partly-undone"
UNDONE = "undone"
UNDOABLE_STATES = frozenset({PENDING, APPLIED, PARTLY_UNDONE})
_FILE_KEYS = {"path": str, "before_sha256": str, "after_sha256": str, "before": str}


class JournalCorrupt(ValueError):
    """An entry exists but cannot be used; the message names the file."""


def _check_entry(entry: Any, path: Path) -> dict[str, Any]:
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), list):
        raise JournalCorrupt(f"merge journal entry {path} has an unexpected layout")
    if not isinstance(entry.get("state"), str) or not isinstance(entry.get("id"), str):
        raise JournalCorrupt(f"merge journal entry {path} has no state or id")
    for item in entry["files"]:
        if not isinstance(item, dict) or any(
            not isinstance(item.get(key), kind) for key, kind in _FILE_KEYS.items()
        ):
            raise JournalCorrupt(f"merge journal entry {path} lists a malformed file")
        if "after" in item and not isinstance(item["after"], str):
            raise JournalCorrupt(f"merge journal entry {path} lists a malformed file")
    return entry


class Journal:
    """Merge entries of one workspace, newest last."""

    def __init__(self, root: Path, data_dir: Path | None = None) -> None:
        self.root = Path(root)
        self.directory = workspace_data_dir(self.root, data_dir) / JOURNAL_DIR

    def new_id(self) -> str:
        stamp = stamp_now()
        taken = {p.stem for p in self._files()}
        suffix = 0
        while f"{stamp}-{suffix:03d}" in taken:
            suffix += 1
        return f"{stamp}-{suffix:03d}"

    def save(self, entry: dict[str, Any]) -> None:
        write_json(self.directory / f"{entry['id']}.json", entry)

    def _files(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.glob("*.json") if not is_stale_temp(p.name))

    def load(self, path: Path) -> dict[str, Any]:
        """One entry; JournalCorrupt when it cannot be used."""
        try:
            document = read_json_checked(path)
        except CorruptFile as exc:
            raise JournalCorrupt(f"merge journal entry {exc}") from None
        if document is None:
            raise JournalCorrupt(f"merge journal entry {path} vanished")
        return _check_entry(document, path)

    def entries(self) -> list[dict[str, Any]]:
        """Every readable entry, oldest first (corrupt ones are skipped here)."""
        out = []
        for path in self._files():
            try:
                out.append(self.load(path))
            except JournalCorrupt:
                continue
        return out

    def get(self, entry_id: str) -> dict[str, Any] | None:
        path = self.directory / f"{entry_id}.json"
        if "/" in entry_id or not path.exists():
            return None
        return self.load(path)

    def _newest(self, states: frozenset[str]) -> dict[str, Any] | None:
        for path in reversed(self._files()):
            entry = self.load(path)  # a corrupt newer entry stops the search: reported
            if entry.get("state") in states and entry.get("files"):
                return entry
        return None

    def last_undoable(self) -> dict[str, Any] | None:
        """The newest merge with something to undo (pending, applied or partly undone).

        Raises JournalCorrupt when an entry newer than it cannot be read: it might be
        the merge the user means."""
        return self._newest(UNDOABLE_STATES)

    def last_pending(self) -> dict[str, Any] | None:
        """The newest interrupted merge, if it is the newest merge with work left."""
        entry = self._newest(UNDOABLE_STATES)
        return entry if entry is not None and entry.get("state") == PENDING else None

    def prune(self, retention_days: int, now: float | None = None) -> int:
        """Delete finished entries (applied, undone, nothing written) older than
        ``retention_days``; returns how many. Their merges can no longer be undone."""
        cutoff = (time.time() if now is None else now) - retention_days * 86_400
        removed = 0
        for path in self._files():
            try:
                written = stamp_seconds(path.stem[:15])
            except ValueError:
                continue  # not a name we gave: left alone
            if written >= cutoff:
                break  # names sort by time: the rest are newer
            try:
                state = self.load(path).get("state")
            except JournalCorrupt:
                continue
            if state in (APPLIED, UNDONE, NOTHING_WRITTEN):
                path.unlink(missing_ok=True)
                removed += 1
        return removed
