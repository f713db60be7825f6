"""The change history as a document for scripts (``reme-tui changes --json``) or as text.

One JSON document: the history's figures, the entries (kind, paths, times, tag changes,
frontmatter changes, unified diff), the groups they form, and per-tag churn.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from ..dates import DateError, day, local_iso, parse_date
from .database import ChangeHistory
from .diff import diff_entry
from .entries import ChangeEntry
from .timeline import Burst, bursts, tag_churn

_TIME = re.compile(r"^(\d{4}-\d{1,2}-\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_MAX_NS = 2**63 - 1
_VERSION = re.compile(r"^#?(\d{1,18})(\^?)$")


class ReportArgumentError(ValueError):
    """A ``--since``, ``--mark-reviewed`` or ``--to`` value that names nothing."""


def iso_time(time_ns: int) -> str:
    """Local time with its offset, to the second."""
    return local_iso(time_ns)


def time_bound(text: str, *, end_of_day: bool) -> int:
    """``YYYY-MM-DD`` (start or end of that local day) or ``YYYY-MM-DDTHH:MM[:SS]``, in ns."""
    match = _TIME.match(text.strip())
    if match is None:
        raise ReportArgumentError(f"not a date or time: {text!r} (use YYYY-MM-DD[THH:MM])")
    try:
        bound = day(parse_date(match.group(1)))
    except (DateError, ValueError) as error:
        raise ReportArgumentError(f"not a date: {text!r} ({error})") from None
    if match.group(2) is not None:
        hour, minute, second = int(match.group(2)), int(match.group(3)), int(match.group(4) or 0)
        if hour > 23 or minute > 59 or second > 59:
            raise ReportArgumentError(f"not a time: {text!r}")
        moment = dt.datetime.combine(bound, dt.time(hour, minute, second))
        if end_of_day:
            moment += dt.timedelta(seconds=0.999999)
    else:
        moment = dt.datetime.combine(bound, dt.time.max if end_of_day else dt.time.min)
    # Nanoseconds fit SQLite's 64-bit integers only until 2262: later bounds mean "never".
    return max(0, min(int(moment.timestamp() * 1_000_000_000), _MAX_NS))


def version_id(text: str) -> int:
    """A change id as printed (``#12`` or ``12``)."""
    return version_ref(text)[0]


def version_ref(text: str) -> tuple[int, bool]:
    """A version: ``12`` / ``#12`` (what change 12 wrote) or ``12^`` (what it replaced)."""
    match = _VERSION.match(text.strip())
    if match is None:
        raise ReportArgumentError(
            f"not a version: {text!r} (a change id from reme-tui changes, 12 or 12^ for before it)"
        )
    return int(match.group(1)), bool(match.group(2))


def until_bound(history: ChangeHistory, text: str | None) -> int | None:
    """``--mark-reviewed`` UNTIL: a change id (everything up to it), a date or time, or
    None (everything up to now)."""
    if text is None:
        return None
    if _VERSION.match(text.strip()):
        entry = history.entry(version_id(text))
        if entry is None:
            raise ReportArgumentError(f"no change {text} in the history")
        return entry.time_ns
    return time_bound(text, end_of_day=True)


def select(history: ChangeHistory, since: str | None) -> list[ChangeEntry]:
    """Entries newest first: all, since a date/time, or ``last-review`` (not yet reviewed)."""
    if since is None:
        return history.entries()
    if since == "last-review":
        return history.entries(unreviewed=True)
    return history.entries(since_ns=time_bound(since, end_of_day=False))


def entry_json(history: ChangeHistory, entry: ChangeEntry, tag_field: str) -> dict[str, Any]:
    diff = diff_entry(history, entry, tag_field)
    document: dict[str, Any] = {
        "id": entry.id,
        "group": entry.group,
        "kind": entry.kind,
        "path": entry.path,
        "old_path": entry.old_path,
        "time": iso_time(entry.time_ns),
        "time_ns": entry.time_ns,
        "source": entry.source,
        "label": entry.label,
        "undo": entry.undo,
        "name": entry.name,
        "reviewed": entry.reviewed,
        "summary": entry.summary,
        "lines_added": entry.added,
        "lines_removed": entry.removed,
        "note": entry.note,
        "old_version": entry.old_hash,
        "new_version": entry.new_hash,
        "tags_added": list(entry.tags_added),
        "tags_removed": list(entry.tags_removed),
    }
    document.update(diff.to_json())
    if diff.error:
        document["error"] = diff.error
    return document


def group_json(group: Burst) -> dict[str, Any]:
    return {
        "key": group.key,
        "start": iso_time(group.start_ns),
        "end": iso_time(group.end_ns),
        "source": group.source,
        "label": group.label,
        "undo": group.undo,
        "unreviewed": group.unreviewed,
        "entries": [e.id for e in group.entries],
    }


def report_json(
    history: ChangeHistory,
    entries: Sequence[ChangeEntry],
    *,
    since: str | None,
    tag_field: str,
    baseline_recorded: bool = False,
) -> dict[str, Any]:
    stats = history.stats()
    return {
        "history": {
            "path": str(history.path),
            "size_bytes": stats.size_bytes,
            "entries": stats.entries,
            "unreviewed": stats.unreviewed,
            "retention_days": history.retention_days,
            "baseline_recorded": baseline_recorded,
        },
        "since": since,
        "entries": [entry_json(history, e, tag_field) for e in entries],
        "groups": [group_json(g) for g in bursts(entries)],
        "tag_churn": tag_churn(entries),
    }


def report_text(entries: Sequence[ChangeEntry]) -> str:
    """Groups newest first, one line per entry: ``#id  kind  path  summary``."""
    lines: list[str] = []
    for group in bursts(entries):
        title = f"{iso_time(group.start_ns)}  {group.source}: {len(group.entries)} change(s)"
        if group.label:
            title += f" — {group.label}"
        if group.undo:
            title += f" (undo: journal {group.undo})"
        lines.append(title)
        for entry in group.entries:
            mark = " " if entry.reviewed else "*"
            lines.append(f" {mark} #{entry.id:<6} {entry.kind:<9} {entry.path}  {entry.summary}")
    return "\n".join(lines)
