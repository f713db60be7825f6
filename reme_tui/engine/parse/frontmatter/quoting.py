"""YAML text for tag values: plain when it reads back unchanged, else quoted."""

from __future__ import annotations

import re
from typing import Any

import yaml

from .bounded import load_yaml

# PyYAML's reader refuses these anywhere in a stream.
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_NEEDS_ESCAPE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _round_trips(text: str, value: Any, flow: bool) -> bool:
    source = f"[{text}]" if flow else f"- {text}\n"
    try:
        loaded = load_yaml(source)
    except yaml.YAMLError:
        return False
    return isinstance(loaded, list) and len(loaded) == 1 and _same(loaded[0], value)


def _plain_ok(value: str, flow: bool) -> bool:
    if not value or value != value.strip() or _NEEDS_ESCAPE.search(value):
        return False
    if _NON_PRINTABLE.search(value):
        return False
    return _round_trips(value, value, flow)


_NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x00": "\\0"}


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _double_quoted(value: str) -> str:
    """Double-quoted YAML on one line: every break, control or BOM character escaped."""
    body = value.replace("\\", "\\\\").replace('"', '\\"')
    body = _NEEDS_ESCAPE.sub(_escape_char, _NON_PRINTABLE.sub(_escape_char, body))
    return '"' + body + '"'


def quote_scalar(value: str, *, flow: bool = False, prefer: str = "'") -> str:
    """YAML text for ``value``: plain when YAML reads it back unchanged, else quoted."""
    if _plain_ok(value, flow):
        return value
    if prefer == "'" and not _NEEDS_ESCAPE.search(value) and not _NON_PRINTABLE.search(value):
        return "'" + value.replace("'", "''") + "'"
    return _double_quoted(value)


def _quote_key(name: str) -> str:
    try:
        if name == name.strip() and load_yaml(f"{name}: x\n") == {name: "x"}:
            return name
    except yaml.YAMLError:
        pass
    return _double_quoted(name)
