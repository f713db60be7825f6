"""`python -m reme_tui` runs the same command line as `reme-tui`."""

import sys

from reme_tui.cli import run

if __name__ == "__main__":  # guarded: spawned index workers import this module too
    sys.exit(run())
