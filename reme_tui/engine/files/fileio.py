"""File I/O with the workspace's rules: the one rewrite path and bounded, safe reads.

Reads: every open is non-blocking and must land on a regular file (a FIFO, a device or
a directory swapped in for a memory is refused, never waited on), is bounded in size,
and, when a root is given, the opened file's real path must lie inside it.

Writes: ``rewrite_memory`` is the only function that rewrites a memory. It reads the
file with a stamp, refuses when the file changed since the caller read it, when it has
other hard links (a rename would split them) or when its mode bits say read-only, then
writes a temporary file beside it with the same owner and mode (chown before chmod, so
setuid/setgid bits survive), fsyncs it, re-checks the stamp, renames it over the file
and fsyncs the directory. The engine re-indexes what it wrote and returns a ``Delta``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..errors import EditError, UnsafeEditError
from . import late_appends
from .workspace import MEMORY_ROOTS, TEMP_NAME, TEMP_SUFFIX

DEFAULT_MAX_READ_BYTES = 20 * 1024 * 1024
STALE_TEMP_SECONDS = 3600
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


# --------------------------------------------------------------------------- errors


class ConflictError(EditError):
    """The file changed on disk since it was read; ``current`` is its fresh stamp."""

    def __init__(self, message: str, current: FileStamp | None) -> None:
        super().__init__(message)
        self.current = current


class PathRefused(EditError, ValueError):
    """The path is outside the workspace or not a memory file (a usage error)."""

    exit_code = 2


class ReadOnlyFile(EditError):
    """The file's mode bits say nobody may write it; we do not override that (even as root)."""


class NotRegularFile(OSError):
    """A FIFO, device, socket or directory where a regular file was expected."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, f"not a regular file ({kind})", os.fspath(path))


class FileTooLarge(OSError):
    """Larger than the caller's limit; ``size`` is what fstat said."""

    def __init__(self, path: str | os.PathLike[str], size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size} bytes, over the {limit}-byte limit", os.fspath(path))
        self.size = size
        self.limit = limit


