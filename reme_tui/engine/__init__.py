"""The index engine: plain Python with no UI imports (see tests/engine/test_import_hygiene.py).

``from reme_tui.engine import Engine`` is the front door; the facade lives in ``core.py``.
It is imported lazily so that using one small module (``tags``, ``workspace``) does not
load the whole engine.

The rooms, in the order data flows through them:

- which files: ``workspace`` (memories, safe paths, dates from paths), ``symlinks``,
  ``reme_config`` (where the workspace is), ``watch`` (file events -> batches);
- one file: ``fileio`` (bounded, contained reads; the one rewrite path), ``document``
  (file -> ``records.Memory``), ``frontmatter/`` (``split``: the one fence rule; the
  tag-entry text surgery), ``chunking`` (+ ``mistletoe_speedup``, ``mistletoe_import``),
  ``links`` (the one wikilink parser and the link graph), ``tokenize``, ``codes``
  (diagnostic codes), ``loader`` (many files, on every core);
- the indexes: ``keyword`` (BM25), ``tags``, ``vectors`` + ``semantic`` (embeddings),
  ``store`` (the saved index);
- asking: ``filters`` (the one ``Filters`` value), ``dates`` (the one date rule),
  ``reme_filter`` (ReMe's path and metadata filters), ``search`` (the pipeline);
- checking: ``compat`` (what ReMe drops), ``reme_checks``, ``day_index``, ``tag_lints``,
  ``tag_warnings``, ``dupes`` + ``hygiene`` (near-duplicate tags), ``provenance``,
  ``transcript``;
- writing: ``writes``, ``merge`` + ``journal``, ``tag_fixing``, ``history`` +
  ``change_diff`` + ``change_report`` + ``revert`` (content history), ``userdata``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Engine, EngineConfig, WorkspaceError
    from .records import Delta

__all__ = ["Delta", "Engine", "EngineConfig", "WorkspaceError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import engine as core

        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
