"""The real watcher (watchfiles) feeding `Engine.apply` ends equal to a fresh rebuild.

Every test runs `watch_batches` in a background thread with a stop event, applies each
batch to the engine, and after the files stop changing polls (generous timeout, no speed
assertions) until `engine.fingerprint() == Engine.open(root).fingerprint()`.
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.files.watch import relevant, watch_batches
from reme_tui.engine.records import Delta
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace

SETTLE_TIMEOUT = 30.0
PROBE = "digest/__watcher_armed__.md"


class LiveEngine:
    """An engine kept current by the real watcher running in a background thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.root = engine.root
        self.stop = threading.Event()
        self.batches: list[list[str]] = []
        self.deltas: list[Delta] = []
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, name="test-watcher", daemon=True)

    def _run(self) -> None:
        try:
            for batch in watch_batches(
                self.root, stop_event=self.stop, also=self.engine.is_link_target
            ):
                self.batches.append(batch)
                self.deltas.append(self.engine.apply(batch))
        except BaseException as exc:  # surfaced by the test thread
            self.errors.append(exc)

    def start(self) -> None:
        self._thread.start()
        self._arm()

    def _arm(self) -> None:
        """Touch a probe memory until the watcher reports it, then remove it again: from
        then on every change is seen. The probe's batches are forgotten."""
        probe = self.root / PROBE
        probe.parent.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + SETTLE_TIMEOUT
        count = 0
        while self.engine.memory(PROBE) is None:
            self._check(deadline, "the watcher never started")
            count += 1
            probe.write_text(f"probe {count}\n", encoding="utf-8")
            time.sleep(0.1)
        probe.unlink()
        while self.engine.memory(PROBE) is not None:
            self._check(deadline, "the watcher did not see the probe go")
            time.sleep(0.02)
        time.sleep(0.3)  # let the probe's last events drain
        self.batches.clear()
        self.deltas.clear()

    def _check(self, deadline: float, message: str) -> None:
        if self.errors:
            raise self.errors[0]
        if time.monotonic() > deadline:
            raise AssertionError(message)

    def settle(self) -> None:
        """Wait until the index equals a fresh rebuild of the (no longer changing) files."""
        expected = Engine.open(self.root).fingerprint()
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while self.engine.fingerprint() != expected:
            if self.errors:
                raise self.errors[0]
            if time.monotonic() > deadline:
                ours = self.engine.fingerprint()
                diff = {
                    key: (
                        sorted(set(map(str, ours[key])) - set(map(str, expected[key])))[:5],
                        sorted(set(map(str, expected[key])) - set(map(str, ours[key])))[:5],
                    )
                    for key in expected
                    if ours[key] != expected[key] and isinstance(expected[key], (list, dict))
                }
                raise AssertionError(f"index != rebuild (ours-only, rebuild-only): {diff}")
            time.sleep(0.05)

    def wait_for(self, path: str, present: bool = True) -> None:
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while (self.engine.memory(path) is not None) != present:
            self._check(deadline, f"{path} never {'appeared' if present else 'went'}")
            time.sleep(0.02)

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=10)
        assert not self._thread.is_alive(), "the watcher did not stop"
        if self.errors:
            raise self.errors[0]

    @property
    def applied_paths(self) -> set[str]:
        return {path for batch in self.batches for path in batch}


@contextmanager
def watching(root: Path) -> Iterator[LiveEngine]:
    live = LiveEngine(Engine.open(root))
    live.start()
    try:
        yield live
    finally:
        live.close()


def hits(engine: Engine, text: str) -> set[str]:
    return {h.path for h in engine.search(SearchQuery(text=text, limit=100)).hits}


def write(root: Path, rel: str, body: str, tags: list[str] | None = None) -> None:
    write_workspace(root, {rel: memory(body, tags=tags)})


# -- structural changes ---------------------------------------------------------------


