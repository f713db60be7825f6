"""The index engine: plain Python with no UI imports (see tests/engine/test_import_hygiene.py)."""
