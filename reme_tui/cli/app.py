"""The default mode: the full-screen app, which needs a terminal on stdin and stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_RUNTIME, UsageError, error
from reme_tui.engine import Engine


def run_app_mode(args: argparse.Namespace) -> int:
    root = Engine.create(Path(args.workspace)).root  # a missing workspace: exit 1, as headless
    if not has_terminal():
        # Drawn into a pipe or a file, the app would run blind and never exit.
        raise UsageError(
            "the app needs a terminal (stdin and stdout); without one, use a command that "
            "prints and exits, e.g. reme-tui search QUERY or reme-tui list (reme-tui --help "
            "lists them all)"
        )
    from reme_tui.ui.options import AppOptions
    from reme_tui.ui.startup import start_early

    options = AppOptions(
        theme=args.theme,
        all_markdown=args.all_markdown,
        use_saved_index=not args.no_cache,
        rebuild=args.rebuild,
        model=args.model,
        allow_download=True if args.allow_download else None,
        vector_weight=opening.vector_weight(args),
        layout=args.layout,
        chosen_because=args.chosen_because,
    )
    # The saved index is read while the UI's modules load (Textual is imported below).
    early = start_early(root, options, args.config)
    from reme_tui.ui.app import run_app
    from reme_tui.ui.themes import BundledThemeMissing

    try:
        return run_app(root, options, config_path=args.config, early=early)
    except BundledThemeMissing as exc:
        error(str(exc))
        return EXIT_RUNTIME


def has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
