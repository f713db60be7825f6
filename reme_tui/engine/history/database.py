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
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from ..files import workspace_data_dir
from .blobs import read_blob, store_blob
from .classify import Pending, classify, link_note, move_label
from .entries import (
    ChangeEntry,
    ChangeFilter,
    HistoryError,
    HistoryStats,
    Observed,
    RecordResult,
    content_key,
)
from .rows import (
    ENTRY_SELECT,
    db_path,
    db_text,
    entry_from_row,
    int_or_zero,
    path_from_db,
    tags_json,
    where_clause,
)

HISTORY_FILE = "history.sqlite3"
SCHEMA_VERSION = 1
DEFAULT_RETENTION_DAYS = 90
BUSY_TIMEOUT_SECONDS = 5.0
# Only these say the file itself is broken; I/O errors, a full disk and another process's
# lock say nothing about the data, so such a history is kept and the error reported.
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_OWN_OBJECTS = frozenset(
    {
        "meta",
        "blobs",
        "groups",
        "entries",
        "entries_time",
        "entries_group",
        "entries_path",
        "current",
    }
)


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


def is_damage(error: sqlite3.DatabaseError) -> bool:
    """Whether the error says the database file is broken (our own schema checks raise
    without an SQLite code), as opposed to the disk or a lock failing us."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is None or code & 0xFF in _DAMAGE_CODES


def _drop_foreign_objects(conn: sqlite3.Connection) -> None:
    """Triggers, views and tables we never create are dropped: a planted trigger that
    deletes blobs would silently break every revert."""
    rows = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
    ).fetchall()
    for kind, name in rows:
        if name not in _OWN_OBJECTS and kind in ("table", "index", "view", "trigger"):
            quoted = '"' + str(name).replace('"', '""') + '"'
            conn.execute(f"DROP {str(kind).upper()} IF EXISTS {quoted}")


def _now_ns() -> int:
    return time.time_ns()


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
    if st.st_uid != os.geteuid():
        raise HistoryError(f"{path} is owned by another user; refusing to open it")
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
            if not is_damage(error):
                raise HistoryError(
                    f"cannot open the change history {self.path} ({error}); it is kept as it"
                    " is, try again"
                ) from None
            return self._set_aside(str(error))
        except OSError as error:
            raise HistoryError(f"cannot open the change history {self.path}: {error}") from None

    def _open_checked(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False, isolation_level=None
        )
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=OFF")
            conn.execute("PRAGMA trusted_schema=OFF")
            conn.executescript(_SCHEMA)
            _drop_foreign_objects(conn)
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

    def blob(self, key: str) -> bytes:
        """The content of one recorded version (HistoryError when missing or damaged)."""
        with self._lock:
            try:
                return read_blob(self._conn, key)
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"change history: {error}") from None

    # -- the recorded state --------------------------------------------------

    def current(self) -> dict[str, str]:
        """path -> content hash of what was last recorded for each memory."""
        rows = self._query("SELECT path, hash FROM current")
        return {
            path: h for p, h in rows if (path := path_from_db(p)) is not None and isinstance(h, str)
        }

    def record_baseline(self, observed: Iterable[Observed]) -> int:
        """The first start: remember every memory's content silently (no entries)."""
        count = 0
        with self._transaction() as conn:
            for item in observed:
                if item.data is None:
                    continue
                key = content_key(item.data)
                store_blob(conn, item.data, key, None)
                conn.execute(
                    "INSERT OR REPLACE INTO current(path, hash, name, tags) VALUES(?, ?, ?, ?)",
                    (db_path(item.path), key, item.name, tags_json(item.tags)),
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
            pending = classify(conn, observed)
            if not pending:
                return RecordResult()
            moves = [(p.old_path, p.path) for p in pending if p.kind == "moved" and p.old_path]
            if moves and not label:
                label = move_label(moves, pending)
            cursor = conn.execute(
                "INSERT INTO groups(time_ns, source, label, undo) VALUES(?, ?, ?, ?)",
                (when, source, db_text(label), undo),
            )
            group = int(cursor.lastrowid or 0)
            result = RecordResult(group=group)
            for change in pending:
                entry = self._write_entry(conn, group, when, change, moves)
                result.entries.append(replace(entry, source=source, label=label, undo=undo))
            for change in pending:
                self._advance_current(conn, change)
            return result

    def _write_entry(
        self,
        conn: sqlite3.Connection,
        group: int,
        when: int,
        change: Pending,
        moves: list[tuple[str, str]],
    ) -> ChangeEntry:
        if change.data is not None and change.new_hash:
            store_blob(conn, change.data, change.new_hash, change.old_hash)
        note = link_note(change, moves)
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
                group,
                when,
                change.kind,
                db_path(change.path),
                None if change.old_path is None else db_path(change.old_path),
                change.old_hash,
                change.new_hash,
                change.name,
                tags_json(change.tags_before),
                tags_json(change.tags_after),
                added,
                removed,
                db_text(note),
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
    def _advance_current(conn: sqlite3.Connection, change: Pending) -> None:
        if change.kind == "moved" and change.old_path:
            conn.execute("DELETE FROM current WHERE path=?", (db_path(change.old_path),))
        if change.kind == "deleted":
            conn.execute("DELETE FROM current WHERE path=?", (db_path(change.path),))
            return
        conn.execute(
            "INSERT OR REPLACE INTO current(path, hash, name, tags) VALUES(?, ?, ?, ?)",
            (db_path(change.path), change.new_hash, change.name, tags_json(change.tags_after)),
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
        sql = f"{ENTRY_SELECT} WHERE "
        clause, params = where_clause(since_ns, until_ns, unreviewed, where)
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
            entry = entry_from_row(row)
            if entry is not None and (where is None or where.matches(entry)):
                out.append(entry)
        return out

    def count(self, where: ChangeFilter | None = None) -> int:
        """How many entries pass ``where`` (by the SQL part of the filter)."""
        clause, params = where_clause(None, None, False, where)
        rows = self._query(f"SELECT count(*) FROM entries e WHERE {clause}", params)
        return int_or_zero(rows[0][0]) if rows else 0

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
                f"{ENTRY_SELECT} WHERE e.id IN ({marks}) ORDER BY e.time_ns DESC, e.id DESC",
                chunk,
            )
            out.extend(e for row in rows if (e := entry_from_row(row)) is not None)
        return out

    def versions(self, path: str) -> list[ChangeEntry]:
        """Entries that produced or removed a version of ``path`` (newest first)."""
        stored = db_path(path)
        rows = self._query("SELECT id FROM entries WHERE path=? OR old_path=?", (stored, stored))
        return self.entries_by_ids(r[0] for r in rows if isinstance(r[0], int))

    def unreviewed_count(self) -> int:
        rows = self._query("SELECT count(*) FROM entries WHERE reviewed=0")
        return int_or_zero(rows[0][0]) if rows else 0

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
        return HistoryStats(
            int_or_zero(entries[0]),
            int_or_zero(entries[1]),
            int_or_zero(blobs[0]),
            self.size_bytes(),
        )

    def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.stat(f"{self.path}{suffix}").st_size
        return total
