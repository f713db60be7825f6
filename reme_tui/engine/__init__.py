"""The index engine: plain Python with no UI imports (see tests/engine/test_import_hygiene.py).

``from reme_tui.engine import Engine`` is the front door; the facade lives in ``core.py``.
It is imported lazily so that using one small module (``tags``, ``workspace``) does not
load the whole engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Delta, Engine, EngineConfig, WorkspaceError

__all__ = ["Delta", "Engine", "EngineConfig", "WorkspaceError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import core

        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
