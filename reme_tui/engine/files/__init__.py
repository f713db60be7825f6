"""Which files are memories and how they are read and written: the workspace scan and its
safe paths, symlinks, the one bounded read and the one atomic rewrite (fileio), file-event
batches (watch), and the per-workspace user-data folder."""
