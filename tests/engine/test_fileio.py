"""The one write path and the safe reads: permissions, owners, links, FIFOs, devices."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.errors import UnsafeEditError
from reme_tui.engine.files.fileio import (
    FileTooLarge,
    NotRegularFile,
    OutsideWorkspace,
    PathRefused,
    ReadOnlyFile,
    ensure_private_dir,
    read_regular,
    remove_stale_temps,
    rewrite_memory,
)
from reme_tui.engine.parse.frontmatter import AddTag
from tests.helpers import write_workspace

TAGGED = "---\nmemory_tags: [a]\n---\nbody\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", {"digest/a.md": TAGGED, "digest/b.md": TAGGED})


def test_read_only_file_is_refused_even_as_root(root: Path) -> None:
    path = root / "digest" / "a.md"
    path.chmod(0o444)
    engine = Engine.open(root)
    with pytest.raises(ReadOnlyFile, match="read-only"):
        engine.edit_tags("digest/a.md", AddTag("b"))
    assert path.read_text() == TAGGED and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_mode_owner_and_setuid_are_kept(root: Path) -> None:
    path = root / "digest" / "a.md"
    if os.geteuid() == 0:
        os.chown(path, 1234, 5678)
    path.chmod(0o4750)  # after chown, which clears setuid
    before = path.stat()
    Engine.open(root).edit_tags("digest/a.md", AddTag("b"))
    after = path.stat()
    assert "memory_tags: [a, b]" in path.read_text()
    assert stat.S_IMODE(after.st_mode) == 0o4750  # chown before chmod: setuid survives
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert after.st_ino != before.st_ino  # replaced by rename, not rewritten in place


def test_hard_links_are_refused_by_every_writer(root: Path) -> None:
    os.link(root / "digest" / "a.md", root / "digest" / "twin.md")
    (root / "digest" / "a.md").write_text("---\nmemory_tags: flat\n---\n")
    engine = Engine.open(root)
    with pytest.raises(UnsafeEditError, match="hard links"):
        engine.edit_tags("digest/a.md", AddTag("b"))
    with pytest.raises(UnsafeEditError, match="hard links"):
        engine.apply_fix("digest/a.md")  # it used to skip this check


def test_edit_returns_the_delta_and_the_index_follows(root: Path) -> None:
    engine = Engine.open(root)
    result = engine.edit_tags("digest/a.md", AddTag("fresh"))
    assert result.delta is not None and result.delta.changed == ["digest/a.md"]
    assert "fresh" in result.delta.tags_moved
    assert engine.files_with_tag("fresh") == frozenset({"digest/a.md"})
    assert engine.fingerprint() == Engine.open(root).fingerprint()


def test_fifo_and_devices_are_refused_without_blocking(root: Path, tmp_path: Path) -> None:
    fifo = root / "digest" / "pipe.md"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="FIFO"):
        read_regular(fifo)
    with pytest.raises(PathRefused, match="FIFO"):
        rewrite_memory(root, "digest/pipe.md", lambda text: text + "x")
    (root / "digest" / "zero.md").symlink_to("/dev/zero")
    with pytest.raises(NotRegularFile, match="character device"):
        read_regular(root / "digest" / "zero.md")
    with pytest.raises(NotRegularFile, match="directory"):
        read_regular(root / "digest")


def test_reads_are_bounded_and_contained(root: Path, tmp_path: Path) -> None:
    big = root / "digest" / "big.md"
    big.write_bytes(b"x" * 2048)
    with pytest.raises(FileTooLarge):
        read_regular(big, 1024)
    outside = tmp_path / "secret.md"
    outside.write_text("secret\n")
    (root / "digest" / "leak.md").symlink_to(outside)
    with pytest.raises(OutsideWorkspace):
        read_regular(root / "digest" / "leak.md", inside=str(root.resolve()))


def test_private_dirs_are_0700_and_tightened(tmp_path: Path) -> None:
    # the base's own parents may be missing too (XDG_CACHE_HOME not created yet)
    made = ensure_private_dir(tmp_path / "x" / "a" / "b" / "c", base=tmp_path / "x" / "a")
    for directory in (tmp_path / "x" / "a", tmp_path / "x" / "a" / "b", made):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "x").stat().st_mode) == 0o755
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    loose.chmod(0o755)
    ensure_private_dir(loose)
    assert stat.S_IMODE(loose.stat().st_mode) == 0o700


def test_only_our_old_temp_files_are_removed(root: Path) -> None:
    digest = root / "digest"
    ours_old = digest / ".a.md.ab12CD_9.reme-tmp"
    ours_new = digest / ".b.md.zz12CD_9.reme-tmp"
    not_ours = digest / ".a.md.ab12CD_9.tmp"
    for path in (ours_old, ours_new, not_ours):
        path.write_text("partial")
    old = time.time() - 7200
    os.utime(ours_old, (old, old))
    os.utime(not_ours, (old, old))
    assert remove_stale_temps(digest) == [ours_old.name]
    assert ours_new.exists() and not_ours.exists() and not ours_old.exists()


def test_stale_temp_files_and_fifos_are_reported_never_indexed(root: Path) -> None:
    (root / "digest" / ".a.md.ab12CD_9.reme-tmp").write_text(TAGGED)  # left by kill -9
    os.mkfifo(root / "digest" / "pipe.md")
    engine = Engine.open(root)
    assert engine.paths() == ["digest/a.md", "digest/b.md"]
    codes = {(d.path, d.code) for d in engine.diagnostics()}
    assert ("digest/.a.md.ab12CD_9.reme-tmp", "stale-temp") in codes
    assert ("digest/pipe.md", "not-regular") in codes


def test_fifo_swapped_in_after_the_scan_never_blocks_the_build(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reme_tui.engine.index import updates

    real_scan = updates.scan

    def scan_then_swap(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        found = list(real_scan(*args, **kwargs))  # type: ignore[arg-type]
        target = root / "digest" / "b.md"
        if target.is_file():
            target.unlink()
            os.mkfifo(target)
        return iter(found)

    monkeypatch.setattr(updates, "scan", scan_then_swap)
    engine = Engine.open(root)  # would hang forever on open() without O_NONBLOCK
    assert engine.paths() == ["digest/a.md"]
    assert any(d.path == "digest/b.md" and d.code == "unreadable" for d in engine.diagnostics())
    monkeypatch.undo()
    live = engine.apply(["digest/b.md"])
    assert live.is_empty or "digest/b.md" not in live.added


def test_writes_follow_the_engine_memory_folders(tmp_path: Path) -> None:
    from reme_tui.engine.engine import EngineConfig

    root = write_workspace(tmp_path / "ws", {"notes/n.md": TAGGED, "digest/a.md": TAGGED})
    with pytest.raises(PathRefused, match="memories are"):
        Engine.open(root).edit_tags("notes/n.md", AddTag("b"))
    everything = Engine.open(root, EngineConfig(all_markdown=True))
    assert everything.edit_tags("notes/n.md", AddTag("b")).changed
    assert everything.tags_of("notes/n.md") == ("a", "b")


def test_a_failing_directory_sync_after_the_rename_is_not_a_refusal(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: EIO from closing the directory after the rename made an edit raise although
    it was written, and a merge count that file as refused (undo then left it merged)."""
    import errno

    from reme_tui.engine.files import fileio
    from reme_tui.engine.write import plan_merge

    real_close = os.close

    def close(fd: int) -> None:
        is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
        real_close(fd)
        if is_dir:
            raise OSError(errno.EIO, "Input/output error")

    engine = Engine.open(root)
    with monkeypatch.context() as patched:
        patched.setattr(fileio.os, "close", close)
        result = engine.edit_tags("digest/a.md", AddTag("b"))
        merged = engine.merge(plan_merge(engine, ["a"], "c"))
    assert result.changed and result.written == ["digest/a.md"]
    assert "memory_tags: [c, b]" in (root / "digest" / "a.md").read_text()
    assert sorted(merged.written) == ["digest/a.md", "digest/b.md"] and merged.refused == []