class OutsideWorkspace(OSError):
    """The opened file's real path is not inside the workspace."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EXDEV, "resolves outside the workspace", os.fspath(path))


# --------------------------------------------------------------------------- reads


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a file"


def _fd_real_path(fd: int) -> str | None:
    """Where an open descriptor really points (Linux /proc), or None when unknown."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def open_regular(path: str | os.PathLike[str], *, inside: str | None = None) -> int:
    """A read-only descriptor on a regular file, opened without blocking.

    Raises NotRegularFile for anything else, OutsideWorkspace when ``inside`` (a resolved
    directory) is given and the opened file is not under it, or the OSError of open.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path, _kind(st.st_mode))
        if inside is not None:
            real = _fd_real_path(fd)
            if real is not None and not _is_under(real, inside):
                raise OutsideWorkspace(path)
        # Regular files never block; reads below should wait for the disk as usual.
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _is_under(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def read_regular(
    path: str | os.PathLike[str],
    max_bytes: int = DEFAULT_MAX_READ_BYTES,
    *,
    inside: str | None = None,
) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file (at most ``max_bytes``) and its stat after reading.

    Raises NotRegularFile, FileTooLarge, OutsideWorkspace or the OSError of open/read.
    """
    fd = open_regular(path, inside=inside)
    try:
        st = os.fstat(fd)
        if st.st_size > max_bytes:
            raise FileTooLarge(path, st.st_size, max_bytes)
        chunks: list[bytes] = []
        total = 0
        # The whole file in one read, and a byte more to see its end: one buffer, filled
        # once (1 MiB pieces joined copied a 256 MB saved index twice, and gave a 2 KB
        # memory a 1 MiB buffer). Whatever it grew by since the stat follows in pieces.
        want = st.st_size + 1
        while True:
            chunk = os.read(fd, min(want, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise FileTooLarge(path, total, max_bytes)
            want = 1 << 20
        return b"".join(chunks), os.fstat(fd)  # one piece: joined without a copy
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- stamps


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What the editor read: compared before every write."""

    mtime_ns: int
    size: int
    sha256: str

    def matches(self, other: FileStamp) -> bool:
        """Cheap fields first, then the content hash."""
        if self.size != other.size or self.mtime_ns != other.mtime_ns:
            return False
        return self.sha256 == other.sha256


def _stamp_of(data: bytes, st: os.stat_result) -> FileStamp:
    return FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


def _read_bytes_with_stamp(
    path: Path, inside: str | None = None
) -> tuple[bytes, FileStamp, os.stat_result]:
    """Read a file and stamp it, retrying if it changes while being read."""
    for _ in range(3):
        data, after = read_regular(path, inside=inside)
        if after.st_size == len(data):
            break
    return data, _stamp_of(data, after), after


def stamp_file(path: Path) -> FileStamp:
    """mtime, size and SHA-256 of a file as it is now."""
    return _read_bytes_with_stamp(Path(path))[1]


def _decode(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeEditError(
            f"{shown} is not valid UTF-8 (byte {exc.start}); refusing to edit it"
        ) from exc


def read_with_stamp(path: Path) -> tuple[str, FileStamp]:
    """Text (BOM kept as U+FEFF, line endings untouched) and the stamp of those bytes.

    Raises UnsafeEditError when the file is not valid UTF-8.
    """
    data, stamp, _ = _read_bytes_with_stamp(Path(path))
    return _decode(data, str(path)), stamp


# --------------------------------------------------------------------------- paths


Roots = tuple[str, ...] | None  # the memory folders; None: every .md file is a memory


def _is_memory_rel(parts: Sequence[str], roots: Roots = MEMORY_ROOTS) -> bool:
    if not parts or PurePosixPath(parts[-1]).suffix.lower() != ".md":
        return False
    if roots is None:
        return True
    for memory_root in roots:
        prefix = memory_root.split("/")
        if len(parts) > len(prefix) and list(parts[: len(prefix)]) == prefix:
            return True
    return False


def resolve_memory(root: Path, rel: str, roots: Roots = MEMORY_ROOTS) -> Path:
    """The real path of memory ``rel`` under ``root``; PathRefused when it is not one.

    Refused: empty, absolute, backslashes, NUL, any ``..``, anything not under
    ``daily/`` or ``digest/`` ending in ``.md`` (case-insensitive), and symlinks
    whose target is outside the root or is not itself a memory location.
    """
    if not rel or "\x00" in rel or "\\" in rel:
        raise PathRefused(f"refusing path {rel!r}: not a workspace-relative POSIX path")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or re.match(r"^[A-Za-z]:", rel):
        raise PathRefused(f"refusing absolute path {rel!r}")
    if ".." in pure.parts:
        raise PathRefused(f"refusing path {rel!r}: it contains '..'")
    if not _is_memory_rel(pure.parts, roots):
        where = "/, ".join(roots or ()) + "/" if roots else "the workspace"
        raise PathRefused(f"refusing {rel!r}: memories are .md files under {where}")
    real_root = Path(root).resolve()
    real = (real_root / pure).resolve()
    try:
        inside = real.relative_to(real_root)
    except ValueError:
        raise PathRefused(f"refusing {rel!r}: it resolves outside the workspace") from None
    if not _is_memory_rel(inside.parts, roots):
        raise PathRefused(f"refusing {rel!r}: it resolves to {inside.as_posix()}, not a memory")
    return real


def read_memory(root: Path, rel: str, roots: Roots = MEMORY_ROOTS) -> tuple[str, FileStamp]:
    """A memory's text and stamp, read through the containment check (PathRefused,
    UnsafeEditError for non-UTF-8, OSError for I/O, NotRegularFile for FIFOs...)."""
    path = resolve_memory(root, rel, roots)
    data, stamp, _ = _read_bytes_with_stamp(path, str(Path(root).resolve()))
    return _decode(data, rel), stamp


# --------------------------------------------------------------------------- writes


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    # The rename already happened: a failing sync or close (some filesystems cannot sync a
    # directory; EIO) must not make a written file look refused.
    with contextlib.suppress(OSError):
        os.fsync(fd)
    with contextlib.suppress(OSError):
        os.close(fd)


def _check_unchanged(path: Path, expected: FileStamp | None) -> None:
    if expected is None:
        return
    try:
        current = stamp_file(path)
    except FileNotFoundError:
        raise ConflictError(f"{path} was deleted since it was read", None) from None
    if not expected.matches(current):
        raise ConflictError(f"{path} changed on disk since it was read", current)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _prepare_temp(fd: int, data: bytes, original: os.stat_result | None) -> os.stat_result:
    """Write and fsync the temp file with the original's owner and mode; returns its stat.

    Ownership first: chown clears setuid/setgid, so the mode is set after it. A new file
    keeps mkstemp's 0600.
    """
    _write_all(fd, data)
    if original is not None:
        if (original.st_uid, original.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):  # not permitted unless root: keep ours
                os.fchown(fd, original.st_uid, original.st_gid)
        os.fchmod(fd, stat.S_IMODE(original.st_mode))
    os.fsync(fd)
    return os.fstat(fd)


def _temp_in(directory: Path, name: str) -> tuple[int, Path]:
    prefix = f".{_fit_temp_stem(directory, name)}."
    fd, temp_name = tempfile.mkstemp(prefix=prefix, suffix=TEMP_SUFFIX, dir=directory)
    return fd, Path(temp_name)


_MKSTEMP_RANDOM = 8  # the characters mkstemp puts between prefix and suffix


def _fit_temp_stem(directory: Path, name: str) -> str:
    """``name`` cut (whole characters) so ``.<name>.XXXXXXXX.reme-tmp`` fits NAME_MAX: a
    memory named near the limit (over ~236 bytes on most filesystems) stays editable."""
    try:
        name_max = os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = 255
    budget = name_max - len(f"..{TEMP_SUFFIX}") - _MKSTEMP_RANDOM
    while len(os.fsencode(name)) > budget and len(name) > 1:
        name = name[:-1]
    return name


def atomic_write(
    path: Path, data: bytes, *, expected: FileStamp | None, private: bool = False
) -> FileStamp:
    """Replace ``path`` with ``data`` atomically; returns the new stamp.

    Writes a hidden temporary file in the same directory, fsyncs it, copies the
    original's owner and mode (a new file, or any ``private`` one, is 0600 and ours),
    checks the original still matches
    ``expected`` (ConflictError otherwise), renames over it and fsyncs the directory.
    On any failure the temporary file is removed and the original is untouched. A
    symlink is followed: its target is replaced, the link stays.
    """
    target = Path(os.path.realpath(path))
    original: os.stat_result | None = None
    if not private:
        with contextlib.suppress(FileNotFoundError):
            original = os.stat(target)
    fd, temp = _temp_in(target.parent, target.name)
    old_fd: int | None = None
    try:
        try:
            st = _prepare_temp(fd, data, original)
        finally:
            os.close(fd)
        if expected is not None:
            old_fd = late_appends.open_old_inode(target)
        _check_unchanged(target, expected)
        os.replace(temp, target)
    except BaseException:
        late_appends.close_quietly(old_fd)
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_dir(target.parent)
    written = FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())
    if old_fd is None or expected is None:
        return written
    try:
        return _carry_late_appends(target, old_fd, expected, written)
    finally:
        late_appends.close_quietly(old_fd)


def _carry_late_appends(
    target: Path, old_fd: int, expected: FileStamp, written: FileStamp
) -> FileStamp:
    """Put on the new file what writers appended to the old one around the rename."""
    late_appends.wait_until_quiet(old_fd)
    try:
        tail = late_appends.late_tail(old_fd, expected.size, expected.sha256, target)
    except late_appends.OldInodeRewritten:
        # Not an append: someone rewrote the file in place after our check. Theirs wins.
        theirs = os.pread(old_fd, os.fstat(old_fd).st_size, 0)
        atomic_write(target, theirs, expected=written)
        raise ConflictError(f"{target} changed on disk while it was written", None) from None
    if not tail:
        return written
    late_appends.append_bytes(target, tail)
    return stamp_file(target)


def writable_by_mode(st: os.stat_result) -> bool:
    """Whether the mode bits let the current user write the file.

    Root bypasses permission checks, so for root a file with no write bit at all
    (0444) counts as read-only: someone marked it so on purpose.
    """
    mode = st.st_mode
    euid = os.geteuid()
    if euid == 0:
        return bool(mode & 0o222)
    if st.st_uid == euid:
        return bool(mode & stat.S_IWUSR)
    if st.st_gid == os.getegid() or st.st_gid in os.getgroups():
        return bool(mode & stat.S_IWGRP)
    return bool(mode & stat.S_IWOTH)


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One call of ``rewrite_memory``: texts and stamps before and after."""

    rel: str
    changed: bool
    old_text: str
    new_text: str
    old_stamp: FileStamp
    new_stamp: FileStamp


Compute = Callable[[str], str]


def rewrite_memory(
    root: Path,
    rel: str,
    compute: Compute,
    *,
    expected: FileStamp | None = None,
    roots: Roots = MEMORY_ROOTS,
) -> Rewrite:
    """The one way a memory is rewritten: ``compute(old_text)`` gives the new text.

    Refuses (EditError subclasses) a path outside the workspace or not a memory, a file
    changed since ``expected``, one ``compute`` refuses, one with other hard links, one
    whose mode bits say read-only. Keeps owner and mode; atomic and fsynced. Returns
    without writing when the text does not change.
    """
    texts: dict[str, str] = {}

    def compute_bytes(data: bytes) -> bytes:
        texts["old"] = _decode(data, rel)
        texts["new"] = compute(texts["old"])
        return texts["new"].encode("utf-8")

    changed, old_stamp, new_stamp = _rewrite(root, rel, compute_bytes, expected, roots)
    return Rewrite(rel, changed, texts["old"], texts["new"], old_stamp, new_stamp)


def replace_memory(
    root: Path, rel: str, data: bytes, *, expected: FileStamp, roots: Roots = MEMORY_ROOTS
) -> FileStamp:
    """Replace an existing memory's bytes (a revert) through the same checks as
    ``rewrite_memory``; ConflictError unless it still matches ``expected``."""
    return _rewrite(root, rel, lambda _old: data, expected, roots)[2]


def read_memory_bytes(
    root: Path, rel: str, roots: Roots = MEMORY_ROOTS
) -> tuple[bytes, FileStamp] | None:
    """A memory's bytes and stamp through the containment check; None when absent."""
    path = resolve_memory(root, rel, roots)
    try:
        data, stamp, _st = _read_bytes_with_stamp(path, str(Path(root).resolve()))
    except FileNotFoundError:
        return None
    except (NotRegularFile, OutsideWorkspace) as exc:
        raise PathRefused(f"refusing {rel!r}: {exc.strerror}") from None
    return data, stamp


def create_memory(
    root: Path, rel: str, data: bytes, *, mode: int = 0o644, roots: Roots = MEMORY_ROOTS
) -> FileStamp:
    """Create a memory that must not exist (a revert restoring a deleted one).

    The finished, fsynced temp file is hard-linked to the name, which fails with
    FileExistsError when anything appeared there meanwhile; nothing is overwritten.
    """
    path = resolve_memory(root, rel, roots)
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    resolve_memory(root, rel, roots)  # the folders just made are inside the workspace too
    fd, temp = _temp_in(directory, path.name)
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
            os.fsync(fd)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        os.link(temp, path)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    _fsync_dir(directory)
    return FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


def remove_memory(
    root: Path, rel: str, *, expected: FileStamp, roots: Roots = MEMORY_ROOTS
) -> None:
    """Delete a memory (a revert undoing its creation) only while it matches ``expected``."""
    path = resolve_memory(root, rel, roots)
    current = read_memory_bytes(root, rel, roots)
    if current is None:
        raise ConflictError(f"{rel} was deleted since it was read", None)
    if not expected.matches(current[1]):
        raise ConflictError(f"{rel} changed on disk since it was read", current[1])
    os.unlink(path)
    _fsync_dir(path.parent)


def _rewrite(
    root: Path,
    rel: str,
    compute: Callable[[bytes], bytes],
    expected: FileStamp | None,
    roots: Roots = MEMORY_ROOTS,
) -> tuple[bool, FileStamp, FileStamp]:
    path = resolve_memory(root, rel, roots)
    root_real = str(Path(root).resolve())
    try:
        data, stamp, st = _read_bytes_with_stamp(path, root_real)
    except FileNotFoundError:
        raise PathRefused(f"no such memory file: {rel}") from None
    except (NotRegularFile, OutsideWorkspace) as exc:
        raise PathRefused(f"refusing {rel!r}: {exc.strerror}") from None
    if expected is not None and not expected.matches(stamp):
        raise ConflictError(f"{rel} changed on disk since it was read", stamp)
    new_data = compute(data)
    if new_data == data:
        return False, stamp, stamp
    if st.st_nlink > 1:
        raise UnsafeEditError(f"{rel} has other hard links; a rename would split them")
    if not writable_by_mode(st):
        raise ReadOnlyFile(
            f"{rel} is read-only (mode {stat.S_IMODE(st.st_mode):04o}); not rewriting it"
        )
    remove_stale_temps(path.parent)
    return True, stamp, atomic_write(path, new_data, expected=stamp)


def is_stale_temp(name: str) -> bool:
    """A temporary file name of ours (``.<memory>.XXXXXXXX.reme-tmp``)."""
    return TEMP_NAME.match(name) is not None


def remove_stale_temps(directory: Path, *, older_than: float = STALE_TEMP_SECONDS) -> list[str]:
    """Delete our own temporary files left in ``directory`` by a killed write.

    Only names of our pattern, only regular files owned by us, only those untouched
    for ``older_than`` seconds (a live write is never older than a few seconds).
    """
    removed: list[str] = []
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        if not is_stale_temp(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
            continue
        if now - st.st_mtime < older_than:
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(entry.name)
    return removed


# --------------------------------------------------------------------------- private dirs


def _refuse_symlinks(path: Path, base: Path | None) -> None:
    chain = [path, *path.parents]
    if base is not None:
        chain = [p for p in chain if p == base or Path(base) in p.parents]
    else:
        chain = [path]
    for directory in chain:
        if os.path.islink(directory):
            raise OSError(errno.ELOOP, "a symlink; not followed for private data", str(directory))


def ensure_private_dir(path: Path, base: Path | None = None) -> Path:
    """Create ``path`` and its missing parents; those at or below ``base`` (all of them
    without a base) are 0700, those above it ordinary (``~/.cache`` itself, say).

    An existing ``path`` we own is tightened to 0700 when it is wider; one owned by
    someone else is refused (PermissionError), since it could be swapped under us, and so
    is a symlink at or below ``base`` (OSError ELOOP): following it would chmod and write
    into whatever it points at.
    """
    path = Path(path)
    _refuse_symlinks(path, base)
    missing: list[Path] = []
    current = path
    while not os.path.lexists(current) and current != current.parent:
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        private = base is None or directory == base or Path(base) in directory.parents
        with contextlib.suppress(FileExistsError):
            os.mkdir(directory, 0o700 if private else 0o755)
    st = os.stat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", str(path))
    if st.st_uid != os.geteuid():
        raise PermissionError(errno.EPERM, "owned by another user; not used", str(path))
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(path, 0o700)
    return path


__all__ = [
    "DEFAULT_MAX_READ_BYTES",
    "ConflictError",
    "FileStamp",
    "FileTooLarge",
    "NotRegularFile",
    "OutsideWorkspace",
    "PathRefused",
    "ReadOnlyFile",
    "Rewrite",
    "atomic_write",
    "ensure_private_dir",
    "is_stale_temp",
    "open_regular",
    "read_memory",
    "read_regular",
    "read_with_stamp",
    "remove_stale_temps",
    "replace_memory",
    "resolve_memory",
    "rewrite_memory",
    "stamp_file",
    "writable_by_mode",
]
