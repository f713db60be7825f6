"""`reme-tui demo [DIR]`: the sample workspace, copied somewhere writable, opened in the app
(without a terminal: its path on stdout, for `reme-tui search budget "$(reme-tui demo)"`)."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from reme_tui.cli.common import EXIT_OK, EXIT_RUNTIME, error, info

PACKAGE = Path(__file__).resolve().parents[1]
# In the wheel (setup.py copies it there), else the checkout's copy (an editable install).
SOURCES = (PACKAGE / "demo_workspace", PACKAGE.parent / "sample_workspace")


def default_folder() -> Path:
    from platformdirs import user_data_path

    return user_data_path("reme-tui") / "demo"


def run_demo(args: argparse.Namespace) -> int:
    source = next((folder for folder in SOURCES if folder.is_dir()), None)
    if source is None:
        error("this installation carries no sample workspace (a build without setup.py?)")
        return EXIT_RUNTIME
    target = Path(args.folder).expanduser() if args.folder else default_folder()
    if target.exists():
        info(f"demo workspace {target} is there already: using it as it is")
    else:
        try:
            shutil.copytree(source, target)
        except OSError as exc:
            error(f"could not copy the demo workspace to {target}: {exc.strerror or exc}")
            return EXIT_RUNTIME
        info(f"copied the demo workspace to {target} (edit it freely; delete it when done)")
    from reme_tui.cli import app
    from reme_tui.cli.reme import choose_workspace

    if not app.has_terminal():
        sys.stdout.write(f"{target}\n")
        return EXIT_OK
    args.workspace = str(target)
    choose_workspace(args, headless=False)
    return app.run_app_mode(args)
