"""Which files are memories, safe workspace-relative paths, and dates from paths."""

from __future__ import annotations

import errno
import os
import re
import stat as _stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..codes import Code
from ..dates import calendar_day
from ..records import Diagnostic

MEMORY_ROOTS: tuple[str, ...] = ("daily", "digest")
# Temporary files of the write path (fileio): `.<name>.<8 chars of mkstemp>.reme-tmp`.
TEMP_SUFFIX = ".reme-tmp"
TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.reme-tmp$")
MEMORY_SUFFIX = ".md"


class PathOutsideWorkspace(ValueError):
    """A path that would leave the workspace."""


@dataclass(frozen=True, slots=True)
class FoundFile:
    """A memory file found by a scan: its safe relative path and where to read it."""

    rel: str
    abs_path: str | Path
    inside: str | None = None  # the root's real path: the file read must still be under it


def is_memory_path(
    rel: str, *, all_markdown: bool = False, roots: tuple[str, ...] = MEMORY_ROOTS
) -> bool:
    """True when a workspace-relative POSIX path names a memory (ReMe layout by default;
    `roots` are ReMe's `daily_dir` and `digest_dir`, which a config may rename)."""
    if not rel.lower().endswith(MEMORY_SUFFIX):
        return False
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return False
    if all_markdown:
        return True
    return any(rel.startswith(root + "/") for root in roots)


def date_from_path(rel: str) -> str | None:
    """ISO date from the second path segment (`daily/2026-03-10/x.md`, `daily/2026-03-10.md`).

    Mirrors the reference: any second segment that is a date (or a date + `.md`) counts,
    validated with `date.fromisoformat`.
    """
    parts = rel.split("/")
    if len(parts) < 2:
        return None
    segment = parts[1]
    candidate = segment.rsplit(".", 1)[0] if "." in segment else segment
    if candidate != segment and not segment.endswith(".md"):
        return None
    return calendar_day(candidate)


def to_relative(root: Path, path: str | os.PathLike[str]) -> str:
    """A safe workspace-relative POSIX path for `path` (absolute or relative to root).

    Raises PathOutsideWorkspace for `..` escapes or absolute paths outside the root.
    Symlinks are not resolved here: the scanner decides whether to follow them.
    """
    raw = os.fspath(path)
    candidate = Path(raw)
    if candidate.is_absolute():
        try:
            rel_path = candidate.relative_to(root)
        except ValueError:
            raise PathOutsideWorkspace(f"{raw} is outside the workspace {root}") from None
        rel = rel_path.as_posix()
    else:
        rel = PurePosixPath(raw.replace("\\", "/")).as_posix()
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise PathOutsideWorkspace(f"{raw} leaves the workspace")
    return "/".join(parts)


def resolve_inside(root: Path, path: str | os.PathLike[str]) -> Path:
    """The real path of workspace path ``path`` (relative to ``root`` or absolute).

    The one containment check for reads: raises PathOutsideWorkspace for ``..`` escapes
    and for any path whose real location (every symlink on the way followed) is not
    inside the root's real path.
    """
    rel = to_relative(root, path)
    root_real = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root_real, rel)) if rel else root_real
    if not (real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)):
        raise PathOutsideWorkspace(f"{rel} resolves outside the workspace")
    return Path(real)


def resolves_inside(root_real: str, path: str | os.PathLike[str]) -> bool:
    """True when the fully resolved `path` lies inside the (already resolved) root."""
    try:
        real = os.path.realpath(path, strict=True)
    except (OSError, RuntimeError):
        return False
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


DiagnosticSink = Callable[[Diagnostic], None]
SymlinkSink = Callable[[str, str], None]


def scan(
    root: Path,
    *,
    start: str = "",
    all_markdown: bool = False,
    on_diagnostic: DiagnosticSink | None = None,
    on_symlink: SymlinkSink | None = None,
    roots: tuple[str, ...] = MEMORY_ROOTS,
) -> Iterator[FoundFile]:
    """Yield every memory under `root` (or under the relative directory `start`).

    Never follows a symlink that resolves outside the workspace; detects symlink loops;
    unreadable directories and vanished entries become diagnostics, never exceptions.
    ``on_symlink(rel, abs_path)`` hears of every symlink met, followed or not. A scan
    from ``start`` sees exactly what a full scan sees under it (same loop detection).
    """
    report = on_diagnostic or (lambda _d: None)
    links = on_symlink or (lambda _rel, _abs: None)
    root_real = os.path.realpath(root)
    tops = [start] if start else ([""] if all_markdown else list(roots))
    for top in tops:
        top_abs = os.path.join(root, top) if top else os.fspath(root)
        ancestors = _ancestors(root, top, all_markdown, roots)
        yield from _walk(root_real, top_abs, top, all_markdown, ancestors, report, links, roots)


