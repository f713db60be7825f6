"""Filters from what a person or an agent typed: the one place the command line's flags and
the MCP server's tool arguments are checked (tags that normalize to nothing,
``all_tags`` without tags, ``KEY=VALUE`` metadata tests), each refusal naming the caller's
own spelling of the argument (``--since`` for the CLI, ``since`` for an MCP tool). A date
is not refused: ReMe ignores a bad one with a warning, and so does the engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..dates import date_bound
from ..tags import TagError, normalize_query_tags
from .filters import Filters
from .reme_filters import MetaArgError, MetaTest, parse_meta
from .types import SearchError


@dataclass(frozen=True, slots=True)
class ArgumentNames:
    """How the caller spells each filter argument in its messages."""

    tags: str = "tags"
    all_tags: str = "all_tags"
    exclude_tags: str = "exclude_tags"
    since: str = "since"
    until: str = "until"
    meta: str = "meta"


def checked_filters(
    *,
    tags: Iterable[str] = (),
    all_tags: bool = False,
    exclude_tags: Iterable[str] = (),
    since: str | None = None,
    until: str | None = None,
    strict_dates: bool = False,
    paths: Iterable[str] = (),
    path_prefixes: Iterable[str] = (),
    meta: Iterable[str] = (),
    names: ArgumentNames | None = None,
) -> Filters:
    """The Filters these values ask for; SearchError (naming the argument) when one is bad."""
    spelled = names or ArgumentNames()
    first, last = _date(since), _date(until)
    wanted, excluded = tuple(tags), tuple(exclude_tags)
    for name, values in ((spelled.tags, wanted), (spelled.exclude_tags, excluded)):
        try:
            normalize_query_tags(values)
        except TagError:
            shown = ", ".join(repr(v) for v in values)
            raise SearchError(f"{name} {shown}: tags contained no valid values") from None
    if all_tags and not wanted:
        raise SearchError(f"{spelled.all_tags} needs at least one {spelled.tags}")
    tests: list[MetaTest] = []
    for raw in meta:
        try:
            tests.append(parse_meta(raw))
        except MetaArgError as exc:
            raise SearchError(str(exc).replace("--meta", spelled.meta, 1)) from None
    return Filters(
        tags=wanted,
        all_tags=all_tags,
        exclude_tags=excluded,
        since=first,
        until=last,
        strict_dates=strict_dates,
        paths=tuple(dict.fromkeys(paths)),
        path_prefixes=tuple(dict.fromkeys(path_prefixes)),
        meta=tuple(tests),
    )


def _date(raw: str | None) -> str | None:
    """A bound as the engine should see it: the ISO date when the text is one, else the
    text itself, which the engine ignores (or reads in part) with a warning, as ReMe does."""
    if raw is None:
        return None
    iso, warning = date_bound(raw, "")
    return iso if iso is not None and warning is None else raw
