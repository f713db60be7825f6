"""Tag operations on a file's text: read the tag list, add, remove, set, rewrite.

Only the lines of the tag entry (``memory_tags`` by default) ever change; every other
byte stays as it was, and each result is re-parsed and refused unless exactly the
intended tags changed. Pure text in, text out: the file I/O lives in ``fileio``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import InvalidTag, UnsafeEditError
from ...tags import DEFAULT_TAG_FIELD, MAX_TAG_LENGTH, MAX_TAGS_PER_FILE, judge_tag, normalize_tag
from .locate import _Frontmatter, _Item, _load_frontmatter, _Split, _split
from .quoting import _same
from .render import NewItem, _render, _values_of, _verify
from .split import normalize_newlines, split_frontmatter

BOM_NOTE = (
    "the file starts with a byte-order mark, so ReMe does not see its frontmatter: "
    "the tags were written but will not be indexed until the BOM is removed"
)


@dataclass(frozen=True, slots=True)
class AddTag:
    """Append ``tag`` unless an item equal after normalization is present."""

    tag: str


@dataclass(frozen=True, slots=True)
class RemoveTag:
    """Remove every item equal to ``tag`` after normalization."""

    tag: str


@dataclass(frozen=True, slots=True)
class SetTags:
    """Replace the list with ``tags`` (written as given, in order)."""

    tags: tuple[str, ...]

    def __init__(self, tags: Iterable[str]) -> None:
        object.__setattr__(self, "tags", tuple(tags))


TagOp = AddTag | RemoveTag | SetTags


def effective_tags(items: Iterable[Any]) -> tuple[str, ...]:
    """The tags ReMe indexes for these items: normalized, deduplicated, first three."""
    seen: dict[str, None] = {}
    for item in items:
        canonical = normalize_tag(item)
        if canonical is not None:
            seen.setdefault(canonical, None)
    return tuple(seen)[:MAX_TAGS_PER_FILE]


def _parse(text: str, field_name: str) -> tuple[_Split, _Frontmatter]:
    split = _split(text)
    fm_text = split.fm_text() if split.has_frontmatter else ""
    mine = normalize_newlines(fm_text).strip() if split.has_frontmatter else None
    if split_frontmatter(text[len(split.bom) :])[0] != mine:
        raise UnsafeEditError(
            "the file's line breaks (lone CR, form feed or Unicode separators) make its "
            "frontmatter ambiguous; refusing to edit"
        )
    return split, _load_frontmatter(fm_text, field_name)


def _apply_items(
    text: str,
    split: _Split,
    fm: _Frontmatter,
    items: Sequence[NewItem],
    field_name: str,
    *,
    make_list: bool = True,
) -> str:
    """Render ``items`` into the entry and check the result; ``text`` itself when unchanged.

    With ``make_list`` a scalar entry holding the same value is still rewritten as a list,
    because ReMe reads no tags from a scalar.
    """
    old_values = _values_of(fm.entry.items)
    new_values = _values_of(items)
    unchanged = len(old_values) == len(new_values) and all(map(_same, old_values, new_values))
    reused = all(isinstance(item, _Item) for item in items)
    keeps_scalar = fm.entry.kind == "scalar" and bool(items) and make_list
    if unchanged and reused and not keeps_scalar:
        return text
    if not items and fm.entry.kind in ("absent", "empty"):
        return text
    for item in items:
        if isinstance(item, str):
            _check_encodable(item)
    new_text = _render(split, fm, items, field_name)
    _verify(split, fm, new_text, items, field_name)
    return new_text


def _faithful(item: _Item, tag: str) -> bool:
    if isinstance(item.value, str):
        return item.value == tag
    return type(item.value) is int and str(item.value) == tag


def _match_items(old: Sequence[_Item], tags: Sequence[str]) -> list[NewItem]:
    """Reuse an existing item's source text wherever it already says exactly this tag."""
    unused = list(old)
    out: list[NewItem] = []
    for tag in tags:
        match = next((item for item in unused if _faithful(item, tag)), None)
        if match is None:
            out.append(tag)
        else:
            unused.remove(match)
            out.append(match)
    return out


def read_tags(text: str, field: str = DEFAULT_TAG_FIELD) -> list[str]:
    """The entry's raw items as written (strings; ints as their digits), for the editor.

    A scalar value counts as one item (ReMe ignores it; the editor shows it so it can be
    fixed). Raises UnsafeEditError when the file could not be edited safely.
    """
    _, fm = _parse(text, field)
    return [item.display for item in fm.entry.items]


def rewrite_tags(text: str, tags: Sequence[str], field: str = DEFAULT_TAG_FIELD) -> str:
    """``text`` with the tag entry replaced by ``tags``; every other byte is kept.

    Items that already say exactly one of ``tags`` keep their source text (quoting,
    comments before them). Raises UnsafeEditError rather than guess.
    """
    split, fm = _parse(text, field)
    return _apply_items(text, split, fm, _match_items(fm.entry.items, list(tags)), field)


def _check_encodable(tag: str) -> None:
    try:
        tag.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidTag(f"tag {tag!r} is not valid Unicode text") from exc


def validate_tag(tag: str) -> str:
    """The canonical form of a tag the user asked for; InvalidTag when ReMe would drop it."""
    if not isinstance(tag, str):
        raise InvalidTag(f"tag {tag!r} is not text")
    _check_encodable(tag)
    verdict = judge_tag(tag)
    if verdict.reason == "too-long":
        raise InvalidTag(f"tag {tag!r} is longer than {MAX_TAG_LENGTH} characters")
    if verdict.canonical is None:
        raise InvalidTag(f"tag {tag!r} normalizes to nothing")
    return verdict.canonical


def _op_items(old: Sequence[_Item], op: TagOp) -> list[NewItem]:
    if isinstance(op, AddTag):
        wanted = validate_tag(op.tag)
        if any(normalize_tag(item.value) == wanted for item in old):
            return list(old)
        return [*old, op.tag]
    if isinstance(op, RemoveTag):
        unwanted = validate_tag(op.tag)
        return [item for item in old if normalize_tag(item.value) != unwanted]
    if isinstance(op, SetTags):
        for tag in op.tags:
            validate_tag(tag)
        return _match_items(old, list(op.tags))
    raise TypeError(f"unknown tag operation {op!r}")


def apply_op(
    text: str, op: TagOp, field: str = DEFAULT_TAG_FIELD
) -> tuple[str, list[str], list[str]]:
    """Pure form of ``edit_tags``: (new text, old raw tags, new raw tags)."""
    split, fm = _parse(text, field)
    items = _op_items(fm.entry.items, op)
    make_list = not isinstance(op, RemoveTag)  # removing nothing never rewrites
    new_text = _apply_items(text, split, fm, items, field, make_list=make_list)
    old_tags = [item.display for item in fm.entry.items]
    new_tags = [item.display if isinstance(item, _Item) else item for item in items]
    if new_text == text:
        new_tags = old_tags
    return new_text, old_tags, new_tags
