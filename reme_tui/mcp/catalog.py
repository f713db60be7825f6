"""What a tool is: a name, a description an agent can act on, a JSON schema, a handler."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reme_tui.engine import Engine

from .arguments import Args, ToolError, check_known

if TYPE_CHECKING:
    from reme_tui.engine.history import ChangeHistory


@dataclass(slots=True)
class Context:
    """What every handler gets: the live engine and the server's settings."""

    engine: Engine
    vector_weight: float | None = None
    _history: ChangeHistory | None = None
    baseline_recorded: bool = False  # the first `changes` call recorded the baseline

    def history(self) -> ChangeHistory:
        """The workspace's change history, opened at the first call that needs it and kept
        attached (the watcher's changes are recorded from then on) until `close`."""
        if self._history is None:
            from reme_tui.engine.history import ChangeHistory, HistoryError

            try:
                history = ChangeHistory.for_workspace(self.engine.root)
                self.engine.attach_history(history)
                self.baseline_recorded = not history.has_baseline
                self.engine.sync_history(source="start")
            except HistoryError as exc:
                self.engine.attach_history(None)
                raise ToolError(str(exc)) from None
            self._history = history
        return self._history

    @property
    def history_open(self) -> bool:
        return self._history is not None

    def close(self) -> None:
        if self._history is not None:
            self.engine.attach_history(None)
            self._history.close()
            self._history = None


Handler = Callable[[Context, Args], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    properties: Mapping[str, Any]
    handler: Handler
    required: tuple[str, ...] = ()
    writes: bool = False
    annotations: Mapping[str, Any] = field(default_factory=dict)

    @property
    def input_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {
            "type": "object",
            "properties": dict(self.properties),
            "additionalProperties": False,
        }
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def call(self, context: Context, args: Args) -> dict[str, Any]:
        check_known(args, frozenset(self.properties))
        return self.handler(context, args)


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def string_list(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "maxItems": 100,
            "description": description}  # fmt: skip


def boolean(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description, "default": False}


def whole(description: str, low: int, high: int, default: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high,
                              "description": description}  # fmt: skip
    if default is not None:
        schema["default"] = default
    return schema
