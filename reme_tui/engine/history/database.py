"""The content history of a workspace's memories, kept outside the workspace.

Not to be confused with ``ui/history.py`` (back/forward navigation in the app): this
module answers "what did my agent change?". Every change reme-tui sees — at start against
what it last recorded, live from the watcher, after its own edits — is recorded as an
entry (created, modified, deleted, moved) with the content before and after.

Storage: one SQLite database per workspace in the user data directory
(``.../reme-tui/workspaces/<key>/history.sqlite3``, 0700 directory, 0600 file), holding
content-addressed blobs compressed with ``zstandard``.

Why SQLite + zstandard (and not dulwich's git object store): a git store writes one loose
object file per version and compresses each alone with zlib; 10,000 memories × 10
versions would be 100,000 small files, and crash consistency would rest on our own
ordering of object writes and ref updates. SQLite (stdlib, one of the most tested
libraries there is) gives one file, transactions that survive ``kill -9`` in WAL mode, and
indexed queries for the timeline; zstandard (python-zstandard, maintained since 2016)
compresses each version *against an earlier version of the same memory* used as a
raw-content dictionary, so a version that changed a tag costs tens of bytes, not a copy.
A delta's base is always a full blob (chains are one step deep), so reading any version
costs at most two decompressions, and pruning keeps every base a kept blob needs.

Everything read back is untrusted: rows are type-checked, compressed sizes and declared
sizes are bounded before anything is read or decompressed, every decompressed blob is
checked against its content hash, and nothing is unpickled.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import zstandard

from ..files import workspace_data_dir
from ..tags import normalize_tag
from .entries import (
    KINDS,
    ChangeEntry,
    ChangeFilter,
    HistoryError,
    HistoryStats,
    Observed,
    RecordResult,
    _lines,
    content_key,
    line_counts,
)

HISTORY_FILE = "history.sqlite3"
SCHEMA_VERSION = 1
DEFAULT_RETENTION_DAYS = 90
# A blob larger than the engine's file limit was not written by us.
MAX_BLOB_BYTES = 20 * 1024 * 1024 + 1
# A delta is kept only when clearly smaller than compressing the version alone.
_DELTA_RATIO = 0.6
_ZSTD_LEVEL = 3
# Move detection by content with rewritten links compares at most this many pairs.
_MAX_MOVE_PAIRS = 400


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blobs(
    hash TEXT PRIMARY KEY, base TEXT, raw_size INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS groups(
    id INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL, source TEXT NOT NULL,
    label TEXT NOT NULL, undo TEXT);
CREATE TABLE IF NOT EXISTS entries(
    id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL, time_ns INTEGER NOT NULL,
    kind TEXT NOT NULL, path TEXT NOT NULL, old_path TEXT, old_hash TEXT, new_hash TEXT,
    name TEXT, tags_before TEXT NOT NULL, tags_after TEXT NOT NULL,
    added INTEGER NOT NULL, removed INTEGER NOT NULL, note TEXT NOT NULL,
    reviewed INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS entries_time ON entries(time_ns);
CREATE INDEX IF NOT EXISTS entries_group ON entries(group_id);
CREATE INDEX IF NOT EXISTS entries_path ON entries(path);
CREATE TABLE IF NOT EXISTS current(
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, name TEXT, tags TEXT NOT NULL);
"""


def _now_ns() -> int:
    return time.time_ns()


def _tags_json(tags: Sequence[str]) -> str:
    return json.dumps(list(tags), ensure_ascii=False)


