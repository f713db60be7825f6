"""Which changes a batch of observed memories makes to the recorded state, moves paired."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from .blobs import blob_or_none
from .entries import Observed, content_key, line_counts, text_lines
from .rows import db_path, str_or_none, tags_from

# Move detection by content with rewritten links compares at most this many pairs.
_MAX_MOVE_PAIRS = 400


@dataclass
class Pending:
    """One change found in a batch, before it is written as an entry."""

    kind: str
    path: str
    old_path: str | None
    old_hash: str | None
    new_hash: str | None
    data: bytes | None
    name: str | None
    tags_before: tuple[str, ...]
    tags_after: tuple[str, ...]
    old_data: bytes | None
    counts: tuple[int, int] = (0, 0)


def classify(conn: sqlite3.Connection, observed: Sequence[Observed]) -> list[Pending]:
    """The batch's changes against what was last recorded: created, modified, deleted,
    and moves (the same content, or the same with ``[[old]]`` links rewritten)."""
    last: dict[str, tuple[str, str | None, tuple[str, ...]]] = {}
    for item in dict((o.path, o) for o in observed).values():
        row = conn.execute(
            "SELECT hash, name, tags FROM current WHERE path=?", (db_path(item.path),)
        ).fetchone()
        if row is not None and isinstance(row[0], str):
            last[item.path] = (row[0], str_or_none(row[1]), tags_from(row[2]))
    unique = list(dict((o.path, o) for o in observed).values())
    pending: list[Pending] = []
    gone: dict[str, Pending] = {}
    new: list[Pending] = []
    for item in unique:
        before = last.get(item.path)
        if item.data is None:
            if before is None:
                continue
            change = Pending(
                "deleted",
                item.path,
                None,
                before[0],
                None,
                None,
                before[1],
                before[2],
                (),
                None,
            )
            gone[item.path] = change
            pending.append(change)
            continue
        key = content_key(item.data)
        if before is not None and before[0] == key:
            continue
        kind = "modified" if before is not None else "created"
        change = Pending(
            kind,
            item.path,
            None,
            before[0] if before else None,
            key,
            item.data,
            item.name,
            before[2] if before else (),
            item.tags,
            None,
        )
        pending.append(change)
        if kind == "created":
            new.append(change)
    if gone and new:
        _pair_moves(conn, gone, new, pending)
    for change in pending:
        if change.kind != "deleted":
            old_data = blob_or_none(conn, change.old_hash)
            change.old_data = old_data
            change.counts = line_counts(old_data, change.data)
        else:
            change.counts = (0, len(text_lines(blob_or_none(conn, change.old_hash))))
    return pending


def _pair_moves(
    conn: sqlite3.Connection,
    gone: dict[str, Pending],
    new: list[Pending],
    pending: list[Pending],
) -> None:
    by_hash: dict[str, str] = {}
    for path, change in gone.items():
        if change.old_hash:
            by_hash.setdefault(change.old_hash, path)
    unmatched: list[Pending] = []
    for change in new:
        source = by_hash.pop(change.new_hash or "", None)
        if source is not None and source in gone:
            _make_move(change, gone.pop(source), pending)
        else:
            unmatched.append(change)
    pairs = 0
    for change in unmatched:
        for source, removal in list(gone.items()):
            pairs += 1
            if pairs > _MAX_MOVE_PAIRS:
                return
            old = blob_or_none(conn, removal.old_hash)
            if old is None or change.data is None:
                continue
            rewritten = old.replace(f"[[{source}".encode(), f"[[{change.path}".encode())
            if rewritten == change.data:
                _make_move(change, gone.pop(source), pending)
                break


def _make_move(change: Pending, removal: Pending, pending: list[Pending]) -> None:
    change.kind = "moved"
    change.old_path = removal.path
    change.old_hash = removal.old_hash
    change.tags_before = removal.tags_before
    pending.remove(removal)


def link_note(change: Pending, moves: list[tuple[str, str]]) -> str:
    """'links: [[a]] → [[b]]' when this file's text had links rewritten to a moved path."""
    if change.old_data is None or change.data is None:
        return ""
    rewritten = [
        (src, dst)
        for src, dst in moves
        if f"[[{src}".encode() in change.old_data
        and f"[[{dst}".encode() in change.data
        and f"[[{src}".encode() not in change.data
    ]
    return "; ".join(f"links: [[{src}]] → [[{dst}]]" for src, dst in rewritten)


def move_label(moves: list[tuple[str, str]], pending: list[Pending]) -> str:
    others = sum(1 for p in pending if p.kind == "modified")
    src, dst = moves[0]
    label = f"move {src} → {dst}" if len(moves) == 1 else f"{len(moves)} moves"
    return label + (f" ({others} other file{'s' if others != 1 else ''} changed)" if others else "")