def test_symlink_targets_outside_the_memory_folders_are_followed(tmp_path: Path) -> None:
    """The real watcher: a target under notes/ is not a memory, yet its link is."""
    write_workspace(
        tmp_path,
        {
            "notes/n.md": memory("budget note\n", tags=["before"]),
            "notes/real/r.md": memory("budget real\n", tags=["before"]),
        },
    )
    (tmp_path / "digest").mkdir()
    (tmp_path / "digest/l.md").symlink_to("../notes/n.md")
    (tmp_path / "digest/ld").symlink_to("../notes/real")
    with watching(tmp_path) as live:
        root = live.root
        write(root, "notes/n.md", "budget note again\n", tags=["after"])
        write(root, "notes/real/new.md", "budget new\n", tags=["fresh"])
        live.settle()
        assert live.engine.tags_of("digest/l.md") == ("after",)
        assert "digest/ld/new.md" in live.engine.paths()
        (root / "notes/n.md").unlink()
        live.settle()
        assert "digest/l.md" not in live.engine.paths()


def test_moves_and_renames(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            "digest/wiki/a.md": memory("budget alpha\n", tags=["alice"]),
            "daily/2026-03-01/c.md": memory("budget gamma\n", tags=["carol"]),
            **{f"digest/team/{i}.md": memory(f"plan {i}\n", tags=["team"]) for i in range(5)},
            **{f"digest/proj.v1/{i}.md": memory(f"dotted {i}\n") for i in range(3)},
            **{f"digest/old/{i}.md": memory(f"archived {i}\n") for i in range(3)},
            **{f"notes/incoming/{i}.md": memory(f"incoming {i}\n") for i in range(3)},
            "notes/loose.md": memory("loose budget\n"),
        },
    )
    with watching(tmp_path) as live:
        root = live.root
        os.rename(root / "digest/wiki/a.md", root / "digest/wiki/a2.md")  # rename a file
        os.rename(root / "daily/2026-03-01/c.md", root / "digest/c.md")  # across roots
        os.rename(root / "digest/team", root / "digest/crew")  # rename a folder
        os.rename(root / "digest/proj.v1", root / "digest/proj.v2")  # a folder with a dot
        os.makedirs(root / "notes/archive")
        os.rename(root / "digest/old", root / "notes/archive/old")  # out of the memories
        os.rename(root / "notes/incoming", root / "daily/incoming")  # into the memories
        os.rename(root / "notes/loose.md", root / "digest/loose.md")  # a file moved in
        live.settle()
        assert hits(live.engine, "budget") == {
            "digest/wiki/a2.md",
            "digest/c.md",
            "digest/loose.md",
        }
        assert dict(live.engine.list_tags())["team"] == 5
        # Swap two files by renames through a temporary name.
        os.rename(root / "digest/crew/0.md", root / "digest/crew/tmp.md")
        os.rename(root / "digest/crew/1.md", root / "digest/crew/0.md")
        os.rename(root / "digest/crew/tmp.md", root / "digest/crew/1.md")
        live.settle()


def test_directory_deletes(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            **{
                f"digest/team/sub{j}/{i}.md": memory(f"plan {i}\n")
                for i in range(4)
                for j in range(3)
            },
            **{f"daily/2026-03-0{i}/n.md": memory(f"day {i}\n", tags=["day"]) for i in range(1, 6)},
            **{f"digest/v2.0/{i}.md": memory(f"versioned {i}\n") for i in range(3)},
            "digest/keep.md": memory("kept budget\n"),
        },
    )
    with watching(tmp_path) as live:
        root = live.root
        shutil.rmtree(root / "digest/team")
        shutil.rmtree(root / "digest/v2.0")
        live.settle()
        shutil.rmtree(root / "daily")  # a whole memory root
        live.settle()
        assert live.engine.paths() == ["digest/keep.md"]
        assert live.engine.list_tags() == []
        # ... and it comes back (recreated with its files at once, as a checkout does).
        for i in range(1, 4):
            write(root, f"daily/2026-04-0{i}/back.md", f"back {i}\n", ["back"])
        live.settle()
        assert dict(live.engine.list_tags()) == {"back": 3}


