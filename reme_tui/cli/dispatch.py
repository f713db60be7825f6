"""From the command line to one command and its arguments: `reme-tui COMMAND ...`, else the
app or a deprecated mode flag (`reme-tui [WORKSPACE] [--query TEXT ...]`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from reme_tui.cli import legacy
from reme_tui.cli.common import UsageError, info
from reme_tui.cli.parser import build_command_parser, print_top_help, suggest_command
from reme_tui.cli.table import COMMANDS, COMPLETE, Mode, fill_defaults


def parse_command_line(argv: Sequence[str], version: str) -> tuple[argparse.Namespace, Mode]:
    """The command asked for and its arguments (every dest a handler reads is present).
    Help and version exit here (SystemExit 0), parse errors too (SystemExit 2);
    UsageError for a mistyped command or a flag the command does not take."""
    if argv[:1] == [COMPLETE]:  # the completion scripts' question: every word is data
        words = list(argv[2:] if argv[1:2] == ["--"] else argv[1:])
        return argparse.Namespace(words=words), COMMANDS[COMPLETE]
    if argv and argv[0] in COMMANDS:
        mode = COMMANDS[argv[0]]
        args = build_command_parser(mode, version).parse_intermixed_args(argv[1:])
        _one_workspace(args, mode)
        return _config_exists(fill_defaults(args, mode)), mode
    if _wants_help(argv):
        print_top_help(version)
    if argv and not argv[0].startswith("-") and not Path(argv[0]).exists():
        meant = suggest_command(argv[0])
        if meant is not None:
            raise UsageError(
                f"no command or workspace {argv[0]!r}; did you mean: reme-tui {meant}? "
                "(reme-tui --help lists the commands)"
            )
    args = legacy.build_parser(version).parse_args(argv)
    mode, old = legacy.select_mode(args)
    if old is not None:
        info(legacy.deprecation_note(mode, old))
    return _config_exists(args), mode


def _config_exists(args: argparse.Namespace) -> argparse.Namespace:
    """`--config FILE` naming no file is a usage error, in every command and the app."""
    if args.config is not None:
        from reme_tui.cli.user_config import chosen_path

        chosen_path(args)
    return args


def _wants_help(argv: Sequence[str]) -> bool:
    words = list(argv[: list(argv).index("--")] if "--" in argv else argv)
    return "-h" in words or "--help" in words


def _one_workspace(args: argparse.Namespace, mode: Mode) -> None:
    """WORKSPACE given as the last positional or as -w DIR: once."""
    option = getattr(args, "workspace_option", None)
    positional = getattr(args, "workspace", None)
    if option is not None and positional is not None:
        raise UsageError(f"the workspace is given twice ({positional!r} and -w {option!r})")
    if mode.workspace == "none":
        args.workspace = None
    else:
        args.workspace = positional if positional is not None else option
    if hasattr(args, "workspace_option"):
        del args.workspace_option
