"""The saved index: warm starts equal a rebuild; anything wrong with it means a rebuild."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reme_tui.engine.core import Engine, EngineConfig
from reme_tui.engine.store import IndexStore, StoreInvalid
from tests.helpers import memory, write_workspace

FILES = {
    f"daily/2026-03-0{i}/note.md": memory(
        f"budget note {i} [[digest/wiki/hub.md]]\n", tags=[f"t{i % 3}"]
    )
    for i in range(1, 8)
} | {"digest/wiki/hub.md": memory("hub of budget links\n", tags=["hub"])}


def open_with_store(root: Path, notices: list[str] | None = None, **config: object) -> Engine:
    sink = notices.append if notices is not None else None
    return Engine.open(root, EngineConfig(**config), store=IndexStore(root), notice=sink)  # type: ignore[arg-type]


def age_files(root: Path, seconds: int = 60) -> None:
    """Make every file's mtime older than the trust window, as on any real workspace."""
    for path in root.rglob("*.md"):
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 1_000_000_000))


def test_warm_start_equals_cold_and_picks_up_changes(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    assert IndexStore(tmp_path).path.exists()
    warm = open_with_store(tmp_path)
    assert warm.fingerprint() == cold.fingerprint()

    write_workspace(tmp_path, {"digest/wiki/new.md": memory("fresh budget\n", tags=["t9"])})
    write_workspace(tmp_path, {"daily/2026-03-01/note.md": memory("rewritten\n", tags=["t5"])})
    (tmp_path / "daily/2026-03-02/note.md").unlink()
    warm = open_with_store(tmp_path)
    assert warm.fingerprint() == Engine.open(tmp_path).fingerprint()


def test_same_size_same_mtime_edit_within_trust_window_is_caught(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/a.md": "alpha\n"})
    open_with_store(tmp_path)
    path = tmp_path / "digest/a.md"
    st = path.stat()
    path.write_text("gamma\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    warm = open_with_store(tmp_path)
    assert warm.memory("digest/a.md").chunks[0].text == "gamma"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:40]), "truncated"),
        (lambda p: p.write_bytes(p.read_bytes()[:-10] + b"0123456789"), "checksum"),
        (lambda p: p.write_bytes(b"garbage"), "truncated"),
        (
            lambda p: p.write_bytes(
                p.read_bytes()[:14] + (99).to_bytes(4, "big") + p.read_bytes()[18:]
            ),
            "version",
        ),
    ],
)
def test_damaged_store_is_discarded_with_a_notice(tmp_path: Path, damage, reason: str) -> None:
    write_workspace(tmp_path, FILES)
    cold = open_with_store(tmp_path)
    damage(IndexStore(tmp_path).path)
    notices: list[str] = []
    again = open_with_store(tmp_path, notices)
    assert len(notices) == 1 and reason in notices[0] and "rebuilding" in notices[0]
    assert again.fingerprint() == cold.fingerprint()
    IndexStore(tmp_path).load(again._config_key())  # rewritten and valid again


def test_other_settings_do_not_reuse_the_store(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES | {"notes/x.md": "budget\n"})
    open_with_store(tmp_path)
    notices: list[str] = []
    engine = open_with_store(tmp_path, notices, all_markdown=True)
    assert "notes/x.md" in engine.paths() and "other settings" in notices[0]


def test_store_lives_in_the_cache_dir_never_the_workspace(
    tmp_path: Path, isolated_user_dirs: Path
) -> None:
    write_workspace(tmp_path / "ws", FILES)
    open_with_store(tmp_path / "ws")
    store = IndexStore(tmp_path / "ws")
    assert str(store.path).startswith(str(isolated_user_dirs / "XDG_CACHE_HOME"))
    assert not any(p.name.startswith("index") for p in (tmp_path / "ws").rglob("*"))


def test_missing_store_raises_invalid(tmp_path: Path) -> None:
    with pytest.raises(StoreInvalid, match="no saved index"):
        IndexStore(tmp_path).load("x")


def test_concurrent_processes_never_corrupt_the_store(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    code = (
        "import sys\nfrom reme_tui.cli import main\n"
        f"argv = [{str(tmp_path)!r}, '--rebuild', '--list-tags', '--json']\n"
        "for _ in range(5):\n    assert main(argv) == 0\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL) for _ in range(3)
    ]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    engine = Engine.create(tmp_path)
    IndexStore(tmp_path).load(engine._config_key())  # valid after the race
