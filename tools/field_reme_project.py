"""Field test (issue 13): the built wheel, installed outside the checkout, on a ReMe project.

    .venv/bin/python tools/field_reme_project.py

Builds the wheel, installs it into a fresh venv in a temporary folder (dependencies from
the package index), copies `sample_reme_project/` there too, and then, from inside that copy:

1. `reme-tui --list-tags` finds `.reme`, says so on stderr and lists ReMe's tags;
2. `reme-tui --fix-tags --dry-run` prints the junk-tag diffs and writes nothing;
3. `reme-tui` (no argument) opens the app in a real pseudo-terminal (pexpect), its screen read
   back through a terminal emulator (pyte): the status bar names `project/.reme`, the index
   gets ready, a search shows a ReMe-written note, Ctrl+Q quits with exit code 0.

Prints one line per check and exits non-zero on the first failure. Not timed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

REPO = Path(__file__).resolve().parent.parent
COLUMNS, LINES = 140, 40
TIMEOUT_S = 120.0


def _check(label: str, ok: bool, detail: str = "") -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {label}")
    if not ok:
        print(detail)
        raise SystemExit(1)


def _install(tmp: Path) -> Path:
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO)],
        check=True,
    )
    [wheel] = dist.glob("reme_tui-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True)
    return venv / "bin" / "reme-tui"


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp / "home" / name.lower())
    env.pop("NO_COLOR", None)
    env.update(TERM="xterm-256color", COLORTERM="truecolor")
    return env


def _screen_text(screen: pyte.Screen) -> str:
    return "\n".join(screen.display)


def _wait(child: pexpect.spawn, stream: pyte.ByteStream, test: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        if test():
            return True
        try:
            stream.feed(child.read_nonblocking(65536, timeout=0.2))
        except pexpect.TIMEOUT:
            continue
        except pexpect.EOF:
            return test()
    return test()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="reme-tui-field-") as name:
        tmp = Path(name)
        script = _install(tmp)
        project = tmp / "project"
        shutil.copytree(REPO / "sample_reme_project", project)
        env = _env(tmp)
        before = {p: p.read_bytes() for p in (project / ".reme").rglob("*.md")}

        done = subprocess.run(
            [str(script), "--list-tags"], cwd=project, env=env, capture_output=True, text=True
        )
        _check("--list-tags exits 0", done.returncode == 0, done.stderr)
        _check(
            "--list-tags finds .reme and says so",
            f"workspace {project / '.reme'} (found .reme here)" in done.stderr,
            done.stderr,
        )
        _check(
            "--list-tags lists ReMe's tags",
            done.stdout.split("\n")[0].split() == ["5", "project_orbit"]
            and "openai,_gold" in done.stdout,
            done.stdout,
        )

        done = subprocess.run(
            [str(script), "--fix-tags", "--dry-run"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
        )
        _check("--fix-tags --dry-run prints diffs", "+- gold" in done.stdout, done.stdout)
        unchanged = {p: p.read_bytes() for p in (project / ".reme").rglob("*.md")} == before
        _check("--fix-tags --dry-run writes nothing", unchanged)

        screen = pyte.Screen(COLUMNS, LINES)
        stream = pyte.ByteStream(screen)
        child = pexpect.spawn(
            str(script), [], cwd=str(project), env=env, dimensions=(LINES, COLUMNS)
        )
        try:
            shown = _wait(child, stream, lambda: "project/.reme" in _screen_text(screen))
            _check("the app names project/.reme", shown, _screen_text(screen))
            ready = _wait(child, stream, lambda: "index ready" in _screen_text(screen))
            _check("the index gets ready", ready, _screen_text(screen))
            child.send("cookie")
            found = _wait(child, stream, lambda: "login-bug-triage" in _screen_text(screen))
            _check("a search finds a ReMe-written note", found, _screen_text(screen))
            child.sendcontrol("q")
            child.expect(pexpect.EOF, timeout=TIMEOUT_S)
        finally:
            child.close()
        _check("Ctrl+Q quits with exit code 0", child.exitstatus == 0, str(child.exitstatus))


if __name__ == "__main__":
    main()
