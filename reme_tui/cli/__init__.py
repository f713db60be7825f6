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

from reme_tui.cli.entry import main, run

__all__ = ["main", "run"]
