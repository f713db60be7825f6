"""Command line: the app by default; headless modes print and exit without importing the UI.

Layout: `table.py` is the one table of modes and flags (it drives both the parser and the
refusals), `entry.py` parses, picks the mode and maps errors to exit codes, `output.py`
formats, `opening.py` opens the index, and one module per family of modes runs them.

Exit codes: 0 success (also with zero results), 1 runtime errors (missing or unreadable
workspace, I/O failures), 2 usage errors (bad flags, a flag the mode does not use, invalid
dates, tags that normalize to nothing, no terminal for the app).
"""

from reme_tui.cli.entry import main, run

__all__ = ["main", "run"]
