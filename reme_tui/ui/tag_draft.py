"""The tag editor's pure model: the pending list, its warnings and autocomplete.

No Textual here, so the rules (what is suggested first, which chips fall off, how a
move or a rename changes the list) are testable without running the app.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from reme_tui.engine.tags import TagWarning, normalize_tag, warnings_for

SUGGESTION_LIMIT = 8
_NEAR_STRIP = re.compile(r"[\s_\-]+")


def near_key(text: str) -> str:
    """``text`` without case, spaces, ``_`` or ``-``: spellings of one tag share it."""
    return _NEAR_STRIP.sub("", text.casefold())


@dataclass(frozen=True, slots=True)
class Suggestion:
    """An existing tag offered while typing; ``exact`` when it is a spelling of the input.

    ``reason`` is set on a tag the engine proposes for this memory (its strongest
    evidence, such as "named in its name"); those come before autocomplete."""

    tag: str
    count: int
    exact: bool
    reason: str = ""


def suggest(
    text: str,
    existing: Iterable[tuple[str, int]],
    exclude: Iterable[str] = (),
    limit: int = SUGGESTION_LIMIT,
) -> list[Suggestion]:
    """Existing tags matching ``text`` across case, spaces, ``_`` and ``-``.

    Spellings of the input come first, then tags starting with it, then tags holding
    it; each group keeps ``existing``'s order (most used first). Tags already in
    ``exclude`` (the pending list) are left out.
    """
    key = near_key(text)
    if not key:
        return []
    taken = {normalize_tag(tag) for tag in exclude}
    groups: tuple[list[Suggestion], list[Suggestion], list[Suggestion]] = ([], [], [])
    for tag, count in existing:
        if normalize_tag(tag) in taken:
            continue
        candidate = near_key(tag)
        if candidate == key:
            groups[0].append(Suggestion(tag, count, True))
        elif candidate.startswith(key):
            groups[1].append(Suggestion(tag, count, False))
        elif key in candidate:
            groups[2].append(Suggestion(tag, count, False))
    return [*groups[0], *groups[1], *groups[2]][:limit]


BLOCKING = frozenset({"invalid", "too-long"})


@dataclass(slots=True)
class TagDraft:
    """The list being edited, plus the text being typed (shown as a would-be tag)."""

    tags: list[str] = field(default_factory=list)
    existing: list[tuple[str, int]] = field(default_factory=list)
    proposals: list[Suggestion] = field(default_factory=list)  # the engine's, for this memory

    def items(self, typing: str = "", renaming: int | None = None) -> list[str]:
        """The list as it would be if ``typing`` were committed now.

        While renaming, ``typing`` replaces that tag; otherwise it is appended (when
        not blank). Warning indexes point into this list.
        """
        items = list(self.tags)
        if renaming is not None and 0 <= renaming < len(items):
            items[renaming] = typing
        elif typing.strip():
            items.append(typing)
        return items

    def warnings(self, typing: str = "", renaming: int | None = None) -> list[TagWarning]:
        """Warnings for the list with ``typing`` in it (see ``items``), in list order."""
        return warnings_for(self.items(typing, renaming), self.existing)

    def kinds_by_index(self, typing: str = "", renaming: int | None = None) -> dict[int, set[str]]:
        kinds: dict[int, set[str]] = {}
        for warning in self.warnings(typing, renaming):
            kinds.setdefault(warning.index, set()).add(warning.kind)
        return kinds

    def blocking(self) -> list[TagWarning]:
        """Warnings that stop a save (the engine refuses tags ReMe would drop)."""
        return [w for w in self.warnings() if w.kind in BLOCKING]

    def add(self, tag: str) -> int:
        """Append ``tag`` (stripped); returns its index."""
        self.tags.append(tag.strip())
        return len(self.tags) - 1

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.tags):
            del self.tags[index]

    def rename(self, index: int, tag: str) -> None:
        """Replace the tag at ``index``; an empty name removes it."""
        if not 0 <= index < len(self.tags):
            return
        if tag.strip():
            self.tags[index] = tag.strip()
        else:
            del self.tags[index]

    def move(self, index: int, delta: int) -> int:
        """Move the tag at ``index`` by ``delta`` places; returns where it ended up."""
        if not 0 <= index < len(self.tags):
            return index
        target = max(0, min(len(self.tags) - 1, index + delta))
        tag = self.tags.pop(index)
        self.tags.insert(target, tag)
        return target

    def suggestions(self, text: str, renaming: int | None = None) -> list[Suggestion]:
        """Existing tags for ``text``, leaving out the other tags already in the list."""
        others = [tag for index, tag in enumerate(self.tags) if index != renaming]
        if not near_key(text):  # nothing typed yet: what the engine proposes for this memory
            taken = {normalize_tag(tag) for tag in others}
            fresh = [p for p in self.proposals if normalize_tag(p.tag) not in taken]
            return fresh[:SUGGESTION_LIMIT]
        # While typing, autocomplete's order stands (spellings, prefixes, then the rest);
        # a proposed tag comes first within its group and says why it is proposed.
        reasons = {p.tag: p.reason for p in self.proposals}
        typed = suggest(text, self.existing, exclude=others, limit=len(self.existing))
        marked = [replace(s, reason=reasons.get(s.tag, "")) for s in typed]
        group = {id(s): (0 if s.exact else 1 if near_key(s.tag).startswith(near_key(text)) else 2)
                 for s in marked}  # fmt: skip
        marked.sort(key=lambda s: (group[id(s)], not s.reason))
        return marked[:SUGGESTION_LIMIT]


def pack(widths: Sequence[int], width: int) -> list[list[int]]:
    """Indexes of chips per row, filling each row before starting the next."""
    rows: list[list[int]] = []
    used = width
    for index, cells in enumerate(widths):
        if used + cells > width and (not rows or rows[-1]):
            rows.append([])
            used = 0
        rows[-1].append(index)
        used += cells
    return rows


def first_near_duplicate(warnings: Sequence[TagWarning]) -> TagWarning | None:
    """The near-duplicate warning the accept key fixes next."""
    for warning in warnings:
        if warning.kind == "near-duplicate" and warning.suggestion is not None:
            return warning
    return None