def test_editors_save_by_rename(tmp_path: Path) -> None:
    write_workspace(
        tmp_path,
        {
            "digest/vim.md": memory("original vim text\n", tags=["v1"]),
            "digest/swap.md": memory("original swap text\n", tags=["s1"]),
            "digest/tmpfile.md": memory("original tmp text\n", tags=["t1"]),
            "digest/backup.md": memory("original backup text\n", tags=["b1"]),
        },
    )
    with watching(tmp_path) as live:
        root = live.root / "digest"
        # Atomic write through a hidden swap file, replaced over the target.
        (root / ".swap.md.swp").write_text(memory("saved swap text\n", tags=["s2"]))
        os.replace(root / ".swap.md.swp", root / "swap.md")
        # Through a visible temporary next to it (as many libraries do).
        (root / "tmpfile.md.tmp4711").write_text(memory("saved tmp text\n", tags=["t2"]))
        os.replace(root / "tmpfile.md.tmp4711", root / "tmpfile.md")
        # vim with backupcopy=no: rename the original to a backup, write anew, drop backup.
        os.rename(root / "backup.md", root / "backup.md~")
        (root / "backup.md").write_text(memory("saved backup text\n", tags=["b2"]))
        os.unlink(root / "backup.md~")
        # Emacs-style: a lock symlink pointing nowhere, a hidden temp in the same folder,
        # fsynced, renamed over the target, then the lock goes.
        os.symlink("root@host.4711:1700000000", root / ".#vim.md")
        fd = os.open(root / ".#vim.md.tmp", os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, memory("saved vim text\n", tags=["v2"]).encode())
        os.fsync(fd)
        os.close(fd)
        os.replace(root / ".#vim.md.tmp", root / "vim.md")
        os.unlink(root / ".#vim.md")
        live.settle()
        assert hits(live.engine, "saved") == {
            "digest/vim.md",
            "digest/swap.md",
            "digest/tmpfile.md",
            "digest/backup.md",
        }
        assert hits(live.engine, "original") == set()
        assert dict(live.engine.list_tags()) == {"v2": 1, "s2": 1, "t2": 1, "b2": 1}


