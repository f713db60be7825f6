"""What one recorded change did: tag and frontmatter changes, then the text diff.

Reads both versions from the history (engine/history/database.py) and compares them the way a
person reviews an agent's edit: the tags first, then every other frontmatter key whose
value changed, then a unified diff of the body (and of the whole file, for scripts).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

import yaml

from ..parse import decode_text, load_yaml, split_frontmatter
from ..tags import DEFAULT_TAG_FIELD
from .database import ChangeHistory
from .entries import ChangeEntry, HistoryError

_MAX_VALUE_CHARS = 200
# Frontmatter larger than this is not parsed for the call-outs (the diff still shows it).
_MAX_FRONTMATTER_CHARS = 64 * 1024


@dataclass(frozen=True, slots=True)
class FieldChange:
    key: str
    before: str | None  # None: the key was absent
    after: str | None


@dataclass(frozen=True, slots=True)
class ChangeDiff:
    entry: ChangeEntry
    old_text: str
    new_text: str
    tags_before: tuple[str, ...]
    tags_after: tuple[str, ...]
    fields: tuple[FieldChange, ...]
    body_diff: str
    unified: str
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tags_before": list(self.tags_before),
            "tags_after": list(self.tags_after),
            "frontmatter": [
                {"key": f.key, "before": f.before, "after": f.after} for f in self.fields
            ],
            "diff": self.unified,
        }


def _load_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    yaml_text, body, _line = split_frontmatter(text)
    if yaml_text is None or len(yaml_text) > _MAX_FRONTMATTER_CHARS:
        return {}, body
    try:
        data = load_yaml(yaml_text)
    except yaml.YAMLError:
        return {}, body
    if not isinstance(data, dict):
        return {}, body
    return {str(k): v for k, v in data.items()}, body


def _render(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"


def field_changes(
    before: dict[str, Any], after: dict[str, Any], tag_field: str
) -> tuple[FieldChange, ...]:
    changes: list[FieldChange] = []
    for key in sorted(set(before) | set(after)):
        if key == tag_field:
            continue
        old, new = before.get(key), after.get(key)
        if key in before and key in after and _render(old) == _render(new):
            continue
        changes.append(
            FieldChange(
                key,
                _render(old) if key in before else None,
                _render(new) if key in after else None,
            )
        )
    return tuple(changes)


def _unified(old: str, new: str, old_name: str, new_name: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=old_name,
            tofile=new_name,
            n=3,
        )
    )


def _text(history: ChangeHistory, key: str | None) -> str:
    return decode_text(history.blob(key))[0] if key else ""


def diff_entry(
    history: ChangeHistory, entry: ChangeEntry, tag_field: str = DEFAULT_TAG_FIELD
) -> ChangeDiff:
    """The diff of one entry; a damaged version gives an empty diff with ``error`` set."""
    try:
        old_text, new_text = _text(history, entry.old_hash), _text(history, entry.new_hash)
    except HistoryError as error:
        return ChangeDiff(
            entry, "", "", entry.tags_before, entry.tags_after, (), "", "", str(error)
        )
    old_fm, old_body = _load_frontmatter(old_text)
    new_fm, new_body = _load_frontmatter(new_text)
    old_name = f"a/{entry.old_path or entry.path}" if entry.old_hash else "/dev/null"
    new_name = f"b/{entry.path}" if entry.new_hash else "/dev/null"
    return ChangeDiff(
        entry=entry,
        old_text=old_text,
        new_text=new_text,
        tags_before=entry.tags_before,
        tags_after=entry.tags_after,
        fields=field_changes(old_fm, new_fm, tag_field),
        body_diff=_unified(old_body, new_body, old_name, new_name),
        unified=_unified(old_text, new_text, old_name, new_name),
    )
