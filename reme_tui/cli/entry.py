"""`reme-tui`: parse, pick the one mode the arguments ask for, run it, map errors to exit codes."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from reme_tui import __version__
from reme_tui.cli import signals
from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, UsageError, error
from reme_tui.cli.dispatch import parse_command_line
from reme_tui.engine import WorkspaceError  # engine/errors.py alone: --help loads no engine


def run() -> int:
    """The console script (and `python -m reme_tui`): this process is reme-tui's own, so
    the index a build makes is frozen out of the garbage collector's way (see
    engine/index/collector.py; `main` alone, as tests call it, leaves the collector as it is)."""
    return main(own_process=True)


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, mode = parse_command_line(argv, __version__)
        if mode.workspace != "none":
            # Only now, with a command that opens a workspace: --help, --version, config
            # and completion import no engine.
            from reme_tui.cli.reme import choose_workspace
            from reme_tui.engine.index import freeze_after_builds

            if own_process:
                freeze_after_builds()
            choose_workspace(args, headless=mode.headless)
        return mode.run(args)
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except WorkspaceError as exc:
        error(str(exc))
        return EXIT_RUNTIME
    except KeyboardInterrupt as interrupt:  # Ctrl-C, or SIGTERM under the console script
        return signals.exit_code(interrupt)
    except BrokenPipeError:
        # Output closed early (e.g. piped into `head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
