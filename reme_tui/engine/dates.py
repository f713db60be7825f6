"""Every date reme-tui reads, in one place: the dates a person types, the dates ReMe put in
names, the engine's own ISO days, and the time stamps reme-tui writes itself.

The rule for dates a person types (``--since``, ``since:`` in the app, the engine API):

A date is ``YYYY-M-D`` with one or two digits for month and day (``2026-3-1`` becomes
``2026-03-01``), optionally followed by a time after ``T`` or a space
(``2026-03-10T08:00``, ``2026-03-10 08:00:00+02:00``). The time must be a real time and
is then dropped: memories are dated by day, so a bound is always a whole day. Anything
else (``2026-01-01garbage``, ``2026/03/01``, ``20260301``, ``2026-02-30``) is not a date.

Where a bad date goes is the caller's choice: the CLI refuses it as a usage error, the
app shows it in the search bar, and the engine ignores it with a warning as the
reference does (SPEC, search pipeline step 3).
"""

from __future__ import annotations

import datetime as _dt
import re
import time as _time

_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\S+))?")
EXPECTED = "a date like 2026-03-01"


class DateError(ValueError):
    """Text that is not a date by the rule above."""


def parse_date(text: str) -> str:
    """The ISO date (``YYYY-MM-DD``) ``text`` names; DateError when it names none."""
    match = _DATE.fullmatch(text.strip())
    if match is None:
        raise DateError(f"{text!r} is not {EXPECTED}")
    year, month, day, time = match.groups()
    try:
        date = _dt.date(int(year), int(month), int(day))
        if time is not None:
            _dt.datetime.fromisoformat(f"{date.isoformat()}T{time}")
    except ValueError:
        raise DateError(f"{text!r} is not {EXPECTED}") from None
    return date.isoformat()


def date_or_none(text: str) -> str | None:
    """``parse_date`` for input still being typed: None instead of an error."""
    try:
        return parse_date(text)
    except DateError:
        return None


def date_bound(raw: str | None, label: str) -> tuple[str | None, str | None]:
    """The engine's reading of a ``since``/``until`` bound: (ISO date or None, warning or None).

    Empty means no bound; a bad date is ignored with a warning, as the reference does.
    """
    if raw is None or not str(raw).strip():
        return None, None
    try:
        return parse_date(str(raw)), None
    except DateError:
        return None, f"ignoring invalid {label} {raw!r}; expected a YYYY-MM-DD date"


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
