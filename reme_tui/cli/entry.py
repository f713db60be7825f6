"""`reme-tui`: parse, pick the one mode the arguments ask for, run it, map errors to exit codes."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from reme_tui import __version__
from reme_tui.cli import serve, signals
from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, UsageError, error
from reme_tui.cli.reme import choose_workspace
from reme_tui.cli.table import build_parser, select_mode
from reme_tui.engine import WorkspaceError
from reme_tui.engine.index import freeze_after_builds


def run() -> int:
    """The console script (and `python -m reme_tui`): this process is reme-tui's own, so
    the index a build makes is frozen out of the garbage collector's way (see
    engine/index/collector.py; `main` alone, as tests call it, leaves the collector as it is)."""
    freeze_after_builds()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if serve.wants(argv):  # the one subcommand so far: `reme-tui mcp ...`
            args = serve.build_parser(__version__).parse_args(argv[1:])
        else:
            args = build_parser(__version__).parse_args(argv)
        if serve.wants(argv):
            choose_workspace(args, headless=True)
            return serve.run_mcp(args)
        mode = select_mode(args)
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
