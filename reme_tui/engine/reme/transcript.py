"""Session transcripts (`session/dialog/<id>.jsonl`) as a readable conversation.

ReMe's agent wrapper persists one agentscope `Msg` per line: `name`, `role`, `created_at`
and `content`, a string or a list of blocks (`text`, `thinking`, `tool_call` with `name` and
a JSON `input`, `tool_result` with `name` and `output`, `data`...). ReMe's own search renders
a line as `[speaker @ created_at] text`; here each message keeps its text and its tool calls
(shown folded). Every line is hostile input: one that is not a JSON object is kept as an
unreadable line with its number, never an error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MAX_FIELD_CHARS = 20_000  # one pasted log must not turn into a screen of a million lines


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call or its result inside a message."""

    kind: str  # "call" | "result"
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of the conversation."""

    line: int
    speaker: str
    role: str
    time: str
    text: str
    tools: tuple[ToolCall, ...] = ()
    unreadable: bool = False


@dataclass(frozen=True, slots=True)
class Transcript:
    turns: tuple[Turn, ...]
    unreadable_lines: tuple[int, ...] = field(default=())


def parse_transcript(text: str) -> Transcript:
    turns: list[Turn] = []
    bad: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            bad.append(number)
            turns.append(Turn(number, "?", "", "", _clip(line), unreadable=True))
            continue
        turns.append(_turn(number, record))
    return Transcript(tuple(turns), tuple(bad))


def _turn(number: int, record: dict[str, Any]) -> Turn:
    role = _text(record.get("role"))
    speaker = _text(record.get("name")) or role or "?"
    time = _text(record.get("created_at") or record.get("timestamp"))
    texts: list[str] = []
    tools: list[ToolCall] = []
    content = record.get("content")
    blocks = content if isinstance(content, list) else [content]
    for block in blocks:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict):
            kind = block.get("type")
            if kind == "text":
                texts.append(_text(block.get("text")))
            elif kind in ("tool_call", "tool_use"):
                tools.append(
                    ToolCall("call", _text(block.get("name")), _jsonish(block.get("input")))
                )
            elif kind == "tool_result":
                tools.append(
                    ToolCall("result", _text(block.get("name")), _output(block.get("output")))
                )
            elif kind == "thinking":
                tools.append(ToolCall("thinking", "", _text(block.get("thinking"))))
            elif kind is not None:
                texts.append(f"[{_text(kind)}]")
    return Turn(
        number, speaker, role, time, _clip("\n\n".join(t for t in texts if t)), tuple(tools)
    )


def _text(value: Any) -> str:
    if value is None:
        return ""
    return _clip(value if isinstance(value, str) else str(value))


def _jsonish(value: Any) -> str:
    if isinstance(value, str):
        try:
            return _clip(json.dumps(json.loads(value), ensure_ascii=False, indent=1))
        except ValueError:
            return _clip(value)
    try:
        return _clip(json.dumps(value, ensure_ascii=False, indent=1))
    except (TypeError, ValueError):
        return _text(value)


def _output(value: Any) -> str:
    if isinstance(value, list):
        parts = [
            _text(block.get("text")) if isinstance(block, dict) else _text(block) for block in value
        ]
        return _clip("\n".join(p for p in parts if p))
    return _text(value)


def _clip(text: str) -> str:
    if len(text) <= MAX_FIELD_CHARS:
        return text
    return text[:MAX_FIELD_CHARS] + f"… ({len(text) - MAX_FIELD_CHARS} more characters)"
