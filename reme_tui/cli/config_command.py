"""`reme-tui config path|show|keys`: where the settings file is, what is in effect, and every
key it may hold (the README no longer has to send anyone to config.py)."""

from __future__ import annotations

import argparse
import sys

from reme_tui.cli.common import EXIT_OK, info
from reme_tui.cli.output import print_json
from reme_tui.cli.user_config import chosen_path, settings_for
from reme_tui.config import CONFIG_ENV, KEY_HELP, Settings, setting_rows, toml_value
from reme_tui.safe_text import for_terminal, for_terminal_line


def run_config(args: argparse.Namespace) -> int:
    if args.action == "path":
        return _path(args)
    settings = settings_for(args)
    if args.action == "show":
        return _show(settings, as_json=args.json)
    return _keys(as_json=args.json)


def _path(args: argparse.Namespace) -> int:
    path = chosen_path(args)
    if args.json:
        print_json({"path": str(path), "exists": path.is_file()})
        return EXIT_OK
    sys.stdout.write(for_terminal_line(str(path)) + "\n")
    if not path.is_file():
        info(f"(no file there yet: defaults apply; the app writes it when you pick a theme; "
             f"--config FILE or ${CONFIG_ENV} choose another)")  # fmt: skip
    return EXIT_OK


def _show(settings: Settings, *, as_json: bool) -> int:
    """Every setting in effect (the file's values over the defaults), as TOML."""
    rows = setting_rows(settings)
    if as_json:
        print_json({"path": str(settings.config_path), "settings": {k: v for k, _, v in rows}})
        return EXIT_OK
    section = ""
    lines = [f"# {settings.config_path}"]
    for key, _type, value in rows:
        table, _, name = key.rpartition(".")
        if table != section:
            lines.append(f"\n[{table}]")
            section = table
        lines.append(f"{toml_value(name) if table == 'keymap' else name} = {toml_value(value)}")
    sys.stdout.write(for_terminal("\n".join(lines) + "\n"))
    return EXIT_OK


def _keys(*, as_json: bool) -> int:
    """Every key the file may hold: type, default, what it does."""
    defaults = {key: (kind, value) for key, kind, value in setting_rows(Settings())}
    defaults["keymap.BINDING_ID"] = ("string", "")
    if as_json:
        keys = [
            {"key": key, "type": kind, "default": value, "help": KEY_HELP[key]}
            for key, (kind, value) in defaults.items()
        ]
        print_json({"keys": keys})
        return EXIT_OK
    width = max(map(len, defaults))
    for key, (kind, value) in defaults.items():
        shown = toml_value(value) if key != "keymap.BINDING_ID" else "-"
        sys.stdout.write(f"{key:<{width}}  {kind:<7}  {shown:<15}  {KEY_HELP[key]}\n")
    return EXIT_OK
