"""The search state a person builds in the search bar, and the query mini-language.

``tag:alice -tag:bob since:2026-01-01 until:2026-3-31 words`` puts ``alice`` in the tag
chips, ``bob`` in the excluded chips, fills the date fields and leaves ``words`` as text.
ReMe's other filters: ``in:digest/wiki`` (a path prefix, plain "starts with", as ReMe's
``path_prefix``), ``path:daily/2026-03-09/x.md`` (an exact path) and ``key:value`` for a
frontmatter key the workspace uses (a metadata test; the value is JSON when it parses,
so ``type:["a","b"]`` means any of them); other ``word:word`` text stays text. Values
with spaces go in quotes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from ..dates import EXPECTED, date_or_none
from ..tags import normalize_tag
from .filters import NO_FILTERS, Filters
from .reme_filters import MetaArgError, MetaTest, meta_test

# A quoted value may hold spaces; an unclosed quote runs to the end (still being typed).
_TOKEN = re.compile(r"(?:(?<=\s)|^)(-?)([A-Za-z_][\w.-]*):(\"[^\"]*(?:\"|$)|\S*)")
_KEYWORDS = frozenset({"tag", "since", "until", "in", "path"})


@dataclass(frozen=True, slots=True)
class SearchState:
    """Everything that decides what the results list shows: the text and the filters."""

    text: str = ""
    filters: Filters = NO_FILTERS

    @property
    def has_filters(self) -> bool:
        return not self.filters.is_empty

    def with_filters(self, **changes: Any) -> SearchState:
        return replace(self, filters=replace(self.filters, **changes))

    def with_tag(self, tag: str, *, exclude: bool = False) -> SearchState:
        """Add a tag chip (moving it between included and excluded if needed)."""
        return replace(self, filters=self.filters.with_tag(tag, exclude=exclude))

    def without_tag(self, tag: str) -> SearchState:
        return replace(self, filters=self.filters.without_tag(tag))

    def without_chip(self, kind: str, value: str) -> SearchState:
        """Remove one chip: a tag, a path prefix (``in:``), an exact path or a metadata key."""
        if kind == "prefix":
            return replace(self, filters=self.filters.without_prefix(value))
        if kind == "path":
            paths = tuple(p for p in self.filters.paths if p != value)
            return self.with_filters(paths=paths)
        if kind == "meta":
            return replace(self, filters=self.filters.without_meta(value))
        return self.without_tag(value)

    def without_last_tag(self) -> SearchState:
        """Backspace in an empty query removes the most recent chip (excluded chips last)."""
        if self.filters.meta:
            return self.with_filters(meta=self.filters.meta[:-1])
        if self.filters.paths:
            return self.with_filters(paths=self.filters.paths[:-1])
        if self.filters.path_prefixes:
            return self.with_filters(path_prefixes=self.filters.path_prefixes[:-1])
        if self.filters.exclude_tags:
            return self.with_filters(exclude_tags=self.filters.exclude_tags[:-1])
        if self.filters.tags:
            return self.with_filters(tags=self.filters.tags[:-1])
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
    prefixes: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    meta: list[MetaTest] = field(default_factory=list)
    pending_token: str = ""  # the token still being typed, as typed (``since:2026-03-06``)

    @property
    def found_tokens(self) -> bool:
        return bool(
            self.tags
            or self.exclude_tags
            or self.since
            or self.until
            or self.errors
            or self.prefixes
            or self.paths
            or self.meta
        )


def parse_query(
    text: str, *, complete: bool = False, meta_keys: Collection[str] = ()
) -> ParsedQuery:
    """Pull ``tag:``/``-tag:``/``since:``/``until:`` tokens out of ``text``.

    A token is only taken once it is finished (followed by a space) unless ``complete``
    is set (Enter pressed), so typing ``tag:ali`` does not make an ``ali`` chip.
    """
    tags: list[str] = []
    excluded: list[str] = []
    since: str | None = None
    until: str | None = None
    errors: list[str] = []
    prefixes: list[str] = []
    paths: list[str] = []
    meta: list[MetaTest] = []
    pending = False
    kept: list[str] = []
    in_box: list[str] = []  # the box keeps the text and every token with an error
    pending_token = ""
    position = 0
    for match in _TOKEN.finditer(text):
        errors_before = len(errors)
        try:
            raw_key, raw_value = match.group(2), match.group(3)
            if raw_key.lower() not in _KEYWORDS and (
                raw_key not in meta_keys or not raw_value or raw_value.startswith("//")
            ):
                continue  # `ratio:3`, `note:` or `https://...` is text, not a filter
            unclosed = raw_value.startswith('"') and (len(raw_value) == 1 or raw_value[-1] != '"')
            finished = complete or (match.end() < len(text) and not unclosed)
            kept.append(text[position : match.start()])
            in_box.append(text[position : match.start()])
            position = match.end()
            if not finished:
                pending = True  # still being typed: hidden from the search, left in the box
                pending_token = match.group(0)
                continue
            negate, key, value = match.group(1), match.group(2).lower(), match.group(3).strip('"')
            if key not in _KEYWORDS:
                if negate:
                    errors.append(f"only tags can be excluded, not {match.group(2)}:")
                    continue
                try:
                    meta.append(meta_test(match.group(2), _json_or_text(value)))
                except MetaArgError as error:
                    errors.append(str(error))
                continue
            if key in ("in", "path"):
                if negate or not value:
                    wrong = f"{key}: expects a path" if not value else f"-{key}: is not a filter"
                    errors.append(wrong)
                else:
                    (prefixes if key == "in" else paths).append(value)
                continue
            if key == "tag":
                canonical = normalize_tag(value)
                if canonical is None:
                    errors.append(f"not a valid tag: {value!r}")
                else:
                    (excluded if negate else tags).append(canonical)
            else:
                date = date_or_none(value)
                if date is None:
                    errors.append(f"{key}: expects {EXPECTED}, got {value!r}")
                elif key == "since":
                    since = date
                else:
                    until = date
        finally:
            if len(errors) > errors_before:  # a bad token stays in the box, marked, until fixed
                in_box.append(match.group(0))
    kept.append(text[position:])
    in_box.append(text[position:])
    remaining = re.sub(r"\s{2,}", " ", "".join(kept))
    remaining = remaining.strip() if complete else remaining.lstrip()
    box = re.sub(r"\s{2,}", " ", "".join(in_box)).lstrip()
    box = box + pending_token if pending_token else box
    return ParsedQuery(
        remaining,
        tags,
        excluded,
        since,
        until,
        errors,
        pending,
        box,
        prefixes,
        paths,
        meta,
        pending_token.strip(),
    )


def _json_or_text(value: str) -> object:
    import json

    try:
        return json.loads(value)
    except ValueError:
        return value
