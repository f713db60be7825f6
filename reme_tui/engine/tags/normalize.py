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


@dataclass(frozen=True, slots=True)
class TagItem:
    """One item of a file's tag list as ReMe reads it, in order: kept, or why not."""

    item: Any
    canonical: str | None  # None when the item itself is invalid
    outcome: str  # "kept", "duplicate", "over-limit", or the TagVerdict reason


def walk_tag_items(items: Iterable[Any]) -> list[TagItem]:
    """ReMe's reading of a tag list: each item normalized (``judge_tag``), repeats of an
    earlier tag dropped, then only the first ``MAX_TAGS_PER_FILE`` distinct tags kept."""
    kept: list[str] = []
    out: list[TagItem] = []
    for item in items:
        verdict = judge_tag(item)
        canonical = verdict.canonical
        if canonical is None:
            out.append(TagItem(item, None, verdict.reason or "invalid"))
        elif canonical in kept:
            out.append(TagItem(item, canonical, "duplicate"))
        elif len(kept) >= MAX_TAGS_PER_FILE:
            out.append(TagItem(item, canonical, "over-limit"))
        else:
            kept.append(canonical)
            out.append(TagItem(item, canonical, "kept"))
    return out


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
