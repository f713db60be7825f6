"""The standby loader pool: forked before any thread, used by a build that runs in one.

Forking needs a process with one thread, which a pytest process full of earlier tests may
not be, so the real pool is exercised in a fresh interpreter."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import loader, standby
from tests.helpers import memory, write_workspace

REPO = Path(__file__).resolve().parents[2]

FILES = {
    f"daily/2026-03-{day:02d}/note-{i}.md": memory(
        f"Atlas budget note {i} of day {day}, see [[digest/wiki/atlas.md]].\n",
        name=f"Note {i}",
        tags=["alice", f"topic_{i % 3}"],
    )
    for day in range(1, 6)
    for i in range(4)
} | {"digest/wiki/atlas.md": memory("# Atlas\n\nThe atlas budget.\n", tags=["project_atlas"])}

BUILD_IN_A_THREAD = """
import json, os, sys, threading
from pathlib import Path
from reme_tui.engine.engine import Engine
from reme_tui.engine.index import loader, standby

loader.PARALLEL_MIN_FILES = 1
loader.BATCH_SIZE = 3
root = Path(sys.argv[1])
forked = loader.fork_pool_for_threads()
pool = standby.standby_pool()
workers = sorted(pool.executor._processes) if pool else []
seen = {}
def build():
    seen["fingerprint"] = Engine.open(root).fingerprint()
thread = threading.Thread(target=build)
thread.start()
thread.join()
os.environ["REME_TUI_WORKERS"] = "1"
serial = Engine.open(root).fingerprint()
print(json.dumps({
    "forked": forked,
    "workers": workers,
    "parent": os.getpid(),
    "standby_builds": loader.standby_builds,
    "equal_to_serial": seen["fingerprint"] == serial,
}))
"""


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REME_TUI_WORKERS="2", PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_build_in_a_thread_parses_in_the_forked_pool_and_equals_a_serial_build(
    tmp_path: Path,
) -> None:
    write_workspace(tmp_path, FILES)
    done = run_python(BUILD_IN_A_THREAD, str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["forked"] is True
    assert len(report["workers"]) == 2 and report["parent"] not in report["workers"]
    assert report["standby_builds"] == 1
    assert report["equal_to_serial"] is True


BURST_IN_A_THREAD = """
import json, os, sys, threading
from pathlib import Path
from reme_tui.engine.engine import Engine
from reme_tui.engine.index import loader

loader.REREAD_POOL_MIN = 1
loader.BATCH_SIZE = 3
root = Path(sys.argv[1])
forked = loader.fork_pool_for_threads()
engine = Engine.open(root)
paths = sorted(root.rglob("*.md"))
for n, path in enumerate(paths):
    data = path.read_bytes()
    if n % 2:
        path.write_bytes(data + b"\\nburst line\\n")  # new content
    else:
        os.utime(path, ns=(10**18 + n, 10**18 + n))  # the stat alone moves
thread = threading.Thread(target=lambda: engine.apply(paths))
thread.start()
thread.join()
os.environ["REME_TUI_WORKERS"] = "1"
rebuilt = Engine.open(root)
state = engine._state
print(json.dumps({
    "forked": forked,
    "standby_bursts": loader.standby_bursts,
    "equal_to_rebuild": engine.fingerprint() == rebuilt.fingerprint(),
    "stats_current": all(
        state.memories[str(p.relative_to(root))].mtime_ns == p.stat().st_mtime_ns for p in paths
    ),
}))
"""


def test_a_burst_applied_in_a_thread_is_read_in_the_forked_pool(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    done = run_python(BURST_IN_A_THREAD, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "forked": True,
        "standby_bursts": 1,
        "equal_to_rebuild": True,
        "stats_current": True,
    }


def test_workers_exit_when_their_parent_is_killed(tmp_path: Path) -> None:
    code = """
    import json, os, signal
    from reme_tui.engine.index import loader, standby
    loader.fork_pool_for_threads()
    print(json.dumps(sorted(standby.standby_pool().executor._processes)), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
    done = run_python(code)
    workers = json.loads(done.stdout)
    assert len(workers) == 2
    deadline = time.monotonic() + 30  # they poll their parent once a second
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[-1][0] != "Z"
    except FileNotFoundError:
        return False


def test_no_pool_is_forked_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert standby.fork_standby_pool(2) is False
    assert standby.standby_pool() is None


def test_no_pool_for_one_worker() -> None:
    assert standby.fork_standby_pool(1) is False
    assert standby.standby_pool() is None


class BrokenExecutor:
    def submit(self, *args: object, **kwargs: object) -> object:
        raise BrokenProcessPool("a worker died")


def test_a_broken_standby_pool_is_dropped_and_the_build_finishes_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_workspace(tmp_path, FILES)
    serial = Engine.open(tmp_path).fingerprint()
    dropped: list[bool] = []
    broken = standby.StandbyPool(BrokenExecutor(), 2)  # type: ignore[arg-type]
    monkeypatch.setattr(loader, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(loader, "standby_pool", lambda: broken)
    monkeypatch.setattr(loader, "drop_standby_pool", lambda: dropped.append(True))
    seen: dict[str, object] = {}
    thread = threading.Thread(target=lambda: seen.update(built=Engine.open(tmp_path)))
    thread.start()
    thread.join()
    built = seen["built"]
    assert isinstance(built, Engine) and built.fingerprint() == serial
    assert dropped == [True]


# A headless build's own pool, interrupted while a worker is stuck in its batch: the worker
# blocks reading a FIFO the test opens only after it has seen (or given up on) the interrupt.
INTERRUPTED_BUILD = """
import os, sys
from pathlib import Path
from reme_tui.engine.files import FoundFile
from reme_tui.engine.index import loader

fifo, folder = sys.argv[1], Path(sys.argv[2])
load_batch = loader._load_batch

def blocking_batch(batch, tag_field, max_file_bytes):
    if any(item.rel == "blocked.md" for item in batch):
        with open(fifo) as pipe:
            pipe.read()
    return load_batch(batch, tag_field, max_file_bytes)

def interrupt(done, total):
    raise KeyboardInterrupt

loader._load_batch = blocking_batch
loader.BATCH_SIZE = 1
os.environ[loader.WORKERS_ENV] = "2"
items = [FoundFile(name, folder / name) for name in ("a.md", "blocked.md", "b.md")]
try:
    for _ in loader.load_all(items, tag_field="t", max_file_bytes=10_000, progress=interrupt):
        pass
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_an_interrupted_build_does_not_wait_for_the_batches_in_flight(tmp_path: Path) -> None:
    # Issue 26: Ctrl-C/SIGTERM to a cold `--follow` on 10,000 files took up to 8 s to exit.
    import select

    for name in ("a.md", "blocked.md", "b.md"):
        (tmp_path / name).write_text(memory("body\n", tags=["t"]), "utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_BUILD, str(fifo), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    try:
        # Before the fix nothing comes until the FIFO is opened below: the pool waited.
        readable, _, _ = select.select([proc.stdout], [], [], 60)
        interrupted_first = bool(readable)
    finally:
        with contextlib.suppress(OSError):  # release the stuck worker, if it is still there
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        out, err = proc.communicate(timeout=60)
    assert interrupted_first, err
    assert out == "interrupted\n" and proc.returncode == 0, err
