"""`python -m reme_tui` runs the same command line as `reme-tui`."""

import sys

from .cli import main

if __name__ == "__main__":  # guarded: spawned index workers import this module too
    sys.exit(main())
