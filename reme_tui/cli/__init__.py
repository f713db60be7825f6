"""Command line: the app by default; `reme-tui COMMAND` prints and exits without importing
the UI.

Layout: `table.py` is the one table of commands and flags (it drives the parsers, the help
and the refusals), `parser.py` builds a command's parser from it, `dispatch.py` picks the
command (or an old mode flag, `legacy.py`), `entry.py` runs it and maps errors to exit
codes, `output.py` formats, `opening.py` opens the index, and one module per family of
commands runs them.

Exit codes: 0 success (also with zero results), 1 runtime errors (missing or unreadable
workspace, I/O failures), 2 usage errors (bad flags, a flag the mode does not use, invalid
dates, tags that normalize to nothing, no terminal for the app).
"""

from __future__ import annotations

from collections.abc import Sequence

from reme_tui.cli import signals

__all__ = ["main", "run"]


def run() -> int:
    """The console script (and `python -m reme_tui`). Everything heavy is imported inside,
    after SIGTERM is taken over and within reach of the interrupt handler: a Ctrl-C while
    the modules load (a second or more on a busy machine) exits 130 without a traceback."""
    signals.treat_sigterm_as_interrupt()
    try:
        from reme_tui.cli.entry import run as run_entry

        return run_entry()
    except KeyboardInterrupt as interrupt:
        return signals.exit_code(interrupt)
    finally:
        signals.die_quietly_from_now_on()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: sys.argv), run the mode it asks for; returns the exit code."""
    from reme_tui.cli.entry import main as main_entry

    return main_entry(argv)
