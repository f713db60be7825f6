"""`python -m reme_tui` runs the same command line as `reme-tui`."""

import sys

from .cli import main

sys.exit(main())
