"""Every date reme-tui reads, in one place: the dates a person types, the dates ReMe put in
names, the engine's own ISO days, and the time stamps reme-tui writes itself.

The rule for dates a person types (``--since``, ``since:`` in the app, the engine API) is
ReMe's own (reme-ai 0.4.2.0, its search step), so a bound means for a person what it means
for the agent: the first ten characters as Python's ``date.fromisoformat`` reads them
(``2026-03-06``, the basic ``20260306``, the week date ``2026-W10-5``; whatever follows, a
time or anything else, is dropped), else the whole text as ``%Y-%m-%d`` (``2026-3-6``).
Anything else (``2026/03/01``, ``2026-02-30``, ``soon``) is not a date.

Where a bad date goes is the caller's choice: the app shows it in the search bar; the
engine, the CLI and the MCP server ignore it with a warning and search without that bound,
as the reference does (SPEC, search pipeline step 3).
"""

from __future__ import annotations

import datetime as _dt
import time as _time

EXPECTED = "a date like 2026-03-01"
_READ_LENGTH = 10  # ReMe reads a bound's first ten characters as an ISO date


class DateError(ValueError):
    """Text that is not a date by the rule above."""


def parse_date(text: str) -> str:
    """The ISO date (``YYYY-MM-DD``) ``text`` names; DateError when it names none."""
    stripped = str(text).strip()
    try:
        return _dt.date.fromisoformat(stripped[:_READ_LENGTH]).isoformat()
    except ValueError:
        pass
    try:
        return _dt.datetime.strptime(stripped, "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise DateError(f"{text!r} is not {EXPECTED}") from None


def _dropped_text(text: str) -> str:
    """What follows the ten characters ReMe reads, unless it is only a time of day."""
    rest = text.strip()[_READ_LENGTH:]
    if rest[:1] in ("T", " "):
        try:
            _dt.datetime.fromisoformat(f"2000-01-01T{rest[1:]}")
            return ""
        except ValueError:
            pass
    return rest


def date_or_none(text: str) -> str | None:
    """``parse_date`` for input still being typed: None instead of an error."""
    try:
        return parse_date(text)
    except DateError:
        return None


def date_bound(raw: str | None, label: str) -> tuple[str | None, str | None]:
    """The engine's reading of a ``since``/``until`` bound: (ISO date or None, warning or None).

    Empty means no bound; a bad date is ignored with a warning, as the reference does, and
    text read only in part (``2026-03-011``) is said to be.
    """
    if raw is None or not str(raw).strip():
        return None, None
    try:
        iso = parse_date(str(raw))
    except DateError:
        return None, (
            f"ignoring {label} {raw!r}: not {EXPECTED}; searching without it, as ReMe does"
        )
    stripped = str(raw).strip()
    if len(stripped) > _READ_LENGTH and _dropped_text(stripped):
        read = stripped[:_READ_LENGTH]
        return iso, f"{label} {raw!r} read as {iso}, as ReMe does: it reads only {read!r}"
    return iso, None


def calendar_day(text: str) -> str | None:
    """ReMe's rule for a date in a name it wrote (a ``daily/YYYY-MM-DD/`` folder, a
    ``YYYY-MM-DD.md`` day-index page): ``date.fromisoformat``, as ISO; None when not one."""
    try:
        return _dt.date.fromisoformat(text).isoformat()
    except ValueError:
        return None


def day(iso: str) -> _dt.date:
    """The day an engine date (``YYYY-MM-DD``, as memories are dated) names."""
    return _dt.date.fromisoformat(iso)


def iso_value(text: str, *, with_time: bool) -> _dt.date:
    """A date (or datetime) that reme-tui stored as ISO text itself; ValueError if not."""
    return _dt.datetime.fromisoformat(text) if with_time else _dt.date.fromisoformat(text)


def local_iso(time_ns: int) -> str:
    """A moment as local time with its offset, to the second."""
    return _dt.datetime.fromtimestamp(time_ns / 1e9).astimezone().isoformat(timespec="seconds")


STAMP_FORMAT = "%Y%m%dT%H%M%S"  # local time, in names reme-tui gives files (sortable)


def stamp_now() -> str:
    return _time.strftime(STAMP_FORMAT)


def stamp_seconds(stamp: str) -> float:
    """Seconds since the epoch of a ``stamp_now`` stamp; ValueError when it is not one."""
    return _time.mktime(_time.strptime(stamp, STAMP_FORMAT))