@pytest.mark.parametrize("stem", ["n" * 248, "é" * 125, "日" * 83], ids=["1", "2", "3-byte"])
def test_a_name_at_the_length_limit_can_be_edited(tmp_path: Path, stem: str) -> None:
    # Issue 26: such a file was indexed but every edit failed (the temp name added 19 bytes).
    name = f"digest/{stem}.md"
    assert len(os.fsencode(Path(name).name)) > 236
    root = write_workspace(tmp_path / "ws", {name: TAGGED})
    engine = Engine.open(root)
    engine.edit_tags(name, AddTag("b"))
    assert "memory_tags: [a, b]" in (root / name).read_text()
    assert sorted(p.name for p in (root / "digest").iterdir()) == [Path(name).name]
    edited = engine.memory(name)
    assert edited is not None and edited.tags == ("a", "b")


def test_a_file_is_read_in_one_piece_and_one_that_grows_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One buffer the size of the file (a 256 MB saved index used to be read in 1 MiB
    pieces and joined: copied twice), and a second read to see the end."""
    from reme_tui.engine.files import fileio

    path = tmp_path / "big.bin"
    data = os.urandom(3 * (1 << 20) + 17)
    path.write_bytes(data)
    sizes: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        sizes.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(fileio.os, "read", counting_read)
    assert read_regular(path)[0] == data
    assert sizes == [len(data) + 1, 1 << 20]  # the file, then its end

    def growing_read(fd: int, n: int) -> bytes:
        chunk = real_read(fd, n)
        if len(sizes) == 0:
            with path.open("ab") as handle:  # grows after the stat
                handle.write(b"more")
        sizes.append(n)
        return chunk

    sizes.clear()
    monkeypatch.setattr(fileio.os, "read", growing_read)
    assert read_regular(path)[0] == data + b"more"
