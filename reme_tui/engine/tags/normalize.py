"""ReMe's tag normalization: one frontmatter item -> its canonical tag, or why it is dropped."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# The frontmatter key ReMe reads tags from (configurable: `[index] tag_field`).
DEFAULT_TAG_FIELD = "memory_tags"

MAX_TAG_LENGTH = 64

MAX_TAGS_PER_FILE = 3


class TagError(ValueError):
    """Raised when query tags normalize to nothing."""


@dataclass(frozen=True, slots=True)
class TagVerdict:
    """Why an input item was or was not accepted as a tag."""

    canonical: str | None
    reason: str | None  # None when accepted; else "type", "empty", "too-long", "no-alnum"


def judge_tag(item: Any) -> TagVerdict:
    """Normalize one frontmatter item the way ReMe does, saying why it was rejected."""
    if isinstance(item, bool) or not isinstance(item, str | int):
        return TagVerdict(None, "type")
    joined = "_".join(str(item).split())
    if not joined:
        return TagVerdict(None, "empty")
    if len(joined) > MAX_TAG_LENGTH:
        return TagVerdict(None, "too-long")
    if not any(ch.isalnum() for ch in joined):
        return TagVerdict(None, "no-alnum")
    return TagVerdict(joined.casefold(), None)


def normalize_tag(item: Any) -> str | None:
    """Canonical form of one tag, or None when ReMe would drop it."""
    return judge_tag(item).canonical


def normalize_query_tags(tags: Iterable[Any]) -> list[str]:
    """Normalize query tags (no 3-tag limit), deduplicated in order.

    Raises TagError when tags were given but every one normalizes to nothing.
    """
    given = list(tags)
    seen: dict[str, None] = {}
    for item in given:
        canonical = normalize_tag(item)
        if canonical is not None:
            seen.setdefault(canonical, None)
    if given and not seen:
        raise TagError("tags contained no valid values")
    return list(seen)
