"""The app as a person runs it: the installed `reme-tui` console script in a real
pseudo-terminal (pexpect), its screen read back through a terminal emulator (pyte).

Rows, each a median over repetitions:

* index ready, cold (no saved index) and warm (second start on the same workspace): from
  spawning the process until the status bar says "index ready" (warm: the saved index is
  shown and searchable while the files are checked for changes), and warm until that
  check is done too;
* keystroke → results painted: with the previous query's results on screen, one more
  character is typed; time until the results pane shows something else. Pairs of queries
  are picked (with the engine, before the app starts) so the last character does change
  the results;
* highlight → preview painted: in the results list, `j` moves the highlight; time until
  the preview pane shows something else;
* for both, the app's own CPU time (all its threads) between the key and the paint: on a
  busy machine the wall time mostly measures waiting for a core, this does not;
* keystroke → results during a burst: the same while 3,000 edited memories are being
  applied (status "updating"), counted only while the update is still under way;
* RSS: the app's resident memory after all of the above, and its peak (/proc/<pid>/status);
* idle CPU: the app's CPU time (its process and children, /proc/<pid>/stat) over 30 s of
  doing nothing after the index is ready, as a share of one core.

Time runs from the write of the key to the pty until the bytes of the first screen update
that shows the change were read back, so it includes the terminal round trip a person sees.
It stops when those bytes arrive, not after pyte has parsed them: pyte spends 15-20 ms of
Python on a 20 KB update that a real terminal draws in well under a millisecond, and that
was a fifth of every keystroke figure before (issue 19).
The saved index and the config live in private dirs under benchmarks/.workspaces/.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

from benchmarks.generate import COMMON

HERE = Path(__file__).parent
WORKSPACES = HERE / ".workspaces"
TERMINAL_SIZES = (10_000, 50_000)
COLUMNS, LINES = 160, 45
READY_TIMEOUT_S = 600.0
PAINT_TIMEOUT_S = 10.0
QUIET_S = 0.6
IDLE_S = float(os.environ.get("BENCH_IDLE_S", "30"))


def console_script() -> Path:
    """The `reme-tui` installed beside this interpreter (what `pip install` puts there)."""
    script = Path(sys.executable).parent / "reme-tui"
    if not script.exists():
        found = shutil.which("reme-tui")
        if found is None:
            raise SystemExit("no reme-tui console script: run `make setup` first")
        script = Path(found)
    return script


class TerminalApp:
    """One running app in a pty, with its screen kept current by pumping its output."""

    def __init__(self, root: Path, home: Path) -> None:
        env = dict(os.environ)
        env.update(
            TERM="xterm-256color",
            COLORTERM="truecolor",
            XDG_CACHE_HOME=str(home / "cache"),
            XDG_CONFIG_HOME=str(home / "config"),
            XDG_DATA_HOME=str(home / "data"),
        )
        env.pop("NO_COLOR", None)
        self.screen = pyte.Screen(COLUMNS, LINES)
        self._stream = pyte.ByteStream(self.screen)
        self.started = time.perf_counter()
        self.arrived = self.started  # when the last bytes read from the app came
        self.child = pexpect.spawn(
            str(console_script()), [str(root)], env=env, dimensions=(LINES, COLUMNS)
        )

    @property
    def pid(self) -> int:
        return int(self.child.pid)

    def pump(self, timeout: float = 0.01) -> bool:
        """Read what the app wrote within `timeout`; True when anything came."""
        try:
            data = self.child.read_nonblocking(1 << 16, timeout=timeout)
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            raise RuntimeError("the app exited:\n" + self.text()) from None
        self.arrived = time.perf_counter()
        self._stream.feed(data)
        return True

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, done: Callable[[], bool], timeout: float, what: str) -> float:
        """Pump until `done()`; the perf_counter time the bytes that made it hold were read
        (now, when it held before anything was read)."""
        deadline = time.perf_counter() + timeout
        at = time.perf_counter()
        while not done():
            if time.perf_counter() > deadline:
                raise TimeoutError(f"timed out waiting for {what}:\n{self.text()}")
            if self.pump():
                at = self.arrived
        return at

    def settle(self, quiet: float = QUIET_S, timeout: float = 60.0) -> None:
        """Pump until the screen's text stays the same for `quiet` seconds (a blinking
        cursor changes only attributes, so it does not count as activity)."""
        deadline = time.perf_counter() + timeout
        last, shown = time.perf_counter(), self.screen.display
        while time.perf_counter() - last < quiet and time.perf_counter() < deadline:
            self.pump(0.02)
            now = self.screen.display
            if now != shown:
                last, shown = time.perf_counter(), now

    def status(self) -> str:
        return self.screen.display[LINES - 2]

    def pane(self, index: int) -> tuple[str, ...]:
        """The text inside the index-th bordered pane of the top row (0 tags, 1 results,
        2 preview), found from the corners of the boxes drawn on the second line."""
        top = self.screen.display[1]
        corners = [i for i, ch in enumerate(top) if ch == "╭"]
        ends = [i for i, ch in enumerate(top) if ch == "╮"]
        if len(corners) <= index or len(ends) <= index:
            return ()
        left, right = corners[index], ends[index]
        return tuple(line[left + 1 : right] for line in self.screen.display[2 : LINES - 2])

    def send(self, keys: str) -> float:
        self.child.send(keys)
        return time.perf_counter()

    def quit(self) -> None:
        if not self.child.isalive():
            return
        self.child.sendcontrol("q")
        deadline = time.perf_counter() + 30
        while self.child.isalive() and time.perf_counter() < deadline:
            try:
                self.child.read_nonblocking(1 << 16, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                break
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close()

    def cpu_ns(self) -> int:
        """CPU time of all the app's threads in nanoseconds (/proc/<pid>/task/*/schedstat):
        fine enough to charge single interactions, unlike the 10 ms clock ticks."""
        total = 0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue  # a thread that just ended
        return total

    def rss_mb(self) -> tuple[float, float]:
        """The app's resident memory now and at its peak (VmRSS, VmHWM), in MB."""
        fields = dict(
            line.split(":", 1)
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
            if ":" in line
        )
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    def cpu_ticks(self) -> int:
        """utime + stime + cutime + cstime of the app, in clock ticks."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(v) for v in fields[11:15])


def _ready(app: TerminalApp) -> bool:
    return "index ready" in app.status()


def _checked(app: TerminalApp) -> bool:
    return _ready(app) and "checking" not in app.status()


def index_ready_seconds(root: Path, home: Path) -> tuple[float, float]:
    """Seconds until the status says "index ready" (on a warm start: the saved index
    shown and searchable, "checking for changes…") and until it is checked as well."""
    app = TerminalApp(root, home)
    try:
        at = app.wait_for(lambda: _ready(app), READY_TIMEOUT_S, "index ready")
        checked = app.wait_for(lambda: _checked(app), READY_TIMEOUT_S, "the check")
        app.settle()  # let a background save after start finish before quitting
        return at - app.started, checked - app.started
    finally:
        app.quit()


def query_pairs(root: Path, count: int, seed: int = 5) -> list[tuple[str, str]]:
    """(typed, next character) pairs whose top results differ before and after the key."""
    from reme_tui.engine import Engine
    from reme_tui.engine.search import SearchQuery

    engine = Engine.open(root)
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for _ in range(count * 50):
        if len(pairs) == count:
            break
        first, second = rng.sample(COMMON, 2)
        full = f"{first} {second}"
        before = [h.path for h in engine.search(SearchQuery(text=full[:-1], limit=20)).hits]
        after = [h.path for h in engine.search(SearchQuery(text=full, limit=20)).hits]
        if before[:8] != after[:8] and (full[:-1], full[-1]) not in pairs:
            pairs.append((full[:-1], full[-1]))
    if not pairs:
        raise RuntimeError(f"no query in {root} changes its results with its last key")
    return pairs


class Timed:
    """Wall times (ms) of interactions, and the app's CPU time (ms) during each."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []


