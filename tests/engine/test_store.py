"""The saved index: warm starts equal a rebuild; anything wrong with it means a rebuild."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine, EngineConfig
from reme_tui.engine.index.store import STORE_VERSION, IndexStore, StoreInvalid
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


# -- a hostile saved index (issue 11): data, never code; regular files only; ours only --


def _entry(payload: bytes, version: int = STORE_VERSION) -> bytes:
    import hashlib

    return (
        b"REMETUI-INDEX\n" + version.to_bytes(4, "big") + hashlib.sha256(payload).digest() + payload
    )


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("touch pwned",))


@pytest.mark.parametrize("version", [1, 2, STORE_VERSION])
def test_planted_pickle_never_runs(tmp_path: Path, version: int) -> None:
    import pickle

    write_workspace(tmp_path / "ws", FILES)
    root = tmp_path / "ws"
    cold = open_with_store(root)
    marker = tmp_path / "pwned"
    store = IndexStore(root)
    store.path.write_bytes(_entry(pickle.dumps(_Boom()), version))
    notices: list[str] = []
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        again = open_with_store(root, notices)
    finally:
        os.chdir(cwd)
    assert not marker.exists()
    assert len(notices) == 1 and "rebuilding" in notices[0]
    assert again.fingerprint() == cold.fingerprint()


def test_well_formed_but_inconsistent_index_is_rebuilt(tmp_path: Path) -> None:
    import msgspec

    from reme_tui.engine.index import store as store_module

    write_workspace(tmp_path, FILES)
    cold = open_with_store(tmp_path)
    good = store_module._loads(IndexStore(tmp_path).path.read_bytes()[50:])
    good.keyword_state["doc_len"] = good.keyword_state["doc_len"][:1]  # breaks the CSR
    IndexStore(tmp_path).path.write_bytes(_entry(store_module._dumps(good)))
    notices: list[str] = []
    assert open_with_store(tmp_path, notices).fingerprint() == cold.fingerprint()
    assert "rebuilding" in notices[0]
    # Wrong types inside a record are refused by the typed decoder.
    bad = msgspec.msgpack.encode(["k", 1, [{"path": 5}], {}, {}])
    IndexStore(tmp_path).path.write_bytes(_entry(bad))
    notices.clear()
    assert open_with_store(tmp_path, notices).fingerprint() == cold.fingerprint()
    assert "unexpected layout" in notices[0]


@pytest.mark.parametrize("kind", ["fifo", "zero", "urandom", "directory"])
def test_index_that_is_not_a_regular_file_never_hangs(tmp_path: Path, kind: str) -> None:
    write_workspace(tmp_path, FILES)
    cold = open_with_store(tmp_path)
    path = IndexStore(tmp_path).path
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to(f"/dev/{kind}")
    notices: list[str] = []
    engine = Engine.open(tmp_path, store=IndexStore(tmp_path), notice=notices.append)
    assert engine.fingerprint() == cold.fingerprint()
    assert "not a regular file" in notices[0]


def test_index_of_another_owner_or_writable_by_others_is_ignored(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    open_with_store(tmp_path)
    path = IndexStore(tmp_path).path
    path.chmod(0o666)
    with pytest.raises(StoreInvalid, match="writable by other users"):
        IndexStore(tmp_path).load("x")
    path.chmod(0o600)
    if os.geteuid() == 0:
        os.chown(path, 4321, 4321)
        with pytest.raises(StoreInvalid, match="another user"):
            IndexStore(tmp_path).load("x")


def test_cache_dirs_are_private(tmp_path: Path, isolated_user_dirs: Path) -> None:
    import stat

    write_workspace(tmp_path, FILES)
    open_with_store(tmp_path)
    store = IndexStore(tmp_path)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    for directory in (store.directory, store.directory.parent, store.base):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory


def test_warm_start_rereads_a_file_replaced_with_equal_size_and_mtime(tmp_path: Path) -> None:
    """cp -p / rsync -t of another workspace: same sizes and mtimes, other content."""
    write_workspace(tmp_path, {"digest/a.md": memory("alpha budget\n", tags=["old"])})
    age_files(tmp_path)
    open_with_store(tmp_path)
    path = tmp_path / "digest/a.md"
    st = path.stat()
    replacement = tmp_path / "digest" / ".a.md.new"
    replacement.write_text(memory("gamma budget\n", tags=["new"]))
    assert replacement.stat().st_size == st.st_size
    os.utime(replacement, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(replacement, path)
    warm = open_with_store(tmp_path)
    assert warm.tags_of("digest/a.md") == ("new",)


def test_index_is_saved_when_the_cache_home_does_not_exist_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh" / "cache"))
    write_workspace(tmp_path / "ws", FILES)
    open_with_store(tmp_path / "ws")
    assert IndexStore(tmp_path / "ws").path.is_file()


def test_a_failed_save_is_reported_not_swallowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ws" / "daily").mkdir(parents=True)
    (tmp_path / "ws" / "daily" / "2026-01-01.md").write_text("budget\n", encoding="utf-8")
    store = IndexStore(tmp_path / "ws", cache_dir=tmp_path / "cache")

    def disk_full(_snapshot: object) -> bool:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "save", disk_full)
    engine = Engine.create(tmp_path / "ws")
    engine.attach_store(store)
    notices: list[str] = []
    engine.build(notice=notices.append)
    assert engine.save_error is not None and "No space left on device" in engine.save_error
    assert notices == [engine.save_error]
    monkeypatch.undo()
    assert engine.save() and engine.save_error is None


def test_a_bad_worker_setting_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "daily").mkdir()
    (tmp_path / "daily" / "2026-01-01.md").write_text("budget\n", encoding="utf-8")
    notices: list[str] = []
    monkeypatch.setenv("REME_TUI_WORKERS", "many")
    Engine.create(tmp_path).build(notice=notices.append)
    monkeypatch.setenv("REME_TUI_WORKERS", "0")
    Engine.create(tmp_path).build(notice=notices.append)
    monkeypatch.setenv("REME_TUI_WORKERS", "2")
    Engine.create(tmp_path).build(notice=notices.append)
    assert len(notices) == 2
    assert "'many' is not a number" in notices[0] and "below 1" in notices[1]


def test_warm_start_with_a_chunk_without_tokens_is_used_not_rebuilt(tmp_path: Path) -> None:
    """'Hello.' is all stopwords: its chunk has no keyword entry, which is consistent."""
    write_workspace(tmp_path, FILES | {"daily/2026-01-01/a.md": "---\nname: n\n---\nHello.\n"})
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    notices: list[str] = []
    warm = open_with_store(tmp_path, notices)
    assert notices == [] and warm.fingerprint() == cold.fingerprint()


NOTE_WITH_DATES = """---
name: Dated
description: has every YAML date shape
created: 2026-03-01 10:00:00
day: 2026-03-01
at: 2026-03-01T10:00:00.250+02:00
seen: [2026-03-02, 3, x, {when: 2026-03-03 08:30:00}]
keyed: {2026-03-04: planning}
---
body
"""


def test_frontmatter_dates_come_back_from_the_saved_index_as_dates(tmp_path: Path) -> None:
    """A warm start must hand ReMe's checks the same values as a cold one: a datetime
    that came back as ISO text rendered `2026-03-01T10:00:00` where ReMe's day-index page
    says `2026-03-01 10:00:00`, and the entry was reported stale after every warm start."""
    from reme_tui.engine.reme.day_index import render_entry

    note = "daily/2026-03-01/dated.md"
    write_workspace(tmp_path, {note: NOTE_WITH_DATES})
    cold_memory = Engine.open(tmp_path).memory(note)  # no saved index involved
    assert cold_memory is not None
    page = f"# 2026-03-01\n\n<!-- notes:auto -->\n{render_entry(note, cold_memory.frontmatter)}\n"
    write_workspace(tmp_path, {"daily/2026-03-01.md": page + "<!-- /notes:auto -->\n"})
    age_files(tmp_path)
    cold = open_with_store(tmp_path)
    assert cold.stale_day_index("daily/2026-03-01.md") == []
    warm = open_with_store(tmp_path)
    warm_memory = warm.memory(note)
    assert warm_memory is not None
    assert warm_memory.frontmatter == cold_memory.frontmatter
    assert repr(warm_memory.frontmatter) == repr(cold_memory.frontmatter)  # types, tz too
    assert warm.stale_day_index("daily/2026-03-01.md") == []


@pytest.mark.parametrize(
    ("code", "body"),
    [(2, b"2026-13-45"), (3, b"\xff\xfe"), (4, b"\x91\x92\x90\x01")],  # [[[], 1]]: list key
)
def test_a_malformed_date_in_the_saved_index_is_refused(code: int, body: bytes) -> None:
    import msgspec

    from reme_tui.engine.index.store import _decode_ext

    with pytest.raises((ValueError, TypeError, msgspec.DecodeError)):
        _decode_ext(code, memoryview(body))


def test_every_fingerprinted_module_exists_and_is_loaded_by_a_build() -> None:
    """The fingerprint names modules; each must exist (a moved file would otherwise stop
    invalidating saved indexes), and each must be code a build actually runs."""
    from reme_tui.engine.index.store import FINGERPRINTED_MODULES, fingerprinted_sources

    for name, source in fingerprinted_sources():
        assert source.is_file(), f"{name} is fingerprinted but does not exist"
    Engine.open(Path(__file__).parents[2] / "sample_workspace")
    assert set(FINGERPRINTED_MODULES) <= set(sys.modules)


def test_temp_files_of_a_killed_save_are_removed_by_the_next_save(
    tmp_path: Path, isolated_user_dirs: Path
) -> None:
    """Issue 26: kill -9 during a save left .index-XXXX files (up to the index's size each)
    that nothing removed. The next save, under the write lock, removes them."""
    write_workspace(tmp_path, FILES)
    open_with_store(tmp_path)
    store = IndexStore(tmp_path)
    for i in range(7):  # what seven killed saves leave
        (store.directory / f".index-killed{i}").write_bytes(b"x" * 1000)
    (store.directory / "unrelated").write_bytes(b"kept")
    assert open_with_store(tmp_path).save()
    assert sorted(p.name for p in store.directory.iterdir()) == [
        "index.bin",
        "index.lock",
        "unrelated",
    ]


@pytest.mark.parametrize("where", ["workspace folder", "cache base"])
def test_a_symlinked_cache_folder_is_refused_not_followed(
    tmp_path: Path, isolated_user_dirs: Path, where: str
) -> None:
    """Issue 26: indexes/<key> or reme-tui/ planted as a symlink was followed: its target
    chmod'ed 0700 and written into. The save is refused and reported; the target untouched."""
    import stat

    ws = write_workspace(tmp_path / "ws", FILES)
    store = IndexStore(ws)
    target = tmp_path / "target"
    target.mkdir(mode=0o755)
    target.chmod(0o755)
    link = store.directory if where == "workspace folder" else store.base
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    engine = open_with_store(ws)
    assert engine.save_error is not None and "symlink" in engine.save_error
    assert list(target.iterdir()) == [] and stat.S_IMODE(target.stat().st_mode) == 0o755


def test_a_save_holds_the_index_lock_only_to_capture_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 50,000 memories working out the saved postings took 0.5-3 s; under the lock, a
    search typed meanwhile waited for all of it (issue 19). A search may now run while
    the snapshot is made, and an update made then is not in it."""
    import threading

    from reme_tui.engine.index import keyword

    write_workspace(tmp_path, FILES)
    age_files(tmp_path)
    engine = open_with_store(tmp_path)
    free_while_exporting: list[bool] = []
    real = keyword._csr_of

    def exporting(*args: object) -> dict[str, object]:
        def try_the_lock() -> None:
            free = engine._lock.acquire(blocking=False)
            if free:
                engine._lock.release()
            free_while_exporting.append(free)

        other = threading.Thread(target=try_the_lock)
        other.start()
        other.join()
        write_workspace(tmp_path, {"digest/wiki/late.md": memory("late budget\n")})
        engine.apply(["digest/wiki/late.md"])  # while the snapshot is being made
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(keyword, "_csr_of", exporting)
    assert engine.save()
    monkeypatch.setattr(keyword, "_csr_of", real)
    assert free_while_exporting == [True]
    assert engine.memory("digest/wiki/late.md") is not None
    saved = IndexStore(tmp_path).load(engine._config_key())
    assert "digest/wiki/late.md" not in {m.path for m in saved.memories}
    warm = open_with_store(tmp_path)
    assert warm.fingerprint() == engine.fingerprint()  # the late file, read again at start
