"""Which memories a search or a listing may return: one frozen value for every caller.

The engine (``Engine.allowed_paths``, ``Engine.browse``, ``SearchQuery``), the CLI and the
app all describe a filter with ``Filters``, and the engine caches the allowed paths per
``Filters`` value, so every field must stay hashable (tuples, not lists or dicts).

Adding a filter: add a field here (hashable, with a default that filters nothing), count
it in ``is_empty``, apply it in ``Engine._compute_allowed``, and give the CLI and the
query parser a way to set it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..tags import normalize_tag
from .reme_filters import MetaTest


@dataclass(frozen=True, slots=True)
class Filters:
    """Tags (any or all of them), excluded tags and an inclusive date range.

    Tags are kept as given; the engine normalizes them (and refuses a list that
    normalizes to nothing). Dates are ``YYYY-MM-DD`` strings as ``engine.dates`` reads them;
    a date the engine cannot read is ignored with a warning. ``strict_dates`` drops
    undated memories from a date range (by default they pass, as in ReMe).
    """

    tags: tuple[str, ...] = ()
    all_tags: bool = False
    exclude_tags: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    strict_dates: bool = False
    # ReMe's search_filter: exact paths (any of), path prefixes (any of, plain startswith),
    # frontmatter metadata tests (all of; see reme_filter).
    paths: tuple[str, ...] = ()
    path_prefixes: tuple[str, ...] = ()
    meta: tuple[MetaTest, ...] = ()

    def __post_init__(self) -> None:
        # Callers pass lists (argparse, JSON); the cache key needs tuples.
        object.__setattr__(self, "tags", _strings(self.tags))
        object.__setattr__(self, "exclude_tags", _strings(self.exclude_tags))
        object.__setattr__(self, "paths", _strings(self.paths))
        object.__setattr__(self, "path_prefixes", _strings(self.path_prefixes))
        object.__setattr__(self, "meta", tuple(self.meta))

    @property
    def is_empty(self) -> bool:
        """True when nothing is filtered (``all_tags``/``strict_dates`` alone filter nothing)."""
        return not (
            self.tags
            or self.exclude_tags
            or self.since
            or self.until
            or self.paths
            or self.path_prefixes
            or self.meta
        )

    def with_prefix(self, prefix: str) -> Filters:
        if not prefix or prefix in self.path_prefixes:
            return self
        return replace(self, path_prefixes=(*self.path_prefixes, prefix))

    def without_prefix(self, prefix: str) -> Filters:
        return replace(self, path_prefixes=tuple(p for p in self.path_prefixes if p != prefix))

    def with_meta(self, test: MetaTest) -> Filters:
        kept = tuple(t for t in self.meta if t.key != test.key)
        return replace(self, meta=(*kept, test))

    def without_meta(self, key: str) -> Filters:
        return replace(self, meta=tuple(t for t in self.meta if t.key != key))

    def with_tag(self, tag: str, *, exclude: bool = False) -> Filters:
        """Require (or exclude) ``tag``, moving it between the two lists if needed."""
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

    def without_tag(self, tag: str) -> Filters:
        return replace(
            self,
            tags=tuple(t for t in self.tags if t != tag),
            exclude_tags=tuple(t for t in self.exclude_tags if t != tag),
        )


def _strings(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):  # a lone tag, not its characters
        return (values,)
    return tuple(values)


NO_FILTERS = Filters()