def _ancestors(
    root: Path, top: str, all_markdown: bool, roots: tuple[str, ...]
) -> set[tuple[int, int]]:
    """Identities of the directories a full scan passes through before reaching ``top``
    (a full scan starts at the workspace with --all-markdown, else at each memory root)."""
    if not top:
        return set()
    parts = top.split("/")
    first = 0 if all_markdown else 1
    if not all_markdown:
        for memory_root in roots:
            depth = len(memory_root.split("/"))
            if parts[:depth] == memory_root.split("/"):
                first = depth
                break
    prefixes = ([""] if all_markdown else []) + [
        "/".join(parts[:n]) for n in range(max(first, 1), len(parts))
    ]
    out: set[tuple[int, int]] = set()
    for prefix in prefixes:
        try:
            st = os.stat(os.path.join(root, prefix) if prefix else root)
        except OSError:
            continue
        out.add((st.st_dev, st.st_ino))
    return out


def _walk(
    root_real: str,
    dir_abs: str,
    dir_rel: str,
    all_markdown: bool,
    ancestors: set[tuple[int, int]],
    report: DiagnosticSink,
    links: SymlinkSink,
    roots: tuple[str, ...],
) -> Iterator[FoundFile]:
    try:
        st = os.stat(dir_abs)
    except FileNotFoundError:
        return
    except OSError as exc:
        report(_unreadable_dir(dir_rel, "open", exc))
        return
    identity = (st.st_dev, st.st_ino)
    if identity in ancestors:
        report(
            Diagnostic(
                dir_rel,
                None,
                Code.SYMLINK_LOOP,
                "symlink loop: this directory links back to one of its parents; not followed",
            )
        )
        return
    ancestors = ancestors | {identity}
    try:
        with os.scandir(dir_abs) as it:
            entries = sorted(it, key=lambda e: e.name)
    except FileNotFoundError:
        return
    except OSError as exc:
        report(_unreadable_dir(dir_rel, "list", exc))
        return
    for entry in entries:
        rel = f"{dir_rel}/{entry.name}" if dir_rel else entry.name
        if entry.name.endswith(TEMP_SUFFIX) and TEMP_NAME.match(entry.name):
            message = "left by an interrupted write; removed by the next edit in this folder"
            report(Diagnostic(rel, None, Code.STALE_TEMP, message))
            continue
        try:
            is_link = entry.is_symlink()
            if is_link:
                links(rel, entry.path)
            if is_link and not resolves_inside(root_real, entry.path):
                if os.path.lexists(entry.path) and not _is_broken_or_loop(entry.path):
                    report(
                        Diagnostic(
                            rel,
                            None,
                            Code.SYMLINK_OUTSIDE,
                            "symlink points outside the workspace; not followed",
                        )
                    )
                elif _is_loop(entry.path):
                    report(Diagnostic(rel, None, Code.SYMLINK_LOOP, "symlink loop; not followed"))
                continue
            mode = os.stat(entry.path).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            if getattr(exc, "errno", None) == 40:  # ELOOP
                report(Diagnostic(rel, None, Code.SYMLINK_LOOP, "symlink loop; not followed"))
            else:
                report(Diagnostic(rel, None, Code.UNREADABLE, f"cannot stat: {exc.strerror}"))
            continue
        if _stat.S_ISDIR(mode):
            yield from _walk(
                root_real, entry.path, rel, all_markdown, ancestors, report, links, roots
            )
        elif _stat.S_ISREG(mode) and is_memory_path(rel, all_markdown=all_markdown, roots=roots):
            yield FoundFile(rel, entry.path, root_real)
        elif is_memory_path(rel, all_markdown=all_markdown, roots=roots):
            message = "not a regular file (a FIFO, device or socket); not opened"
            report(Diagnostic(rel, None, Code.NOT_REGULAR, message))


def _is_loop(path: str) -> bool:
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _is_broken_or_loop(path: str) -> bool:
    try:
        os.stat(path)
    except OSError:
        return True
    return False


def _unreadable_dir(dir_rel: str, verb: str, exc: OSError) -> Diagnostic:
    return Diagnostic(
        dir_rel or ".", None, Code.UNREADABLE_DIR, f"cannot {verb} directory: {exc.strerror}"
    )
