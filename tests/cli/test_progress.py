"""Progress on stderr: a rich bar on a terminal; elsewhere one plain line at the delay, then
one every few seconds, and a last line when the work ends. Driven by a hand-set clock:
nothing sleeps, nothing depends on how fast this machine is."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from reme_tui.cli import main
from reme_tui.cli.progress import DELAY_ENV, Progress, delay_from_env
from tests.helpers import memory, write_workspace


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_not_a_terminal_one_line_every_few_seconds() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, delay=1.0, every=5.0, clock=clock)
    clock.now = 100.5
    progress.update(10, 1000)  # before the delay: quiet
    assert stream.getvalue() == ""
    clock.now = 102.0
    progress.update(200, 1000)
    assert stream.getvalue() == (
        "reme-tui: indexing 200/1,000 memories (20%, 100/s, about 8 s left)\n"
    )
    for now, done in ((103.0, 300), (106.9, 690)):  # within 5 s of that line: nothing new
        clock.now = now
        progress.update(done, 1000)
    assert len(stream.getvalue().splitlines()) == 1
    clock.now = 107.0
    progress.update(700, 1000)
    clock.now = 110.0
    progress.update(1000, 1000)
    progress.finish()
    assert stream.getvalue().splitlines()[1:] == [
        "reme-tui: indexing 700/1,000 memories (70%, 100/s, about 3 s left)",
        "reme-tui: indexing done: 1,000 memories in 10 s",
    ]
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()


def test_short_work_prints_nothing() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, label="embedding", unit="chunks", clock=clock)
    clock.now = 100.9
    progress.update(50, 50)
    progress.finish()
    assert stream.getvalue() == ""


def test_on_a_terminal_a_rich_bar_with_count_and_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    clock, stream = Clock(), Tty()
    progress = Progress(stream, delay=1.0, clock=clock)
    clock.now = 102.0
    progress.update(400, 1000)
    progress.update(500, 1000)
    progress.finish()
    written = stream.getvalue()
    assert "indexing" in written and "500/1000" in written and "memories" in written
    assert "reme-tui: indexing" not in written  # the bar, not the log lines


def test_a_terminal_that_is_dumb_gets_the_plain_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    clock, stream = Clock(), Tty()
    progress = Progress(stream, delay=1.0, clock=clock)
    clock.now = 102.0
    progress.update(400, 1000)
    assert stream.getvalue().startswith("reme-tui: indexing 400/1,000 memories (40%")


@pytest.mark.parametrize(("value", "delay"), [(None, 1.0), ("0", 0.0), ("2.5", 2.5),
                                              ("soon", 1.0), ("-1", 1.0)])  # fmt: skip
def test_delay_from_env(monkeypatch: pytest.MonkeyPatch, value: str | None, delay: float) -> None:
    if value is None:
        monkeypatch.delenv(DELAY_ENV, raising=False)
    else:
        monkeypatch.setenv(DELAY_ENV, value)
    assert delay_from_env() == delay


def test_a_cold_build_in_a_pipe_says_how_far_it_got(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command end to end, stderr not a terminal, the delay 0: lines on stderr, stdout
    holds the results only."""
    monkeypatch.setenv(DELAY_ENV, "0")
    files = {f"daily/2026-03-{day:02d}.md": memory(f"day {day}\n") for day in range(1, 29)}
    workspace = write_workspace(tmp_path / "ws", files)
    assert not sys.stderr.isatty()
    code = main(["list", str(workspace), "--paths", "--no-cache"])
    out, err = capsys.readouterr()
    assert code == 0 and len(out.splitlines()) == 28
    lines = err.splitlines()
    assert lines[0].startswith("reme-tui: indexing ") and "/28 memories (" in lines[0]
    assert "reme-tui: indexing done: 28 memories in " in err