def keystroke_to_results(app: TerminalApp, pairs: list[tuple[str, str]]) -> Timed:
    timed = Timed()
    for typed, key in pairs:  # the search box has the focus from the start
        app.send("\x15")  # ctrl+u: clear the search box
        app.send(typed)
        app.settle()
        before = app.pane(1)
        cpu = app.cpu_ns()
        start = app.send(key)
        painted = app.wait_for(lambda b=before: app.pane(1) != b, PAINT_TIMEOUT_S, "results")
        timed.cpu.append((app.cpu_ns() - cpu) / 1e6)
        timed.wall.append((painted - start) * 1000)
    return timed


def highlight_to_preview(app: TerminalApp, moves: int) -> Timed:
    app.send("\x1b")  # escape: leave the search box for the results list
    app.settle()
    timed = Timed()
    for _ in range(moves):
        before = app.pane(2)
        cpu = app.cpu_ns()
        start = app.send("j")
        painted = app.wait_for(lambda b=before: app.pane(2) != b, PAINT_TIMEOUT_S, "preview")
        timed.cpu.append((app.cpu_ns() - cpu) / 1e6)
        timed.wall.append((painted - start) * 1000)
        app.settle()
    return timed


def keystroke_during_burst(
    app: TerminalApp, root: Path, pairs: list[tuple[str, str]], files: int = 3_000
) -> Timed:
    """Keystroke -> results while a burst of `files` edited memories is being applied (the
    status bar says "updating"): only keys whose paint came before the update ended count."""
    app.send("\x1b")  # out of the results list (sent alone: ESC + "/" reads as alt+/)
    app.settle()
    app.send("/")  # into the search box
    app.settle()
    targets = sorted(root.rglob("*.md"))[:files]
    originals = {t: t.read_bytes() for t in targets}
    timed = Timed()
    try:
        for t in targets:
            t.write_bytes(originals[t].replace(b"\n\n", b"\n\nburst line\n\n", 1))
        app.wait_for(lambda: "updating" in app.status(), PAINT_TIMEOUT_S * 3, "the burst")
        for typed, key in pairs:
            app.send("\x15" + typed)
            app.wait_for(lambda t=typed: t in app.text(), PAINT_TIMEOUT_S, "the typed query")
            before = app.pane(1)
            cpu = app.cpu_ns()
            start = app.send(key)
            painted = app.wait_for(lambda b=before: app.pane(1) != b, PAINT_TIMEOUT_S, "results")
            if "updating" not in app.status():
                break  # the burst had landed: this paint may be the update's, not the key's
            timed.cpu.append((app.cpu_ns() - cpu) / 1e6)
            timed.wall.append((painted - start) * 1000)
    finally:
        for t, data in originals.items():
            t.write_bytes(data)
    app.wait_for(lambda: "updating" not in app.status(), READY_TIMEOUT_S, "the burst to end")
    return timed


