"""The parsers, built from the table (`table.py`): one per command, exact flag names only;
a mistake prints one usage line, the error, and what was probably meant."""

from __future__ import annotations

import argparse
import difflib
import sys
import textwrap
from typing import NoReturn

from reme_tui.cli.table import APP, COMMANDS, MODES, Flag, Mode
from reme_tui.safe_text import for_terminal

WIDTH = 88
WORKSPACE_NOTE = (
    "WORKSPACE: a ReMe workspace directory (default: ./.reme, else the nearest .reme/ in a "
    "parent folder, else the current folder). A workspace folder named like a command is "
    "written ./NAME (reme-tui ./search opens the folder 'search')."
)
EXIT_CODES = (
    "exit codes: 0 success (also zero results), 1 runtime error (missing or unreadable "
    "workspace, I/O error, a write refused), 2 usage error (also: a flag the command does "
    "not take), 3 diagnostics --fail-on found a problem that severe"
)


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are short: the one usage line, the error, a hint
    ("did you mean --query?", "--theme is an option of: app") and where the help is."""

    def error(self, message: str) -> NoReturn:
        hints = _hints(self, message)
        text = f"usage: {self.usage}\nreme-tui: error: {message}\n"
        text += "".join(f"reme-tui: {hint}\n" for hint in hints)
        text += f"(more: {self.prog} --help)\n"
        self.exit(2, for_terminal(text))


def _hints(parser: argparse.ArgumentParser, message: str) -> list[str]:
    """For each unknown flag: where it belongs, else the nearest flag of this command, else
    the nearest flag of another."""
    if not message.startswith("unrecognized arguments: "):
        return []
    hints = []
    here = [s for s in parser._option_string_actions if s.startswith("--")]
    owners = _owners()
    for token in message.removeprefix("unrecognized arguments: ").split():
        if not token.startswith("--"):
            continue
        name = token.split("=", 1)[0]
        if name in owners:
            hints.append(f"{name} {owners[name]}")
        elif close := difflib.get_close_matches(name, here, n=1, cutoff=0.6):
            hints.append(f"{name}: did you mean {close[0]}?")
        elif close := difflib.get_close_matches(name, list(owners), n=1, cutoff=0.6):
            hints.append(f"{name}: did you mean {close[0]}? ({close[0]} {owners[close[0]]})")
    return hints


def _owners() -> dict[str, str]:
    """Every long flag of the table -> which commands take it (or which one it became)."""
    owners: dict[str, list[str]] = {}
    for mode in MODES:
        for item in all_flags(mode):
            for name in item.names:
                owners.setdefault(name, []).append(mode.command)
    found = {name: f"is an option of: {', '.join(cmds)}" for name, cmds in owners.items()}
    for mode in MODES:
        for old in mode.old_flags:
            found[old.name] = f"is the old form of: {mode.usage}"
    return {name: text for name, text in found.items() if name.startswith("--")}


def add_version(parser: argparse.ArgumentParser, version: str) -> None:
    parser.add_argument(
        "--version", action="version", version=f"reme-tui {version}", help="print the version"
    )


def _fill(text: str) -> str:
    return textwrap.fill(text, WIDTH)


def build_command_parser(mode: Mode, version: str) -> CommandParser:
    """`reme-tui COMMAND`'s parser: its own arguments, WORKSPACE, and the table's flags it
    takes, grouped as in the table; the help ends with examples."""
    description = mode.summary[0].upper() + mode.summary[1:] + "."
    if mode.details:
        description += " " + mode.details
    epilog = "examples:\n" + "\n".join(f"  {example}" for example in mode.examples)
    if mode.workspace != "none":
        epilog += "\n\n" + _fill(WORKSPACE_NOTE)
    parser = CommandParser(
        prog=f"reme-tui {mode.command}",
        usage=mode.usage,
        description=_fill(description),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    own = parser.add_argument_group("options of " + mode.command)
    for argument in mode.arguments:
        target = parser if argument.positional else own
        target.add_argument(*argument.names, **argument.options)
    if mode.workspace == "last":
        parser.add_argument("workspace", nargs="?", default=None, metavar="WORKSPACE",
                            help="the workspace (see below)")  # fmt: skip
    if mode.workspace != "none":
        own.add_argument("-w", "--workspace", dest="workspace_option", metavar="DIR",
                         help="the workspace, as an option")  # fmt: skip
    add_version(parser, version)
    groups: dict[str, argparse._ArgumentGroup] = {}
    for flag in mode.options:
        if flag.group not in groups:
            groups[flag.group] = parser.add_argument_group(flag.group)
        groups[flag.group].add_argument(*flag.names, **flag.options)
    return parser


def top_help(version: str) -> str:
    """`reme-tui --help`: the commands, one line each, from the table."""
    shown = [m for m in MODES if not m.hidden]
    width = max(len(m.command) for m in shown) + 2
    lines = [
        "usage: reme-tui [COMMAND] [WORKSPACE] [options]",
        "",
        _fill(
            f"reme-tui {version}: look inside a ReMe agent's long-term memory. Without a "
            "command, opens the terminal app on WORKSPACE; a command prints and exits."
        ),
        "",
        "commands:",
    ]
    lines += [f"  {m.command:<{width}}{m.summary}" for m in shown if m.command != APP]
    lines += [f"  {APP:<{width}}{COMMANDS[APP].summary}", ""]
    lines += [
        _fill(
            "reme-tui COMMAND --help shows a command's options and examples (e.g. "
            "reme-tui search --help, reme-tui mcp --help)."
        ),
        "",
        _fill(WORKSPACE_NOTE),
        "",
        _fill(
            "The mode flags of earlier releases (reme-tui WORKSPACE --query TEXT, --list-tags, "
            "...) still work and print a note naming the command that replaces them."
        ),
        "",
        _fill(EXIT_CODES),
        "",
        "options:",
        "  -h, --help  show this help and exit",
        "  --version   print the version and exit",
    ]
    return "\n".join(lines) + "\n"


def print_top_help(version: str) -> NoReturn:
    sys.stdout.write(top_help(version))
    raise SystemExit(0)


def suggest_command(word: str) -> str | None:
    """The command a mistyped first word probably meant (None for anything path-like)."""
    if "/" in word or "." in word:
        return None
    shown = [command for command, mode in COMMANDS.items() if not mode.hidden]
    close = difflib.get_close_matches(word, shown, n=1, cutoff=0.75)
    return close[0] if close else None


def all_flags(mode: Mode) -> list[Flag]:
    """Every flag a command takes: its own, then the table's."""
    return [*(a for a in mode.arguments if not a.positional), *mode.options]
