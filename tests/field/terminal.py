"""Drive a program in a real pseudo-terminal (pexpect) and read its screen (pyte)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

COLUMNS, LINES = 120, 36


# Every program started here, so a test that fails half-way leaves no app running (an
# orphan blocked on a full pty would hold its files and slow every later test).
_STARTED: list[Terminal] = []


def stop_all() -> None:
    while _STARTED:
        terminal = _STARTED.pop()
        if terminal.child.isalive():
            terminal.child.terminate(force=True)
        with contextlib.suppress(OSError):
            terminal.child.close(force=True)


class Terminal:
    def __init__(
        self,
        program: Path,
        args: list[str],
        env: dict[str, str],
        cwd: Path,
        *,
        columns: int = COLUMNS,
        lines: int = LINES,
    ) -> None:
        env = {**env, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        self.lines = lines
        self.screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            str(program), args, env=env, cwd=str(cwd), dimensions=(lines, columns)
        )
        self.transcript = bytearray()
        _STARTED.append(self)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def status(self) -> str:
        """The status bar: the line above the footer."""
        return self.screen.display[self.lines - 2]

    def pump(self, timeout: float = 0.05) -> None:
        try:
            data = self.child.read_nonblocking(1 << 16, timeout=timeout)
        except pexpect.TIMEOUT:
            return
        except pexpect.EOF:
            raise AssertionError(f"the app exited early:\n{self.ending()}") from None
        self.transcript += data
        self._stream.feed(data)

    def wait_for(self, done: Callable[[], bool], what: str, timeout: float = 300) -> None:
        """Generous timeouts only so a broken build cannot hang CI; nothing is timed."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} after {timeout} s:\n{self.text()}")
            self.pump()

    def type(self, text: str) -> None:
        self.child.send(text)

    def quit(self, timeout: float = 60) -> int:
        """Ctrl+Q, then the exit status once the process is gone."""
        self.child.sendcontrol("q")
        deadline = time.monotonic() + timeout
        while self.child.isalive() and time.monotonic() < deadline:
            with contextlib.suppress(pexpect.TIMEOUT, pexpect.EOF):
                self.transcript += self.child.read_nonblocking(1 << 16, timeout=0.1)
        if self.child.isalive():
            self.child.terminate(force=True)
            raise AssertionError(f"the app did not quit:\n{self.text()}")
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def ending(self) -> str:
        with contextlib.suppress(pexpect.TIMEOUT, pexpect.EOF):
            self.transcript += self.child.read_nonblocking(1 << 16, timeout=1)
        return self.transcript[-3000:].decode("utf-8", "replace")

    def colours(self) -> set[str]:
        """Every background colour on the screen (pyte: hex for truecolor)."""
        return {char.bg for row in self.screen.buffer.values() for char in row.values()}