def _tags_from(value: object) -> tuple[str, ...]:
    """Tags read back from the database: a JSON list of strings, else nothing."""
    if value == "[]" or not isinstance(value, str) or len(value) > 10_000:
        return ()
    with contextlib.suppress(ValueError):
        loaded = json.loads(value)
        if isinstance(loaded, list) and all(isinstance(t, str) for t in loaded):
            return tuple(loaded[:64])
    return ()


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _secure_dir(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    st = os.lstat(directory)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise HistoryError(f"{directory} is not a directory; refusing to keep history there")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(directory, 0o700)


def _secure_file(path: Path) -> None:
    """Create the database file 0600 (SQLite gives its WAL the same mode); refuse links."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        os.close(fd)
        return
    if not stat.S_ISREG(st.st_mode):
        raise HistoryError(f"{path} is not a regular file; refusing to open it")
    if stat.S_IMODE(st.st_mode) != 0o600:
        os.chmod(path, 0o600)


class ChangeHistory:
    """The history database of one workspace. Thread-safe; one connection, one lock."""

    def __init__(self, path: Path, *, retention_days: int = DEFAULT_RETENTION_DAYS) -> None:
        self.path = path
        self.retention_days = retention_days
        self.notice: str | None = None
        self._lock = threading.RLock()
        self._conn = self._connect()

    @classmethod
    def for_workspace(
        cls,
        root: Path,
        data_dir: Path | None = None,
        *,
        retention_days: int = DEFAULT_RETENTION_DAYS,
    ) -> ChangeHistory:
        directory = workspace_data_dir(Path(root).resolve(), data_dir)
        return cls(directory / HISTORY_FILE, retention_days=retention_days)

    # -- opening -------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        try:
            _secure_dir(self.path.parent)
            _secure_file(self.path)
            return self._open_checked()
        except sqlite3.DatabaseError as error:
            return self._set_aside(str(error))
        except OSError as error:
            raise HistoryError(f"cannot open the change history {self.path}: {error}") from None

    def _open_checked(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=OFF")
            conn.execute("PRAGMA trusted_schema=OFF")
            conn.executescript(_SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif row[0] != str(SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"unknown history schema {row[0]!r}")
        except BaseException:
            conn.close()
            raise
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.chmod(f"{self.path}{suffix}", 0o600)
        return conn

    def _set_aside(self, why: str) -> sqlite3.Connection:
        """A damaged database is renamed aside (never deleted) and a new one started."""
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d%H%M%S')}")
        try:
            os.replace(self.path, aside)
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.replace(f"{self.path}{suffix}", f"{aside}{suffix}")
            _secure_file(self.path)
            conn = self._open_checked()
        except (OSError, sqlite3.DatabaseError) as error:
            raise HistoryError(f"the change history {self.path} is damaged ({why})") from error
        self.notice = f"the change history was damaged ({why}); kept as {aside.name}, started anew"
        return conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"change history: {error}") from None

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"change history: {error}") from None

    # -- meta ----------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows and isinstance(rows[0][0], str) else None

    @property
    def has_baseline(self) -> bool:
        return self._meta("baseline") is not None

    @property
    def last_review_ns(self) -> int | None:
        value = self._meta("last_review_ns")
        return int(value) if value and value.isdigit() else None

    # -- blobs ---------------------------------------------------------------

    def _store_blob(
        self, conn: sqlite3.Connection, data: bytes, key: str, prev: str | None
    ) -> None:
        if conn.execute("SELECT 1 FROM blobs WHERE hash=?", (key,)).fetchone():
            return
        plain = zstandard.ZstdCompressor(level=_ZSTD_LEVEL).compress(data)
        base, packed = None, plain
        keyframe = self._keyframe_of(conn, prev) if prev else None
        if keyframe is not None:
            base_key, base_data = keyframe
            dictionary = zstandard.ZstdCompressionDict(
                base_data, dict_type=zstandard.DICT_TYPE_RAWCONTENT
            )
            delta = zstandard.ZstdCompressor(level=_ZSTD_LEVEL, dict_data=dictionary).compress(data)
            if len(delta) < len(plain) * _DELTA_RATIO:
                base, packed = base_key, delta
        conn.execute(
            "INSERT INTO blobs(hash, base, raw_size, data) VALUES(?, ?, ?, ?)",
            (key, base, len(data), packed),
        )

    def _keyframe_of(self, conn: sqlite3.Connection, key: str) -> tuple[str, bytes] | None:
        row = conn.execute("SELECT base FROM blobs WHERE hash=?", (key,)).fetchone()
        if row is None:
            return None
        base_key = row[0] if isinstance(row[0], str) else key
        try:
            return base_key, self._read_blob(conn, base_key)
        except HistoryError:
            return None

    def _read_blob(self, conn: sqlite3.Connection, key: str, depth: int = 0) -> bytes:
        row = conn.execute(
            "SELECT base, raw_size, length(data) FROM blobs WHERE hash=?", (key,)
        ).fetchone()
        if row is None:
            raise HistoryError(f"version {key[:12]} is not in the history")
        base, raw_size, packed_size = row
        if not isinstance(raw_size, int) or not 0 <= raw_size <= MAX_BLOB_BYTES:
            raise HistoryError(f"version {key[:12]} declares an impossible size")
        if not isinstance(packed_size, int) or packed_size > MAX_BLOB_BYTES + 1024:
            raise HistoryError(f"version {key[:12]} is oversized")
        (packed,) = conn.execute("SELECT data FROM blobs WHERE hash=?", (key,)).fetchone()
        if not isinstance(packed, bytes):
            raise HistoryError(f"version {key[:12]} is not a blob")
        try:
            if base is None:
                data = zstandard.ZstdDecompressor().decompress(packed, max_output_size=raw_size)
            else:
                if depth or not isinstance(base, str) or base == key:
                    raise HistoryError(f"version {key[:12]} has a bad base")
                dictionary = zstandard.ZstdCompressionDict(
                    self._read_blob(conn, base, depth + 1),
                    dict_type=zstandard.DICT_TYPE_RAWCONTENT,
                )
                data = zstandard.ZstdDecompressor(dict_data=dictionary).decompress(
                    packed, max_output_size=raw_size
                )
        except zstandard.ZstdError as error:
            raise HistoryError(f"version {key[:12]} cannot be decompressed: {error}") from None
        if len(data) != raw_size or content_key(data) != key:
            raise HistoryError(f"version {key[:12]} does not match its hash")
        return data

    def blob(self, key: str) -> bytes:
        """The content of one recorded version (HistoryError when missing or damaged)."""
        with self._lock:
            try:
                return self._read_blob(self._conn, key)
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"change history: {error}") from None

    # -- the recorded state --------------------------------------------------

    def current(self) -> dict[str, str]:
        """path -> content hash of what was last recorded for each memory."""
        rows = self._query("SELECT path, hash FROM current")
        return {p: h for p, h in rows if isinstance(p, str) and isinstance(h, str)}

    def record_baseline(self, observed: Iterable[Observed]) -> int:
        """The first start: remember every memory's content silently (no entries)."""
        count = 0
        with self._transaction() as conn:
            for item in observed:
                if item.data is None:
                    continue
                key = content_key(item.data)
                self._store_blob(conn, item.data, key, None)
                conn.execute(
                    "INSERT OR REPLACE INTO current(path, hash, name, tags) VALUES(?, ?, ?, ?)",
                    (item.path, key, item.name, _tags_json(item.tags)),
                )
                count += 1
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES('baseline', ?)", (str(_now_ns()),)
            )
        return count

    def record(
        self,
        observed: Sequence[Observed],
        *,
        source: str = "watch",
        label: str = "",
        undo: str | None = None,
        time_ns: int | None = None,
    ) -> RecordResult:
        """Record one batch of changes as one group, in one transaction.

        Paths whose content equals what was last recorded are skipped; a path gone and
        another new with the same content (or the same content with ``[[old]]`` links
        rewritten to the new path) is a move; other files in the batch whose links were
        rewritten to the moved path are noted as link rewrites of that move.
        """
        when = time_ns if time_ns is not None else _now_ns()
        with self._transaction() as conn:
            pending = self._classify(conn, observed)
            if not pending:
                return RecordResult()
            moves = [(p.old_path, p.path) for p in pending if p.kind == "moved" and p.old_path]
            if moves and not label:
                label = _move_label(moves, pending)
            cursor = conn.execute(
                "INSERT INTO groups(time_ns, source, label, undo) VALUES(?, ?, ?, ?)",
                (when, source, label, undo),
            )
            group = int(cursor.lastrowid or 0)
            result = RecordResult(group=group)
            for change in pending:
                entry = self._write_entry(conn, group, when, change, moves)
                result.entries.append(replace(entry, source=source, label=label, undo=undo))
            for change in pending:
                self._advance_current(conn, change)
            return result

    def _classify(self, conn: sqlite3.Connection, observed: Sequence[Observed]) -> list[_Pending]:
        last: dict[str, tuple[str, str | None, tuple[str, ...]]] = {}
        for item in dict((o.path, o) for o in observed).values():
            row = conn.execute(
                "SELECT hash, name, tags FROM current WHERE path=?", (item.path,)
            ).fetchone()
            if row is not None and isinstance(row[0], str):
                last[item.path] = (row[0], _str_or_none(row[1]), _tags_from(row[2]))
        unique = list(dict((o.path, o) for o in observed).values())
        pending: list[_Pending] = []
        gone: dict[str, _Pending] = {}
        new: list[_Pending] = []
        for item in unique:
            before = last.get(item.path)
            if item.data is None:
                if before is None:
                    continue
                change = _Pending(
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
            change = _Pending(
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
            self._pair_moves(conn, gone, new, pending)
        for change in pending:
            if change.kind != "deleted":
                old_data = self._old_data(conn, change)
                change.old_data = old_data
                change.counts = line_counts(old_data, change.data)
            else:
                change.counts = (0, len(_lines(self._old_data(conn, change))))
        return pending

    def _pair_moves(
        self,
        conn: sqlite3.Connection,
        gone: dict[str, _Pending],
        new: list[_Pending],
        pending: list[_Pending],
    ) -> None:
        by_hash: dict[str, str] = {}
        for path, change in gone.items():
            if change.old_hash:
                by_hash.setdefault(change.old_hash, path)
        unmatched: list[_Pending] = []
        for change in new:
            source = by_hash.pop(change.new_hash or "", None)
            if source is not None and source in gone:
                self._make_move(change, gone.pop(source), pending)
            else:
                unmatched.append(change)
        pairs = 0
        for change in unmatched:
            for source, removal in list(gone.items()):
                pairs += 1
                if pairs > _MAX_MOVE_PAIRS:
                    return
                old = self._blob_or_none(conn, removal.old_hash)
                if old is None or change.data is None:
                    continue
                rewritten = old.replace(f"[[{source}".encode(), f"[[{change.path}".encode())
                if rewritten == change.data:
                    self._make_move(change, gone.pop(source), pending)
                    break

    @staticmethod
    def _make_move(change: _Pending, removal: _Pending, pending: list[_Pending]) -> None:
        change.kind = "moved"
        change.old_path = removal.path
        change.old_hash = removal.old_hash
        change.tags_before = removal.tags_before
        pending.remove(removal)

    def _blob_or_none(self, conn: sqlite3.Connection, key: str | None) -> bytes | None:
        if not key:
            return None
        try:
            return self._read_blob(conn, key)
        except HistoryError:
            return None

    def _old_data(self, conn: sqlite3.Connection, change: _Pending) -> bytes | None:
        return self._blob_or_none(conn, change.old_hash)

    def _write_entry(
        self,
        conn: sqlite3.Connection,
        group: int,
        when: int,
        change: _Pending,
        moves: list[tuple[str, str]],
    ) -> ChangeEntry:
        if change.data is not None and change.new_hash:
            self._store_blob(conn, change.data, change.new_hash, change.old_hash)
        note = _link_note(change, moves)
        added, removed = change.counts
        # The columns stored as they are, in ChangeEntry's order (tags go in as JSON).
        plain = (
            group,
            when,
            change.kind,
            change.path,
            change.old_path,
            change.old_hash,
            change.new_hash,
            change.name,
        )
        cursor = conn.execute(
            "INSERT INTO entries(group_id, time_ns, kind, path, old_path, old_hash, new_hash,"
            " name, tags_before, tags_after, added, removed, note) "
            "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *plain,
                _tags_json(change.tags_before),
                _tags_json(change.tags_after),
                added,
                removed,
                note,
            ),
        )
        return ChangeEntry(
            int(cursor.lastrowid or 0),
            *plain,
            change.tags_before,
            change.tags_after,
            added,
            removed,
            note,
            False,
            "",
            "",
            None,
        )

    @staticmethod
    def _advance_current(conn: sqlite3.Connection, change: _Pending) -> None:
        if change.kind == "moved" and change.old_path:
            conn.execute("DELETE FROM current WHERE path=?", (change.old_path,))
        if change.kind == "deleted":
            conn.execute("DELETE FROM current WHERE path=?", (change.path,))
            return
        conn.execute(
            "INSERT OR REPLACE INTO current(path, hash, name, tags) VALUES(?, ?, ?, ?)",
            (change.path, change.new_hash, change.name, _tags_json(change.tags_after)),
        )

    # -- reading the timeline ------------------------------------------------

    def entries(
        self,
        *,
        since_ns: int | None = None,
        until_ns: int | None = None,
        unreviewed: bool = False,
        limit: int | None = None,
        where: ChangeFilter | None = None,
        before: tuple[int, int] | None = None,
    ) -> list[ChangeEntry]:
        """Entries newest first (rows that fail their type checks are skipped).

        ``where`` narrows them as the Changes view's filters do; ``before`` (time, id of
        the last entry of a previous page) continues a paged read.
        """
        sql = (
            "SELECT e.id, e.group_id, e.time_ns, e.kind, e.path, e.old_path, e.old_hash,"
            " e.new_hash, e.name, e.tags_before, e.tags_after, e.added, e.removed, e.note,"
            " e.reviewed, g.source, g.label, g.undo"
            " FROM entries e LEFT JOIN groups g ON g.id = e.group_id WHERE "
        )
        clause, params = _where(since_ns, until_ns, unreviewed, where)
        sql += clause
        if before is not None:
            sql += " AND (e.time_ns < ? OR (e.time_ns = ? AND e.id < ?))"
            params += [before[0], before[0], before[1]]
        sql += " ORDER BY e.time_ns DESC, e.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        out: list[ChangeEntry] = []
        for row in self._query(sql, params):
            entry = _entry_from_row(row)
            if entry is not None and (where is None or where.matches(entry)):
                out.append(entry)
        return out

    def count(self, where: ChangeFilter | None = None) -> int:
        """How many entries pass ``where`` (by the SQL part of the filter)."""
        clause, params = _where(None, None, False, where)
        rows = self._query(f"SELECT count(*) FROM entries e WHERE {clause}", params)
        return _int(rows[0][0]) if rows else 0

    def entry(self, entry_id: int) -> ChangeEntry | None:
        found = [e for e in self.entries_by_ids([entry_id])]
        return found[0] if found else None

    def entries_by_ids(self, ids: Iterable[int]) -> list[ChangeEntry]:
        wanted = sorted({int(i) for i in ids})
        out: list[ChangeEntry] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._query(
                "SELECT e.id, e.group_id, e.time_ns, e.kind, e.path, e.old_path, e.old_hash,"
                " e.new_hash, e.name, e.tags_before, e.tags_after, e.added, e.removed, e.note,"
                " e.reviewed, g.source, g.label, g.undo"
                f" FROM entries e LEFT JOIN groups g ON g.id = e.group_id WHERE e.id IN ({marks})"
                " ORDER BY e.time_ns DESC, e.id DESC",
                chunk,
            )
            out.extend(e for row in rows if (e := _entry_from_row(row)) is not None)
        return out

    def versions(self, path: str) -> list[ChangeEntry]:
        """Entries that produced or removed a version of ``path`` (newest first)."""
        rows = self._query("SELECT id FROM entries WHERE path=? OR old_path=?", (path, path))
        return self.entries_by_ids(r[0] for r in rows if isinstance(r[0], int))

    def unreviewed_count(self) -> int:
        rows = self._query("SELECT count(*) FROM entries WHERE reviewed=0")
        return _int(rows[0][0]) if rows else 0

    # -- review --------------------------------------------------------------

    def mark_reviewed(self, ids: Iterable[int]) -> int:
        wanted = [int(i) for i in ids]
        changed = 0
        with self._transaction() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                changed += conn.execute(
                    f"UPDATE entries SET reviewed=1 WHERE reviewed=0 AND id IN ({marks})", chunk
                ).rowcount
            self._set_review_time(conn)
        return changed

    def mark_reviewed_until(self, until_ns: int | None = None) -> int:
        """Everything up to ``until_ns`` (default: now) is reviewed."""
        limit = until_ns if until_ns is not None else _now_ns()
        with self._transaction() as conn:
            changed = conn.execute(
                "UPDATE entries SET reviewed=1 WHERE reviewed=0 AND time_ns <= ?", (limit,)
            ).rowcount
            self._set_review_time(conn)
        return changed

    @staticmethod
    def _set_review_time(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES('last_review_ns', ?)",
            (str(_now_ns()),),
        )

    # -- retention and size --------------------------------------------------

    def prune(self, now_ns: int | None = None) -> int:
        """Drop entries older than the retention period and blobs nothing needs any more."""
        cutoff = (now_ns if now_ns is not None else _now_ns()) - (
            self.retention_days * 86_400 * 1_000_000_000
        )
        with self._transaction() as conn:
            dropped = conn.execute("DELETE FROM entries WHERE time_ns < ?", (cutoff,)).rowcount
            if not dropped:
                return 0
            conn.execute(
                "DELETE FROM groups WHERE id NOT IN (SELECT DISTINCT group_id FROM entries)"
            )
            conn.execute("CREATE TEMP TABLE IF NOT EXISTS keep(hash TEXT PRIMARY KEY)")
            conn.execute("DELETE FROM keep")
            conn.execute(
                "INSERT OR IGNORE INTO keep SELECT old_hash FROM entries WHERE old_hash IS NOT NULL"
                " UNION SELECT new_hash FROM entries WHERE new_hash IS NOT NULL"
                " UNION SELECT hash FROM current"
            )
            conn.execute(
                "INSERT OR IGNORE INTO keep SELECT b.base FROM blobs b JOIN keep k"
                " ON b.hash = k.hash WHERE b.base IS NOT NULL"
            )
            conn.execute("DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM keep)")
            conn.execute("DELETE FROM keep")
        return dropped

    def stats(self) -> HistoryStats:
        entries = self._query("SELECT count(*), sum(reviewed=0) FROM entries")[0]
        blobs = self._query("SELECT count(*) FROM blobs")[0]
        return HistoryStats(_int(entries[0]), _int(entries[1]), _int(blobs[0]), self.size_bytes())

    def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.stat(f"{self.path}{suffix}").st_size
        return total


@dataclass
class _Pending:
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


def _where(
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


def _link_note(change: _Pending, moves: list[tuple[str, str]]) -> str:
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


def _move_label(moves: list[tuple[str, str]], pending: list[_Pending]) -> str:
    others = sum(1 for p in pending if p.kind == "modified")
    src, dst = moves[0]
    label = f"move {src} → {dst}" if len(moves) == 1 else f"{len(moves)} moves"
    return label + (f" ({others} other file{'s' if others != 1 else ''} changed)" if others else "")


def _entry_from_row(row: tuple[object, ...]) -> ChangeEntry | None:
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
    if not isinstance(eid, int) or not isinstance(path, str) or kind not in KINDS:
        return None
    return ChangeEntry(
        id=eid,
        group=_int(group),
        time_ns=_int(when),
        kind=str(kind),
        path=path,
        old_path=_str_or_none(old_path),
        old_hash=_str_or_none(old_hash),
        new_hash=_str_or_none(new_hash),
        name=_str_or_none(name),
        tags_before=_tags_from(before),
        tags_after=_tags_from(after),
        added=_int(added),
        removed=_int(removed),
        note=note if isinstance(note, str) else "",
        reviewed=bool(reviewed),
        source=source if isinstance(source, str) else "",
        label=label if isinstance(label, str) else "",
        undo=_str_or_none(undo),
    )


# --------------------------------------------------------------------------- bursts


# --------------------------------------------------------------------------- churn


# --------------------------------------------------------------------------- filters
