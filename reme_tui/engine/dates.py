"""The one rule for dates a person types (``--since``, ``since:`` in the app, the engine API).

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
