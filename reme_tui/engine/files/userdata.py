"""Per-workspace files in the user data directory (dismissed tag pairs, merge journal).

``$XDG_DATA_HOME/reme-tui/workspaces/<key>/`` (or the platform's equivalent), where
``key`` is the same digest of the workspace's real path the saved index uses. The
directories are 0700 and the files 0600 (the journal holds whole memories). Every write
is atomic (``fileio.atomic_write``). Reads are bounded, non-blocking and of regular
files only; ``read_json_checked`` tells a missing file from a corrupt one.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import platformdirs

from .fileio import atomic_write, ensure_private_dir, read_regular

MAX_JSON_BYTES = 256 * 1024 * 1024


class CorruptFile(ValueError):
    """A file of ours exists but cannot be used; the message names it and says why."""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/reme-tui`` (or the platform's equivalent)."""
    return Path(platformdirs.user_data_dir("reme-tui", appauthor=False))


def workspace_data_dir(root: Path, data_dir: Path | None = None) -> Path:
    """The directory holding this workspace's user data (not created here)."""
    return (data_dir or default_data_dir()) / "workspaces" / workspace_key(root)


def shown_path(path: Path) -> str:
    """A path as the user is shown it: under the home directory as ``~/...``."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):  # elsewhere, or no home directory
        return str(path)


def read_json_checked(path: Path) -> Any | None:
    """The JSON document at ``path``; None when missing; CorruptFile when unusable."""
    try:
        data, _ = read_regular(path, MAX_JSON_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CorruptFile(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CorruptFile(f"{path}: not valid JSON ({type(exc).__name__})") from None


def read_json(path: Path) -> Any | None:
    """The JSON document at ``path``; None when missing, unreadable or not JSON."""
    try:
        return read_json_checked(path)
    except CorruptFile:
        return None


def write_json(path: Path, document: Any) -> None:
    """Write ``document`` atomically (0600), creating 0700 directories when needed."""
    ensure_private_dir(path.parent)
    data = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    atomic_write(path, data.encode("utf-8"), expected=None, private=True)


def workspace_key(root: Path) -> str:
    real = os.path.realpath(root)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:24]
