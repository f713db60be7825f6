"""Exit codes, the usage error, and the one-line messages every mode writes to stderr
(escaped: they quote paths, tags and file contents)."""

from __future__ import annotations

import sys

from reme_tui.safe_text import for_terminal

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_FINDINGS = 3  # diagnostics --fail-on: a problem at least that severe


class UsageError(Exception):
    """Bad input from the command line: reported with exit code 2."""


def info(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"reme-tui: {for_terminal(message)}\n")


def warn(message: str) -> None:
    sys.stdout.flush()
    sys.stderr.write(f"reme-tui: warning: {for_terminal(message)}\n")


def error(message: str) -> None:
    sys.stderr.write(f"reme-tui: error: {for_terminal(message)}\n")
