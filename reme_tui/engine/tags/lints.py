"""Agent junk tags: what ReMe's own auto-tag prompt forbids, found and fixed exactly.

Agents writing `memory_tags` through `frontmatter_update` produce tags ReMe indexes as
nonsense: comma-joined entities (`"OpenAI, gold"` becomes `openai,_gold`), a list split into
strings (`'["latency"'`, `'"alerts"]'`) or kept whole as one string (`'["sqlite", "spike"]'`),
stray quotes and brackets, dates as tags, and spellings that differ from a tag already in use
only by whitespace (`Open AI` beside `OpenAI`, `'  project   orbit '`). Each becomes a
diagnostic; the fix for a file is one new tag list (split, debris stripped, dates dropped,
whitespace collapsed), written through the edit path like any tag edit.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..codes import Code
from ..records import Diagnostic
from .normalize import judge_tag

_SEPARATORS = re.compile(r"[,，、;；]")
_DEBRIS = "[]\"'`“”‘’ \t"
_DATE_FORMS = (
    re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"),
    re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"),
    re.compile(r"^(\d{4})\.(\d{1,2})\.(\d{1,2})$"),
    re.compile(r"^(\d{4})(\d{2})(\d{2})$"),
)

LINT_CODES = (
    Code.TAG_COMMA_JOINED,
    Code.TAG_LIST_STRING,
    Code.TAG_DEBRIS,
    Code.TAG_DATE,
    Code.TAG_WHITESPACE,
)


@dataclass(frozen=True, slots=True)
class TagFix:
    """Replace the tag list of `path` (raw items `old`) with `new`."""

    path: str
    old: tuple[Any, ...]
    new: tuple[str, ...]
    scalar: bool = False  # the field held one string, not a list


@dataclass(frozen=True, slots=True)
class TagLints:
    diagnostics: tuple[Diagnostic, ...]
    fix: TagFix | None


def lint_tags(
    path: str,
    value: Any,
    line: int | None,
    known: Mapping[str, str] | None = None,
    files: Mapping[str, int] | None = None,
) -> TagLints:
    """Lints for one file's tag field `value`; `known` maps the workspace's canonical tags to
    the spelling to prefer (its most used one), `files` to how many memories carry each
    (this one included). A fix keeps every tag the file is filed under, but for a lone
    whitespace variant of a tag in use (`Open AI` beside `OpenAI`), which joins that tag."""
    known = known or {}
    files = files or {}
    if isinstance(value, str):
        return _lint_scalar(path, value, line)
    if not isinstance(value, list):
        return TagLints((), None)
    diagnostics: list[Diagnostic] = []
    new: list[str] = []
    changed = False
    fixable = True
    for item in value:
        if not isinstance(item, str):
            # An int stays the same tag as text; anything else (true, null, a nested list)
            # has no spelling a fix could keep, so that file is left for a person.
            fixable = fixable and isinstance(item, int) and not isinstance(item, bool)
            new.append(str(item))
            continue
        replacement, found = _clean_item(item, known, files)
        found = [
            (code, message.replace(repr(item.strip(_DEBRIS)), repr(item), 1))
            if code == "tag-whitespace" and item.strip(_DEBRIS) != item
            else (code, message)
            for code, message in found
        ]
        for code, message in found:
            diagnostics.append(Diagnostic(path, line, Code.of(code), message))
        changed = changed or replacement != [item]
        new.extend(replacement)
    if not changed:
        return TagLints(tuple(diagnostics), None)
    if not fixable:
        note = " (not fixed automatically: the list also holds a value that is not text)"
        return TagLints(tuple(_with_note(d, note) for d in diagnostics), None)
    fixed = _dedupe(new)
    return TagLints(
        tuple(_with_fix(d, fixed) for d in diagnostics),
        TagFix(path, tuple(value), tuple(fixed)),
    )


def _lint_scalar(path: str, value: str, line: int | None) -> TagLints:
    """`memory_tags: '["sqlite", "spike"]'`: ReMe reads no tags at all from a string."""
    stripped = value.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")):
        return TagLints((), None)
    parts = [p.strip(_DEBRIS) for p in _SEPARATORS.split(stripped)]
    fixed = _dedupe([p for p in parts if p])
    if not fixed:
        return TagLints((), None)
    message = (
        f"the tag list is one string {value!r}, so ReMe reads no tags; "
        f"fix: make it the list {_show(fixed)}"
    )
    return TagLints(
        (Diagnostic(path, line, Code.TAG_LIST_STRING, message),),
        TagFix(path, (value,), tuple(fixed), scalar=True),
    )


def _clean_item(
    item: str, known: Mapping[str, str], files: Mapping[str, int]
) -> tuple[list[str], list[tuple[str, str]]]:
    """The items that should replace `item`, and the (code, message) of each problem."""
    found: list[tuple[str, str]] = []
    canonical = judge_tag(item).canonical
    indexed = f" (ReMe indexes it as {canonical!r})" if canonical else " (ReMe drops it)"
    stripped = item.strip()
    has_brackets = any(c in stripped for c in "[]")
    pieces = [p for p in _SEPARATORS.split(stripped)] if _SEPARATORS.search(stripped) else [item]
    cleaned = [p.strip(_DEBRIS) for p in pieces]
    cleaned = [p for p in cleaned if p]
    if len(cleaned) > 1:
        found.append(
            (
                "tag-comma-joined",
                f"tag {item!r} joins several tags{indexed}; fix: split into {_show(cleaned)}",
            )
        )
    elif cleaned and cleaned[0] != item.strip() and not has_brackets:
        found.append(("tag-debris", f"tag {item!r} carries quotes{indexed}; fix: {cleaned[0]!r}"))
    elif cleaned and cleaned[0] != item.strip():
        found.append(
            (
                "tag-list-string",
                f"tag {item!r} is a piece of a list written as text{indexed}; fix: {cleaned[0]!r}",
            )
        )
    elif not cleaned and stripped:
        found.append(("tag-debris", f"tag {item!r} is only quotes or brackets; fix: remove it"))
    result: list[str] = []
    for piece in cleaned:
        if _is_date(piece):
            found.append(("tag-date", f"tag {piece!r} is a date, not an entity; fix: remove it"))
            continue
        collapsed = " ".join(piece.split())
        fixed, message = _respell(piece, collapsed, known, files)
        if message is not None:
            found.append(("tag-whitespace", message))
        result.append(fixed)
    return result, found


def _respell(
    piece: str, collapsed: str, known: Mapping[str, str], files: Mapping[str, int]
) -> tuple[str, str | None]:
    """The spelling a whitespace fix writes for `piece`, and why (None: leave it).

    The fix never takes a memory off the tag ReMe files it under (`"project atlas"` is
    `project_atlas`, used by 21 memories, and stays so even beside a rare `ProjectAtlas`);
    it prefers that tag's most used spelling. Only a variant no other memory shares joins
    the space-free tag in use, since joining it is the point."""
    own = judge_tag(collapsed).canonical
    squeezed = "".join(piece.split()).casefold()
    joined = known.get(squeezed)
    if (
        " " in collapsed
        and own is not None
        and own != squeezed
        and joined is not None
        and files.get(own, 0) <= 1
        and files.get(squeezed, 0) >= 1
    ):
        return joined, (
            f"tag {piece!r} differs from the tag {joined!r} only by whitespace; fix: {joined!r}"
        )
    preferred = known.get(own) if own is not None else None
    if " " in collapsed and preferred is not None and preferred != collapsed:
        count = files.get(own, 0) if own is not None else 0
        used = f" ({count} memories)" if count > 1 else ""
        return preferred, (
            f"tag {piece!r} is the tag {own!r}, most often spelled {preferred!r}{used}; "
            f"fix: {preferred!r}"
        )
    if collapsed != piece:
        return collapsed, f"tag {piece!r} has stray whitespace; fix: {collapsed!r}"
    return piece, None


def _is_date(text: str) -> bool:
    for form in _DATE_FORMS:
        match = form.match(text)
        if match:
            try:
                _dt.date(*(int(g) for g in match.groups()))
            except ValueError:
                return False
            return True
    return False


def _dedupe(items: Sequence[str]) -> list[str]:
    """First spelling of each canonical tag, in order (an invalid one is kept as written)."""
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = judge_tag(item).canonical or item
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _show(items: Sequence[str]) -> str:
    return ", ".join(repr(i) for i in items)


def _with_fix(diagnostic: Diagnostic, fixed: Sequence[str]) -> Diagnostic:
    """Each lint names the whole list the file's fix writes (one fix per file)."""
    return _with_note(diagnostic, f" (the fix writes {list(fixed)!r})")


def _with_note(diagnostic: Diagnostic, note: str) -> Diagnostic:
    return Diagnostic(
        diagnostic.path,
        diagnostic.line,
        diagnostic.code,
        diagnostic.message + note,
    )
