"""Live index == cold build with symlinks: targets that change, vanish, chain or leave.

The watcher reports the paths an operation touched (never the symlinks that lead to
them); after each operation ``Engine.apply`` of exactly those paths must leave the index
equal to a fresh build.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from tests.helpers import memory

FILES = [
    "digest/a.md",
    "digest/b.md",
    "digest/sub/c.md",
    "daily/2026-01-01/d.md",
    "notes/n.md",
    "notes/real/r.md",
]
DIRS = ["digest/sub", "notes/real", "notes", "digest"]
LINKS = ["digest/l1.md", "digest/l2.md", "daily/2026-01-01/l3.md", "digest/sub/l4.md"]
DIR_LINKS = ["digest/ld1", "digest/sub/ld2", "daily/ld3"]


def _write(path: Path, rng: random.Random) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tags = rng.sample(["alpha", "beta", "gamma", "delta"], rng.randint(0, 2))
    path.write_text(memory(f"budget {rng.randint(0, 999)}\n", tags=tags))


def _remove(path: Path) -> list[Path]:
    """Remove a file, link or tree; every path a watcher would report."""
    if path.is_symlink() or path.is_file():
        path.unlink()
        return [path]
    if path.is_dir():
        inside = sorted(path.rglob("*"), reverse=True)
        shutil.rmtree(path)
        return [*inside, path]
    return [path]


def _operation(root: Path, outside: Path, rng: random.Random) -> list[Path]:
    kind = rng.choice(["write", "write", "remove", "link", "link", "dirlink", "rename", "swap"])
    if kind == "write":
        path = root / rng.choice(FILES)
        touched = _remove(path) if path.is_symlink() or path.is_dir() else []
        _write(path, rng)
        return [*touched, path]
    if kind == "remove":
        return _remove(root / rng.choice(FILES + DIRS + LINKS + DIR_LINKS))
    if kind in ("link", "dirlink"):
        names, targets = (
            (LINKS, [*FILES, *LINKS, "missing.md"])
            if kind == "link"
            else (DIR_LINKS, [*DIRS, *DIR_LINKS])
        )
        link = root / rng.choice(names)
        touched = _remove(link) if os.path.lexists(link) else []
        if rng.random() < 0.2:
            target: Path = outside / ("o.md" if kind == "link" else "")
        else:
            target = root / rng.choice(targets)
        link.parent.mkdir(parents=True, exist_ok=True)
        relative = os.path.relpath(target, link.parent)
        link.symlink_to(relative if rng.random() < 0.5 else target)
        return [*touched, link]
    if kind == "rename":
        src = root / rng.choice(FILES + LINKS)
        dst = root / rng.choice(FILES + LINKS)
        if not os.path.lexists(src) or src == dst or dst.is_dir():
            return []
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
        return [src, dst]
    # swap: a memory replaced by a symlink to another one (or back)
    path = root / rng.choice(FILES)
    touched = _remove(path) if os.path.lexists(path) else []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(root / rng.choice(FILES))
    return [*touched, path]


def _setup(tmp_path: Path, rng: random.Random) -> tuple[Path, Path]:
    root, outside = tmp_path / "ws", tmp_path / "outside"
    for rel in FILES:
        _write(root / rel, rng)
    _write(outside / "o.md", rng)
    return root, outside


@pytest.mark.parametrize("seed", range(12))
def test_random_churn_with_symlinks_live_equals_cold(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root, outside = _setup(tmp_path, rng)
    live = Engine.open(root)
    for step in range(40):
        touched = _operation(root, outside, rng)
        if touched:
            live.apply(touched)
        cold = Engine.open(root)
        assert live.fingerprint() == cold.fingerprint(), f"seed {seed}, step {step}"


def test_symlinked_memory_follows_its_target(tmp_path: Path) -> None:
    rng = random.Random(0)
    root, _ = _setup(tmp_path, rng)
    (root / "digest" / "l1.md").symlink_to("a.md")
    engine = Engine.open(root)
    (root / "digest" / "a.md").write_text(memory("budget\n", tags=["changed"]))
    engine.apply([root / "digest" / "a.md"])  # the watcher reports the target only
    assert engine.tags_of("digest/l1.md") == ("changed",)
    (root / "digest" / "a.md").unlink()
    engine.apply(["digest/a.md"])
    assert "digest/l1.md" not in engine.paths()


def test_symlinked_directory_created_while_watching_is_indexed(tmp_path: Path) -> None:
    rng = random.Random(1)
    root, _ = _setup(tmp_path, rng)
    engine = Engine.open(root)
    (root / "digest" / "ld1").symlink_to(root / "notes" / "real")
    engine.apply(["digest/ld1"])
    assert "digest/ld1/r.md" in engine.paths()
    _write(root / "notes" / "real" / "new.md", rng)
    engine.apply(["notes/real/new.md"])  # appears through the link as well
    assert "digest/ld1/new.md" in engine.paths()
    assert engine.fingerprint() == Engine.open(root).fingerprint()


def test_chain_redirected_outside_leaves_the_index_and_preview(tmp_path: Path) -> None:
    from reme_tui.engine.parse.document import ReadFailure

    rng = random.Random(2)
    root, outside = _setup(tmp_path, rng)
    (root / "digest" / "l1.md").symlink_to("a.md")
    engine = Engine.open(root)
    (root / "digest" / "a.md").unlink()
    (root / "digest" / "a.md").symlink_to(outside / "o.md")
    engine.apply(["digest/a.md"])
    assert "digest/l1.md" not in engine.paths() and "digest/a.md" not in engine.paths()
    for rel in ("digest/l1.md", "digest/a.md"):
        with pytest.raises(ReadFailure):
            engine.read_text(rel)  # the preview never shows the outside file