def test_workspace_deleted_under_the_watcher(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_workspace(root, {"digest/a.md": memory("budget\n", tags=["alice"])})
    with watching(root) as live:
        shutil.rmtree(root)
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while not any(d.workspace_missing for d in live.deltas):
            live._check(deadline, "the watcher never reported the workspace gone")
            time.sleep(0.05)
        assert hits(live.engine, "budget") == {"digest/a.md"}  # last good index stays
        assert live.engine.list_tags() == [("alice", 1)]


# -- volume ---------------------------------------------------------------------------------


def _create(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def test_burst_of_thousands_of_changes(tmp_path: Path) -> None:
    """Like a `git checkout`: 3,000 files appear in new folders, then half of them are
    rewritten, renamed or deleted, all without pause."""
    (tmp_path / "digest").mkdir()
    (tmp_path / "daily").mkdir()
    rng = random.Random(3000)
    with watching(tmp_path) as live:
        root = live.root
        paths: list[str] = []
        for d in range(30):
            folder = f"daily/2026-05-{d + 1:02d}" if d % 2 else f"digest/topic{d}"
            (root / folder).mkdir()
            for i in range(100):
                rel = f"{folder}/n{i}.md"
                _create(root / rel, memory(f"burst w{d}x{i} budget\n", tags=[f"t{i % 9}"]))
                paths.append(rel)
        for rel in rng.sample(paths, 1_500):
            roll = rng.random()
            if roll < 0.4:
                _create(root / rel, memory(f"rewritten {rel} budget\n", tags=["rewritten"]))
            elif roll < 0.7:
                os.rename(root / rel, root / rel.replace(".md", "-moved.md"))
            else:
                os.unlink(root / rel)
        live.settle()
        assert 2_000 < live.engine.memory_count < 3_000


def test_randomized_interleaving(tmp_path: Path) -> None:
    """Seeded random creates, edits, renames and deletes (files and folders), with short
    random pauses so batches split at varied points; equal to a rebuild after each round."""
    rng = random.Random(20260301)
    words = ["budget", "atlas", "launch", "review", "plan", "risk", "vendor", "zebra"]
    tags = ["alice", "Bob", "project_atlas", "Project Atlas", "acme", "x" * 70]
    folders = ["digest/wiki", "digest/wiki/deep", "daily/2026-03-01", "daily/2026-03-02", "notes"]
    write_workspace(tmp_path, {f"{folders[0]}/seed.md": memory("seed budget\n")})
    with watching(tmp_path) as live:
        root = live.root
        serial = 0

        def files() -> list[Path]:
            return sorted(p for p in root.rglob("*.md") if p.is_file() and "__" not in p.name)

        for _round in range(3):
            for _step in range(70):
                serial += 1
                existing = files()
                op = rng.choice(
                    [
                        "create",
                        "create",
                        "edit",
                        "edit",
                        "rename",
                        "delete",
                        "replace",
                        "mvdir",
                        "rmdir",
                        "noise",
                    ]
                )
                body = " ".join(rng.sample(words, 3)) + f" n{serial}\n"
                text = memory(body, tags=rng.sample(tags, rng.randint(0, 4)))
                if op == "create" or not existing:
                    folder = root / rng.choice(folders)
                    if rng.random() < 0.2:
                        folder = folder / f"new{serial}"
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / f"f{serial}.md").write_text(text)
                elif op == "edit":
                    rng.choice(existing).write_text(text)
                elif op == "rename":
                    source = rng.choice(existing)
                    target = root / rng.choice(folders) / f"r{serial}.md"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.rename(source, target)
                elif op == "delete":
                    rng.choice(existing).unlink()
                elif op == "replace":
                    target = rng.choice(existing)
                    tmp = target.with_name(f".{target.name}.swp")
                    tmp.write_text(text)
                    os.replace(tmp, target)
                elif op == "mvdir":
                    source = rng.choice(existing).parent
                    target = (
                        root / rng.choice(["digest", "daily", "notes"]) / f"d{serial}.v{serial}"
                    )
                    if source.name not in ("digest", "daily") and source not in target.parents:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        os.rename(source, target)
                elif op == "rmdir":
                    source = rng.choice(existing).parent
                    if source.name.startswith(("new", "d")) and source.name not in (
                        "digest",
                        "daily",
                    ):
                        shutil.rmtree(source)
                else:
                    (root / "digest" / f"noise{serial}.txt").write_text("budget noise\n")
                if rng.random() < 0.2:
                    time.sleep(rng.random() * 0.12)
            live.settle()


# -- what reaches apply -------------------------------------------------------------------


def test_repeated_writes_coalesce(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/hot.md": memory("start\n")})
    with watching(tmp_path) as live:
        path = live.root / "digest/hot.md"
        for i in range(50):
            path.write_text(memory(f"version {i} budget\n"))
        live.settle()
        assert hits(live.engine, "version") == {"digest/hot.md"}
        with_hot = [b for b in live.batches if "digest/hot.md" in b]
        assert 1 <= len(with_hot) <= 5, live.batches
        for batch in live.batches:
            assert len(batch) == len(set(batch)), batch


def test_non_memory_files_never_reach_apply(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("budget\n"), "resource/r.md": "x\n"})
    noise = [
        "README.md",
        "resource/r.md",
        "resource/new.md",
        "notes/n.md",
        "metadata/m.json",
        "digest/notes.txt",
        "daily/2026-01-01.txt",
        "digest/.a.md.swp",
        "digest/.#a.md.lock",
        "digest/a.md~",
        "digest/.tmp-reme-1234",
        "digest/.DS_Store",
        "digest/a.md.orig",
    ]
    calls: list[list[str]] = []
    with watching(tmp_path) as live:
        real_apply = live.engine.apply

        def recording_apply(changes):  # type: ignore[no-untyped-def]
            calls.append(list(changes))
            return real_apply(changes)

        live.engine.apply = recording_apply  # type: ignore[method-assign]
        root = live.root
        for rel in noise:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("budget noise\n")
        (root / "resource/r.md").write_text("changed\n")
        os.rename(root / "resource/new.md", root / "resource/renamed.md")
        os.unlink(root / "digest/notes.txt")
        write(root, "digest/marker.md", "marker\n")  # then something that does count
        live.wait_for("digest/marker.md")
        reached = {p for batch in calls for p in batch}
        assert "digest/marker.md" in reached
        leaked = {
            p for p in reached if p in noise or p.startswith(("resource", "notes", "metadata"))
        }
        assert not leaked, leaked
        assert all(relevant(p) for p in reached)
        live.settle()


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("digest/a.md", True),
        ("digest/A.MD", True),
        ("digest/sub", True),
        ("daily", True),
        ("", True),
        ("README.md", False),
        ("resource/x.md", False),
        ("digest/x.txt", False),
        ("digest/.x.md.swp", False),
        ("digest/.tmp123", False),
    ],
)
def test_relevant(rel: str, expected: bool) -> None:
    assert relevant(rel) is expected
