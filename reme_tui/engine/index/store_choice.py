"""Which saved index a run uses: one per workspace and per layout, shared by every mode.

The app and the headless modes of the same workspace read and write the same entry; the
default layout and `--all-markdown` index different files, so each has its own entry
(otherwise each run would discard the other's).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..files import ensure_private_dir
from .store import IndexStore, default_cache_dir

ALL_MARKDOWN_DIR = "all-markdown"


def saved_index(
    root: Path,
    *,
    all_markdown: bool,
    enabled: bool = True,
    rebuild: bool = False,
    cache_dir: Path | None = None,
) -> IndexStore | None:
    """The store for `root` (None when disabled: neither read nor written); `rebuild`
    discards what is saved so the next build starts afresh."""
    if not enabled:
        return None
    base = cache_dir or default_cache_dir()
    # The store creates its own directories below `base` only; a fresh account may not
    # even have $XDG_CACHE_HOME yet. Failing here only means nothing can be saved.
    with contextlib.suppress(OSError):
        ensure_private_dir(base)
    store = IndexStore(root, base / ALL_MARKDOWN_DIR if all_markdown else base)
    if rebuild:
        store.discard()
    return store
