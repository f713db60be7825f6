"""`reme-tui manpage`: the man page (roff), written from the table like the help, so a new
command or flag cannot be missing from it. docs/reme-tui.1 is its output, kept equal by a
test."""

from __future__ import annotations

import argparse
import sys

from reme_tui import __version__
from reme_tui.cli.common import EXIT_OK
from reme_tui.cli.parser import EXIT_CODES, WORKSPACE_NOTE
from reme_tui.cli.table import APP, MODES, Flag, Mode


def run_manpage(args: argparse.Namespace) -> int:
    sys.stdout.write(render(__version__))
    return EXIT_OK


def roff(text: str) -> str:
    """Text as roff shows it: backslashes and dashes escaped, no line read as a request."""
    escaped = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(
        f"\\&{line}" if line.startswith((".", "'")) else line for line in escaped.split("\n")
    )


WORKSPACE_OPTION = Flag(
    ("-w", "--workspace"), "", {"metavar": "DIR", "help": "the workspace, as an option"}
)


def _option(item: Flag) -> str:
    metavar = item.options.get("metavar")
    if item.positional:
        help_text = roff(str(item.options.get("help", "")))
        return f".TP\n\\fI{roff(item.shown)}\\fR\n{help_text}\n"
    value = ""
    if item.takes_value:
        if isinstance(metavar, tuple):
            value = " " + " ".join(metavar)
        elif item.options.get("choices"):
            value = " " + "|".join(item.options["choices"])
        else:
            value = " " + str(metavar or item.dest.upper())
    names = ", ".join(f"\\fB{roff(name)}\\fR" for name in item.names)
    return f".TP\n{names}{roff(value)}\n{roff(str(item.options.get('help', '')))}\n"


def _command(mode: Mode) -> str:
    text = f".SS {roff(mode.usage)}\n{roff(mode.summary)}.\n"
    if mode.details:
        text += f"{roff(mode.details)}\n"
    if mode.flag is not None:
        old = ", ".join(f.name for f in mode.old_flags)
        noun = "flag" if len(mode.old_flags) == 1 else "flags"
        text += f".PP\nReplaces the deprecated mode {noun} {roff(old)}.\n"
    positionals = [a for a in mode.arguments if a.positional]
    options = [a for a in mode.arguments if not a.positional] + list(mode.options)
    for item in [*positionals, *options]:
        text += _option(item)
    if mode.workspace != "none":
        text += _option(WORKSPACE_OPTION)
    text += ".PP\nExamples:\n.PP\n.RS\n.nf\n"
    text += "".join(f"{roff(example)}\n" for example in mode.examples)
    return text + ".fi\n.RE\n"


def render(version: str) -> str:
    shown = [m for m in MODES if not m.hidden]
    app = next(m for m in shown if m.command == APP)
    parts = [
        f'.TH REME\\-TUI 1 "" "reme-tui {roff(version)}" "User Commands"\n',
        ".SH NAME\nreme\\-tui \\- look inside a ReMe agent's long\\-term memory\n",
        ".SH SYNOPSIS\n.B reme\\-tui\n[\\fIWORKSPACE\\fR] [\\fIoptions\\fR]\n.br\n"
        ".B reme\\-tui\n\\fICOMMAND\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]\n",
        ".SH DESCRIPTION\nWithout a command, opens the terminal app on WORKSPACE. A command "
        "prints to standard output and exits; diagnostics and progress go to standard "
        "error. \\fBreme\\-tui COMMAND \\-\\-help\\fR shows one command's options.\n",
        f".PP\n{roff(WORKSPACE_NOTE)}\n",
        ".SH COMMANDS\n",
        *(_command(m) for m in shown if m is not app),
        _command(app),
        ".SH EXIT STATUS\n" + roff(EXIT_CODES.removeprefix("exit codes: ")) + ".\n",
        ".SH ENVIRONMENT\n.TP\n.B REME_TUI_CONFIG\nthe settings file (see \\fBreme\\-tui "
        "config path\\fR).\n.TP\n.B NO_COLOR\nno colour in the output.\n.TP\n"
        ".B XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME\nwhere the settings, the saved "
        "index and the change history live.\n",
        ".SH SEE ALSO\nThe README of reme\\-tui; ReMe's documentation.\n",
    ]
    return "".join(parts)
