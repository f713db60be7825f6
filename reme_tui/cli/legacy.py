"""The mode flags from before commands (`reme-tui WS --query TEXT`): kept as aliases for a
release, each use noted once on stderr with the command that replaces it. Parsed by one
parser holding every flag of the table; the refusals are the ones they always were."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from reme_tui.cli.common import UsageError
from reme_tui.cli.parser import CommandParser, add_version
from reme_tui.cli.table import FLAGS, MODES, Flag, Mode, given

WORKSPACE_HELP = (
    "ReMe workspace directory (default: ./.reme, else the nearest .reme/ in a parent folder, "
    "else the current folder)"
)


def build_parser(version: str) -> argparse.ArgumentParser:
    parser = CommandParser(
        prog="reme-tui",
        usage="reme-tui [WORKSPACE] [options]   (or reme-tui COMMAND ...)",
        allow_abbrev=False,
        add_help=False,
    )
    parser.add_argument("workspace", nargs="?", default=None, help=WORKSPACE_HELP)
    add_version(parser, version)
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag in [*(f for mode in MODES for f in mode.old_flags), *FLAGS]:
        if flag.group not in groups:
            groups[flag.group] = parser.add_argument_group(flag.group)
        # `-0` would make argparse read every negative number (--vector-weight -0.1) as
        # a flag: the old form keeps the long spelling only.
        names = [name for name in flag.names if name != "-0"]
        groups[flag.group].add_argument(*names, **flag.options)
    return parser


def _entries(*, old: bool) -> list[tuple[str, frozenset[str]]]:
    """(label, accepted dests) of the old modes (one per old flag, and the app), or of the
    commands that have no old flag."""
    if old:
        return [
            (label, mode.accepts)
            for mode in MODES
            for label in (
                [f.name for f in mode.old_flags] or ([] if mode.headless else [mode.label])
            )
        ]
    return [(mode.label, mode.accepts) for mode in MODES if mode.headless and mode.flag is None]


def _users(flag: Flag) -> list[str]:
    """Who takes the flag, named as the old flags named them (commands, for a flag that
    only commands take)."""
    old = [label for label, accepts in _entries(old=True) if flag.dest in accepts]
    return old or [label for label, accepts in _entries(old=False) if flag.dest in accepts]


def select_mode(args: argparse.Namespace) -> tuple[Mode, Flag | None]:
    """The mode the arguments ask for and the old flag that asked; UsageError for two modes
    or a flag the mode ignores."""
    chosen = [(m, f) for m in MODES for f in m.old_flags if given(args, f.dest)]
    # A mode may take another mode's flag as an option (--explain PATH --query TEXT).
    taken = {dest for mode, _ in chosen for dest in mode.accepts}
    chosen = [(m, f) for m, f in chosen if f.dest not in taken] or chosen
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(f.name for _, f in chosen)} cannot be combined")
    mode, old = chosen[0] if chosen else (MODES[-1], None)
    refused = [flag for flag in FLAGS if given(args, flag.dest) and flag.dest not in mode.accepts]
    if refused:
        raise UsageError(_refusal(old.name if old else mode.label, mode, refused))
    return mode, old


def _refusal(label: str, mode: Mode, refused: Iterable[Flag]) -> str:
    parts = []
    headless = {f.name for m in MODES for f in m.old_flags}
    for flag in refused:
        users = _users(flag)
        if set(users) == headless:
            where = f"a headless mode ({', '.join(users)})"
        else:
            where = " or ".join(users) if users else "nothing"
        parts.append(f"{flag.name} only applies with {where}")
    return "; ".join(parts) + (f", not with {label}" if mode.headless else "")


def deprecation_note(mode: Mode, old: Flag) -> str:
    return f"note: {old.name} is deprecated and will be removed; use: {mode.usage}"
