"""reme-tui: look inside a ReMe agent's long-term memory from the terminal."""

__version__ = "0.1.0"
