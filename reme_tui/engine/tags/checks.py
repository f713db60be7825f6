"""What the tag editor tells the user about a tag list before saving it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .normalize import MAX_TAG_LENGTH, MAX_TAGS_PER_FILE, judge_tag, normalize_tag

_NEAR_KEY_STRIP = re.compile(r"[\s_\-]+")

WarningKind = Literal["invalid", "too-long", "duplicate", "overflow", "near-duplicate"]


@dataclass(frozen=True, slots=True)
class TagWarning:
    """Something the editor shows before saving; ``index`` points into the input list."""

    kind: WarningKind
    index: int
    tag: str
    message: str
    suggestion: str | None = None


def _near_key(tag: str) -> str:
    return _NEAR_KEY_STRIP.sub("", tag.casefold())


def _near_duplicate(canonical: str, existing: Sequence[tuple[str, int]]) -> str | None:
    """The most used other spelling of ``canonical``, if it is used more than ``canonical``.

    A spelling that already exists on fewer memories is still a variant: in a real
    workspace ``project-atlas`` on one memory beside ``project_atlas`` on twenty must not
    make typing ``Project-Atlas`` look settled.
    """
    key = _near_key(canonical)
    own = sum(count for name, count in existing if normalize_tag(name) == canonical)
    candidates = [
        (count, name)
        for name, count in existing
        if _near_key(name) == key and normalize_tag(name) != canonical and count > own
    ]
    if not candidates:
        return None
    candidates.sort(key=lambda pair: (-pair[0], pair[1]))
    return candidates[0][1]


def warnings_for(
    tags: Sequence[str], existing_tags_with_counts: Iterable[tuple[str, int]] = ()
) -> list[TagWarning]:
    """What to tell the user about ``tags`` before saving them, in input order."""
    existing = list(existing_tags_with_counts)
    out: list[TagWarning] = []
    first_index: dict[str, int] = {}
    for index, tag in enumerate(tags):
        verdict = judge_tag(tag)
        if verdict.canonical is None:
            kind: WarningKind = "too-long" if verdict.reason == "too-long" else "invalid"
            reason = (
                f"is longer than {MAX_TAG_LENGTH} characters"
                if kind == "too-long"
                else "normalizes to nothing"
            )
            out.append(TagWarning(kind, index, tag, f"{tag!r} {reason}; ReMe drops it"))
            continue
        canonical = verdict.canonical
        if canonical in first_index:
            earlier = tags[first_index[canonical]]
            out.append(
                TagWarning(
                    "duplicate",
                    index,
                    tag,
                    f"{tag!r} is the same tag as {earlier!r} ({canonical})",
                    earlier,
                )
            )
            continue
        first_index[canonical] = index
        if len(first_index) > MAX_TAGS_PER_FILE:
            out.append(
                TagWarning(
                    "overflow",
                    index,
                    tag,
                    f"ReMe indexes only the first {MAX_TAGS_PER_FILE} tags; {tag!r} falls off",
                )
            )
        suggestion = _near_duplicate(canonical, existing)
        if suggestion is not None:
            out.append(
                TagWarning(
                    "near-duplicate",
                    index,
                    tag,
                    f"{tag!r} looks like the existing tag {suggestion!r}",
                    suggestion,
                )
            )
    return out
