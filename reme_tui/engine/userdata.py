"""Per-workspace files in the user data directory (dismissed tag pairs, merge journal).

``$XDG_DATA_HOME/reme-tui/workspaces/<key>/`` (or the platform's equivalent), where
``key`` is the same digest of the workspace's real path the saved index uses. Every
write is atomic (``edit.atomic_write``); an unreadable or corrupt file reads as absent.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import platformdirs

from .edit import atomic_write
from .store import workspace_key


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/reme-tui`` (or the platform's equivalent)."""
    return Path(platformdirs.user_data_dir("reme-tui", appauthor=False))


def workspace_data_dir(root: Path, data_dir: Path | None = None) -> Path:
    """The directory holding this workspace's user data (not created here)."""
    return (data_dir or default_data_dir()) / "workspaces" / workspace_key(root)


def read_json(path: Path) -> Any | None:
    """The JSON document at ``path``; None when missing, unreadable or not JSON."""
    with contextlib.suppress(OSError, ValueError):
        return json.loads(path.read_text(encoding="utf-8"))
    return None


def write_json(path: Path, document: Any) -> None:
    """Write ``document`` atomically, creating the directory when needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    atomic_write(path, data.encode("utf-8"), expected=None)
