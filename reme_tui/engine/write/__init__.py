"""The one write door: tag edits and safe fixes, merges with their journal (undo, resume),
and reverts to recorded versions; every write goes through files.fileio."""
