"""Tool arguments are hostile input: each getter checks one argument's type and bounds and
raises ToolError with a message an agent can act on (never a traceback)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

MAX_TEXT = 10_000  # characters in one string argument (a query, a path, a tag)
MAX_ITEMS = 100  # values in one list argument
MAX_LIMIT = 100  # results one search or listing may ask for


class ToolError(Exception):
    """A tool call that cannot be answered: its message goes to the client as the error."""


Args = Mapping[str, Any]


def check_known(args: Args, known: frozenset[str]) -> None:
    unknown = sorted(set(args) - known)
    if unknown:
        allowed = ", ".join(sorted(known)) or "(none)"
        raise ToolError(f"unknown argument(s) {', '.join(map(repr, unknown))}; allowed: {allowed}")


def text(args: Args, name: str, *, required: bool = False) -> str | None:
    value = args.get(name)
    if value is None:
        if required:
            raise ToolError(f"{name} is required")
        return None
    if not isinstance(value, str):
        raise ToolError(f"{name} must be a string")
    if len(value) > MAX_TEXT:
        raise ToolError(f"{name} is too long ({len(value)} characters, at most {MAX_TEXT})")
    if "\x00" in value:
        raise ToolError(f"{name} cannot contain NUL characters")
    return value


def required_text(args: Args, name: str) -> str:
    value = text(args, name, required=True)
    assert value is not None
    return value


def strings(args: Args, name: str) -> tuple[str, ...]:
    value = args.get(name)
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise ToolError(f"{name} must be a list of strings")
    if len(value) > MAX_ITEMS:
        raise ToolError(f"{name} has {len(value)} values, at most {MAX_ITEMS}")
    return tuple(required_text({name: item}, name) for item in value)


def flag(args: Args, name: str) -> bool:
    value = args.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ToolError(f"{name} must be true or false")
    return value


def integer(args: Args, name: str, *, low: int, high: int) -> int | None:
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolError(f"{name} must be a whole number")
    if not low <= value <= high:
        raise ToolError(f"{name} must be between {low} and {high}, got {value}")
    return value


def number(args: Args, name: str, *, low: float, high: float) -> float | None:
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolError(f"{name} must be a number")
    value = float(value)
    if not math.isfinite(value) or not low <= value <= high:
        raise ToolError(f"{name} must be a number between {low} and {high}, got {value}")
    return value


def choice(args: Args, name: str, options: tuple[str, ...]) -> str | None:
    value = text(args, name)
    if value is not None and value not in options:
        raise ToolError(f"{name} must be one of {', '.join(options)}, got {value!r}")
    return value


def workspace_path(args: Args, name: str = "path") -> str:
    """A workspace-relative path as text; the engine's containment check decides the rest."""
    raw = required_text(args, name)
    rel = raw.strip().replace("\\", "/")
    if not rel or rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        raise ToolError(f"{name} must be a path relative to the workspace, got {raw[:200]!r}")
    if ".." in rel.split("/"):
        raise ToolError(f"{name} {raw[:200]!r} leaves the workspace")
    return rel
