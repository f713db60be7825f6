"""Lines an agent appended to a memory while we renamed a rewrite over it.

ReMe's tools append to a memory the plain way (open, append, close). A rewrite renames a
new file over the old one, so an append that lands between our last check and the rename,
or one from a writer that opened the file just before the rename, goes into the old inode
and would vanish with it. We keep a descriptor on the old inode across the rename, wait
until nobody else has it open (a write lease is granted only then), and carry whatever grew
past the bytes we read onto the end of the new file. No cooperation from the writer needed.

Leases need Linux, a filesystem that supports them and the file's owner (or CAP_LEASE);
without one the tail is carried as it stands right after the rename.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import signal
import time
from pathlib import Path

QUIET_WAIT_SECONDS = 0.5  # a reader that keeps the file open (a pager) must not stall an edit
_POLL_SECONDS = 0.001
# A lease break would raise SIGIO, whose default action ends the process; SIGURG is ignored
# by default, and the lease is released again at once anyway.
_LEASE_SIGNAL = int(signal.SIGURG)


class OldInodeRewritten(OSError):
    """The old file's first bytes changed after our check: not an append we can carry."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EAGAIN, "changed in place during the rewrite", str(path))


def open_old_inode(path: Path) -> int | None:
    """A read-only descriptor on the file about to be replaced (None when it is gone)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError:
        return None


def _nobody_else_has_it_open(fd: int) -> bool | None:
    """True when a write lease was granted (no other descriptor on the inode), False when
    another is open, None when leases are unavailable here."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETSIG, _LEASE_SIGNAL)
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EBUSY):
            return False
        return None
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    return True


def wait_until_quiet(fd: int, *, timeout: float = QUIET_WAIT_SECONDS) -> None:
    """Wait until every other writer has closed the old inode (bounded)."""
    deadline = time.monotonic() + timeout
    while _nobody_else_has_it_open(fd) is False and time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)


def _read_from(fd: int, offset: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def late_tail(fd: int, read_size: int, read_sha256: str, path: Path) -> bytes:
    """What was appended to the old inode past the ``read_size`` bytes we read.

    Raises OldInodeRewritten when those bytes themselves changed (an in-place rewrite).
    """
    if os.fstat(fd).st_size == read_size:
        return b""
    data = _read_from(fd, 0)
    if len(data) < read_size or hashlib.sha256(data[:read_size]).hexdigest() != read_sha256:
        raise OldInodeRewritten(path)
    return data[read_size:]


def append_bytes(path: Path, data: bytes) -> None:
    """Append ``data`` the way the agent does (O_APPEND), fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def close_quietly(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
