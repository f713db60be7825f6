"""`Engine.recent_frontmatter_keys`: what the app's search box asks on every key, answered
without waiting for the index lock (an update or a save may hold it, issue 19)."""

from __future__ import annotations

import threading
from pathlib import Path

from reme_tui.engine.engine import Engine
from tests.helpers import memory, write_workspace


def test_recent_frontmatter_keys_do_not_wait_for_the_lock(tmp_path: Path) -> None:
    root = write_workspace(tmp_path, {"digest/a.md": memory("x\n", extra="kind: a\n")})
    engine = Engine.open(root)
    assert "kind" in engine.recent_frontmatter_keys()  # none worked out yet: now
    write_workspace(root, {"digest/b.md": memory("y\n", extra="status: b\n")})
    engine.apply(["digest/b.md"])
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with engine._lock:
            held.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        held.wait()
        assert "status" not in engine.recent_frontmatter_keys()  # the last worked out
    finally:
        release.set()
        holder.join()
    assert "status" in engine.frontmatter_keys()
    assert "status" in engine.recent_frontmatter_keys()
