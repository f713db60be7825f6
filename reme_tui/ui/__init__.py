"""The Textual user interface of reme-tui (imports the engine, never the reverse)."""
