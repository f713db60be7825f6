"""The Textual user interface of reme-tui (imports the engine, never the reverse).

- ``app.py``: ``RemeApp`` (themes, keymap, palette, the index/model/watcher workers);
  ``keys.py`` (every binding), ``commands.py`` (palette), ``themes.py``, ``focus.py``;
- ``messages.py``: the dataclass messages workers post; ``worker_failures.py``: every
  worker's failure is shown (workers run with ``exit_on_error=False``);
- ``screens/``: ``main`` (search, results, preview), ``edit_tags`` (the tag editor),
  ``dupes`` (near-duplicate review), ``changes`` (history), ``diagnostics``, ``help``,
  ``transcript``;
- ``widgets/``: tag sidebar, search bar and chips, results, preview, neighbours, status
  bar, match chart, the tag editor widget;
- pure helpers (no widgets): ``query`` (the search state and query language), ``rows``,
  ``history`` (back/forward), ``tag_draft``, ``wikilinks`` (preview links),
  ``semantic_progress`` (model state -> messages and labels).
"""
