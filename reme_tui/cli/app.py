"""The default mode: the full-screen app, which needs a terminal on stdin and stdout."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from reme_tui.cli import opening
from reme_tui.cli.common import EXIT_RUNTIME, UsageError, error
from reme_tui.engine import Engine

# Textual paints at most TEXTUAL_FPS frames a second (60 by default) and holds a change
# for the next frame slot: the results of a keystroke, or the preview of the next row,
# waited up to 16.7 ms after the frame that drew the typed key or the moved cursor (issue
# 19). Frames are only drawn when something changed, so an idle app costs the same.
APP_FPS = "120"


def import_textual_at_app_frame_rate() -> None:
    """Import Textual with ``TEXTUAL_FPS`` at `APP_FPS` unless the user set it: Textual
    reads it once, on import, and it is not left behind for programs the app starts."""
    ours = "TEXTUAL_FPS" not in os.environ
    if ours:
        os.environ["TEXTUAL_FPS"] = APP_FPS
    try:
        import textual.constants  # noqa: F401
    finally:
        if ours:
            os.environ.pop("TEXTUAL_FPS", None)


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
    import_textual_at_app_frame_rate()
    from reme_tui.ui.app import run_app
    from reme_tui.ui.themes import BundledThemeMissing

    try:
        return run_app(root, options, config_path=args.config, early=early)
    except BundledThemeMissing as exc:
        error(str(exc))
        return EXIT_RUNTIME


def has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
