"""The history's rows: what goes into its tables as text and how rows are read back
(every column type-checked; a row that fails its checks is skipped, never trusted)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence

from ..tags import normalize_tag
from .entries import KINDS, ChangeEntry, ChangeFilter

#: The columns ``entry_from_row`` reads, in its order, from ``entries e`` joined to ``groups g``.
ENTRY_SELECT = (
    "SELECT e.id, e.group_id, e.time_ns, e.kind, e.path, e.old_path, e.old_hash,"
    " e.new_hash, e.name, e.tags_before, e.tags_after, e.added, e.removed, e.note,"
    " e.reviewed, g.source, g.label, g.undo"
    " FROM entries e LEFT JOIN groups g ON g.id = e.group_id"
)


def tags_json(tags: Sequence[str]) -> str:
    return json.dumps(list(tags), ensure_ascii=False)


def tags_from(value: object) -> tuple[str, ...]:
    """Tags read back from the database: a JSON list of strings, else nothing."""
    if value == "[]" or not isinstance(value, str) or len(value) > 10_000:
        return ()
    with contextlib.suppress(ValueError):
        loaded = json.loads(value)
        if isinstance(loaded, list) and all(isinstance(t, str) for t in loaded):
            return tuple(loaded[:64])
    return ()


def str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def db_path(path: str) -> str | bytes:
    """A path as stored: text, or its raw bytes when it is not valid UTF-8 (a file named
    ``bad\xff.md`` decodes to a lone surrogate, which SQLite text cannot hold). Real paths
    never collide: a path that is valid UTF-8 is always stored as text."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape")
    return path


def path_from_db(value: object) -> str | None:
    """The inverse of ``db_path``; None for anything else."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return value if isinstance(value, str) else None


def db_text(text: str) -> str:
    """Free text (notes, labels) that may quote such a path, with its bad bytes shown as
    ``\xff``: it is only ever displayed."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def int_or_zero(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def where_clause(
    since_ns: int | None, until_ns: int | None, unreviewed: bool, where: ChangeFilter | None
) -> tuple[str, list[object]]:
    """The SQL condition (on ``entries e``) for these bounds and filters, and its values."""
    parts = ["1=1"]
    params: list[object] = []
    if since_ns is not None:
        parts.append("e.time_ns >= ?")
        params.append(since_ns)
    if until_ns is not None:
        parts.append("e.time_ns <= ?")
        params.append(until_ns)
    if unreviewed or (where is not None and where.unreviewed):
        parts.append("e.reviewed = 0")
    if where is not None:
        if where.kinds:
            parts.append(f"e.kind IN ({','.join('?' * len(where.kinds))})")
            params.extend(sorted(where.kinds))
        if where.path_prefix:
            parts.append("(substr(e.path, 1, ?) = ? OR substr(coalesce(e.old_path, ''), 1, ?) = ?)")
            size = len(where.path_prefix)
            params += [size, where.path_prefix, size, where.path_prefix]
        if where.tag:
            # The tag as it appears inside the stored JSON lists; matches() confirms.
            needle = json.dumps(
                normalize_tag(where.tag) or where.tag.casefold(), ensure_ascii=False
            )
            parts.append("(instr(e.tags_before, ?) > 0 OR instr(e.tags_after, ?) > 0)")
            params += [needle, needle]
    return " AND ".join(parts), params


def entry_from_row(row: tuple[object, ...]) -> ChangeEntry | None:
    (
        eid,
        group,
        when,
        kind,
        path,
        old_path,
        old_hash,
        new_hash,
        name,
        before,
        after,
        added,
        removed,
        note,
        reviewed,
        source,
        label,
        undo,
    ) = row
    path = path_from_db(path)
    if not isinstance(eid, int) or path is None or kind not in KINDS:
        return None
    return ChangeEntry(
        id=eid,
        group=int_or_zero(group),
        time_ns=int_or_zero(when),
        kind=str(kind),
        path=path,
        old_path=path_from_db(old_path),
        old_hash=str_or_none(old_hash),
        new_hash=str_or_none(new_hash),
        name=str_or_none(name),
        tags_before=tags_from(before),
        tags_after=tags_from(after),
        added=int_or_zero(added),
        removed=int_or_zero(removed),
        note=note if isinstance(note, str) else "",
        reviewed=bool(reviewed),
        source=source if isinstance(source, str) else "",
        label=label if isinstance(label, str) else "",
        undo=str_or_none(undo),
    )
