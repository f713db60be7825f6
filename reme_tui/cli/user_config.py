"""The user's settings file for every command, not only the app: `--config FILE` (which must
exist), else `$REME_TUI_CONFIG`, else the XDG location. Read once per run; a problem in it
is one warning line on stderr, never fatal."""

from __future__ import annotations

import argparse
from pathlib import Path

from reme_tui.cli.common import UsageError, warn
from reme_tui.config import Settings, default_config_path, load_settings


def chosen_path(args: argparse.Namespace) -> Path:
    """The file in effect; UsageError when `--config` names one that is not there."""
    given: Path | None = getattr(args, "config", None)
    if given is None:
        return default_config_path()
    if not given.is_file():
        raise UsageError(f"--config {given}: no such file")
    return given


def settings_for(args: argparse.Namespace) -> Settings:
    """The settings for this run (cached on `args`); warnings are said once on stderr."""
    cached: Settings | None = getattr(args, "settings", None)
    if cached is not None:
        return cached
    settings = load_settings(chosen_path(args))
    for warning in settings.warnings:
        warn(f"config {settings.config_path}: {warning}")
    args.settings = settings
    return settings
