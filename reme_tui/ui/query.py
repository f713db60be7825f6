"""The search state a person builds in the search bar, and the query mini-language.

``tag:alice -tag:bob since:2026-01-01 until:2026-3-31 words`` puts ``alice`` in the tag
chips, ``bob`` in the excluded chips, fills the date fields and leaves ``words`` as text.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace

from reme_tui.engine.tags import normalize_tag

_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_TOKEN = re.compile(r"(?:(?<=\s)|^)(-?)(tag|since|until):(\"[^\"]*\"|\S*)", re.IGNORECASE)


def normalize_date(text: str) -> str | None:
    """``2026-3-1`` -> ``2026-03-01``; None when it is not a real calendar date."""
    match = _DATE.match(text.strip())
    if not match:
        return None
    try:
        return dt.date(*(int(part) for part in match.groups())).isoformat()
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class SearchState:
    """Everything that decides what the results list shows."""

    text: str = ""
    tags: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    all_tags: bool = False
    since: str | None = None
    until: str | None = None
    strict_dates: bool = False

    @property
    def has_filters(self) -> bool:
        return bool(self.tags or self.exclude_tags or self.since or self.until)

    def with_tag(self, tag: str, *, exclude: bool = False) -> SearchState:
        """Add a tag chip (moving it between included and excluded if needed)."""
        canonical = normalize_tag(tag)
        if canonical is None:
            return self
        tags = tuple(t for t in self.tags if t != canonical)
        excluded = tuple(t for t in self.exclude_tags if t != canonical)
        if exclude:
            excluded += (canonical,)
        else:
            tags += (canonical,)
        return replace(self, tags=tags, exclude_tags=excluded)

    def without_tag(self, tag: str) -> SearchState:
        return replace(
            self,
            tags=tuple(t for t in self.tags if t != tag),
            exclude_tags=tuple(t for t in self.exclude_tags if t != tag),
        )

    def without_last_tag(self) -> SearchState:
        """Backspace in an empty query removes the most recent chip (excluded chips last)."""
        if self.exclude_tags:
            return replace(self, exclude_tags=self.exclude_tags[:-1])
        if self.tags:
            return replace(self, tags=self.tags[:-1])
        return self


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    text: str
    tags: list[str] = field(default_factory=list)
    exclude_tags: list[str] = field(default_factory=list)
    since: str | None = None
    until: str | None = None
    errors: list[str] = field(default_factory=list)
    pending: bool = False  # a token is still being typed at the end (left out of ``text``)
    box: str = ""  # what the query box should show: ``text`` plus any pending token

    @property
    def found_tokens(self) -> bool:
        return bool(self.tags or self.exclude_tags or self.since or self.until or self.errors)


def parse_query(text: str, *, complete: bool = False) -> ParsedQuery:
    """Pull ``tag:``/``-tag:``/``since:``/``until:`` tokens out of ``text``.

    A token is only taken once it is finished (followed by a space) unless ``complete``
    is set (Enter pressed), so typing ``tag:ali`` does not make an ``ali`` chip.
    """
    tags: list[str] = []
    excluded: list[str] = []
    since: str | None = None
    until: str | None = None
    errors: list[str] = []
    pending = False
    kept: list[str] = []
    pending_token = ""
    position = 0
    for match in _TOKEN.finditer(text):
        finished = complete or match.end() < len(text)
        kept.append(text[position : match.start()])
        position = match.end()
        if not finished:
            pending = True  # still being typed: hidden from the search, left in the box
            pending_token = match.group(0)
            continue
        negate, key, value = match.group(1), match.group(2).lower(), match.group(3).strip('"')
        if key == "tag":
            canonical = normalize_tag(value)
            if canonical is None:
                errors.append(f"not a valid tag: {value!r}")
            else:
                (excluded if negate else tags).append(canonical)
        else:
            date = normalize_date(value)
            if date is None:
                errors.append(f"{key}: expects a date like 2026-03-01, got {value!r}")
            elif key == "since":
                since = date
            else:
                until = date
    kept.append(text[position:])
    remaining = re.sub(r"\s{2,}", " ", "".join(kept))
    remaining = remaining.strip() if complete else remaining.lstrip()
    box = remaining + pending_token if pending_token else remaining
    return ParsedQuery(remaining, tags, excluded, since, until, errors, pending, box)
