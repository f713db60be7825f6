"""ReMe's other search filters, exactly: exact paths, path prefixes, frontmatter metadata.

From `LocalFileStore._matches_search_filter` (reme-ai 0.4.2.0):

* `path` / `paths`: the chunk's path must be in the set (several = any of);
* `path_prefix` / `path_prefixes` / `prefix` / `prefixes`: plain `str.startswith`, any of
  (`daily/2026-03-1` matches `daily/2026-03-12/x.md`: a prefix is not a folder);
* every other key, and each key of a `metadata` dict, is an equality test against the
  chunk's metadata, AND-ed; a list value means "any of" (`actual in set(values)`); a
  mapping is compared whole (`{"team": "pay"}` equals only that mapping, keys in any order);
* chunk metadata holds the frontmatter only when the chunker runs with
  `include_frontmatter_in_metadata: true`: the frontmatter as pydantic dumps it to JSON
  (dates as `YYYY-MM-DD` text...), restricted to `include_frontmatter_keys_in_metadata`
  when that is set, keys whose value is `None` or `""` dropped. Otherwise every metadata
  test compares against nothing (only `KEY=null` matches).

One deliberate difference: a list-valued test against a list-valued key (`people` is a
list) raises inside ReMe (`unhashable type`); here it simply does not match.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_MISSING = object()


class MetaArgError(ValueError):
    """A `--meta` argument that is not `KEY=VALUE`."""


@dataclass(frozen=True, slots=True)
class MetaTest:
    """One metadata equality test; `any_of` when the value was a list."""

    key: str
    value: Any
    any_of: bool = False

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        actual = metadata.get(self.key)
        if not self.any_of:
            return bool(actual == self.value)
        try:
            return any(actual == v and hash(actual) == hash(v) for v in self.value)
        except TypeError:  # unhashable actual (a list): ReMe raises; no match here
            return False

    def __hash__(self) -> int:
        # Filters are cache keys; a mapping value is not hashable, and equal tests must
        # still hash alike.
        try:
            return hash((self.key, self.value, self.any_of))
        except TypeError:
            return hash((self.key, self.any_of))

    @property
    def label(self) -> str:
        shown = self.value if isinstance(self.value, str) else json.dumps(self.value)
        if self.any_of:
            shown = json.dumps(list(self.value), ensure_ascii=False)
        return f"{self.key}:{shown}"


def parse_meta(arg: str) -> MetaTest:
    """`KEY=VALUE`: VALUE is JSON when it parses (numbers, true/false/null, "text", lists),
    else the text itself; a JSON list means any of its values."""
    key, sep, raw = arg.partition("=")
    key = key.strip()
    if not sep or not key:
        raise MetaArgError(f"--meta {arg!r}: expected KEY=VALUE (e.g. type=decision)")
    return meta_test(key, _json_or_text(raw))


def meta_test(key: str, value: Any) -> MetaTest:
    if isinstance(value, list | tuple | set | frozenset):
        try:
            values = tuple(dict.fromkeys(value))
        except TypeError:
            raise MetaArgError(f"{key}: a list of values must hold plain values") from None
        return MetaTest(key, values, any_of=True)
    return MetaTest(key, value)  # a mapping too: ReMe compares it whole, with ==


def _json_or_text(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def chunk_metadata(
    frontmatter: Mapping[str, Any], allow_keys: Iterable[str] = ()
) -> dict[str, Any]:
    """What ReMe's markdown chunker puts in chunk metadata (with the switch on)."""
    dumped: dict[str, Any] = {
        "name": frontmatter.get("name", ""),
        "description": frontmatter.get("description", ""),
    }
    for key, value in frontmatter.items():
        if key not in ("name", "description"):
            dumped[str(key)] = _jsonable(value)
    keys = list(allow_keys)
    if keys:
        dumped = {k: dumped.get(k) for k in keys if k in dumped}
    return {
        k: v for k, v in dumped.items() if v is not None and not (isinstance(v, str) and v == "")
    }


def _jsonable(value: Any, depth: int = 0) -> Any:
    """pydantic's `model_dump(mode="json")` for the values YAML's safe loader produces."""
    if depth > 32:
        return None
    if isinstance(value, _dt.datetime):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(value).decode("ascii")
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v, depth + 1) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class PathFilter:
    """`--path` (exact, any of) and `--path-prefix` (startswith, any of)."""

    paths: frozenset[str] | None = None
    prefixes: tuple[str, ...] = ()

    def matches(self, path: str) -> bool:
        if self.paths is not None and path not in self.paths:
            return False
        return not self.prefixes or path.startswith(self.prefixes)

    @property
    def active(self) -> bool:
        return self.paths is not None or bool(self.prefixes)


def metadata_matches(
    tests: Iterable[MetaTest],
    frontmatter: Mapping[str, Any] | None,
    layout_on: bool,
    allow_keys: Iterable[str] = (),
) -> bool:
    """All tests hold against the chunk metadata ReMe would have for this frontmatter."""
    metadata = chunk_metadata(frontmatter or {}, allow_keys) if layout_on else {}
    return all(test.matches(metadata) for test in tests)
