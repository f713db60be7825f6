"""Faces that import a name's module only when the name is first used (PEP 562).

A face re-exports its room's public names; importing every module behind it eagerly
would make a `--query` pay for what it never runs (the file watcher pulls in watchfiles
and anyio, near-duplicate detection rapidfuzz: ~100 ms of a 1 s warm start at 10,000
memories). Names listed here stay importable as before (``from .tags import
detect_duplicates``); type checkers see them through the face's TYPE_CHECKING imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(
    package: str, where: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``where`` maps a name to the submodule
    (relative to ``package``) that defines it; a loaded name is cached in ``namespace``."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return __getattr__