def idle_cpu_percent(app: TerminalApp, seconds: float = IDLE_S) -> float:
    app.settle(quiet=2.0)
    ticks, start = app.cpu_ticks(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        app.pump(0.1)
    used = (app.cpu_ticks() - ticks) / os.sysconf("SC_CLK_TCK")
    return used / (time.perf_counter() - start) * 100


def terminal_rows(
    root: Path, size: int, repeats: int = 3, interact: bool = True
) -> dict[str, float]:
    """Every real-terminal row for one workspace (private cache and config dirs)."""
    home = WORKSPACES / f"terminal-home-{size}"
    colds, warms, checked = [], [], []
    for _ in range(1 if size >= 50_000 else repeats):  # a cold start at 50k takes minutes
        shutil.rmtree(home, ignore_errors=True)
        colds.append(index_ready_seconds(root, home)[0])
        warm, warm_checked = index_ready_seconds(root, home)
        warms.append(warm)
        checked.append(warm_checked)
    rows = {
        "app (terminal) index ready, cold (s)": statistics.median(colds),
        "app (terminal) index ready, warm (s)": statistics.median(warms),
        "app (terminal) ... warm, files checked too (s)": statistics.median(checked),
    }
    if not interact:
        return rows
    pairs = query_pairs(root, 12)
    app = TerminalApp(root, home)
    try:
        app.wait_for(lambda: _checked(app), READY_TIMEOUT_S, "index ready and checked")
        app.settle()
        keys = keystroke_to_results(app, pairs)
        previews = highlight_to_preview(app, 15)
        idle = idle_cpu_percent(app)
        during = keystroke_during_burst(app, root, pairs * 4)
        resident, peak = app.rss_mb()
    finally:
        app.quit()
    rows["app (terminal) keystroke to results p50 (ms)"] = statistics.median(keys.wall)
    rows["app (terminal) app CPU in keystroke to results p50 (ms)"] = statistics.median(keys.cpu)
    rows["app (terminal) highlight to preview p50 (ms)"] = statistics.median(previews.wall)
    rows["app (terminal) app CPU in highlight to preview p50 (ms)"] = statistics.median(
        previews.cpu
    )
    rows["app (terminal) idle CPU over 30 s (%)"] = idle
    if during.wall:
        rows["app (terminal) keystroke to results during a 3,000-file burst p50 (ms)"] = (
            statistics.median(during.wall)
        )
        rows["app (terminal) ... during the burst, max (ms)"] = max(during.wall)
        rows["app (terminal) ... during the burst, app CPU p50 (ms)"] = statistics.median(
            during.cpu
        )
        rows["app (terminal) ... during the burst, keys measured"] = len(during.wall)
    rows["app (terminal) RSS after the session (MB)"] = resident
    rows["app (terminal) peak RSS over the session (MB)"] = peak
    return rows
