"""Ctrl-C and SIGTERM end reme-tui the same quiet way, wherever they land.

Both become a ``KeyboardInterrupt`` in the main thread (SIGTERM as its subclass
``Terminated``), so every ``finally`` runs and modes that save on the way out
(``--follow``) save; the default SIGTERM action killed the process at once. The
console script enters through here before the heavy imports, so an interrupt while
they load ends the process with 130/143 instead of an import traceback. This module
imports nothing of reme-tui's: it must load in an instant.
"""

from __future__ import annotations

import signal
from types import FrameType

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process Ctrl-C stopped
EXIT_TERMINATED = 143  # 128 + SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where it lands as Ctrl-C's KeyboardInterrupt is."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def treat_sigterm_as_interrupt() -> None:
    """SIGTERM raises ``Terminated``; a SIGTERM the parent set to be ignored stays ignored."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_terminated)


def exit_code(interrupt: KeyboardInterrupt) -> int:
    return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED


def die_quietly_from_now_on() -> None:
    """Once reme-tui has finished, a late Ctrl-C or SIGTERM (while the interpreter joins
    worker threads and processes on its way out) ends it by the signal's default action,
    silently, instead of 'Exception ignored ... KeyboardInterrupt'."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
