"""An exact fast path for the frontmatter almost every memory has: ``key: plain`` lines and
``key: [plain, plain]`` lists.

The reference parser (pure-Python PyYAML, ReMe's own) was ~40 % of a cold build: ~600 us
a block through the bounded loader. This path reads such a block in a few microseconds
and answers only when it can prove the value equals ``yaml.safe_load``'s: every key and
scalar is one PyYAML reads as a plain string (its own implicit resolvers decide, so
``yes``, ``1e3``, ``~`` or ``2026-03-01`` go to the parser) or a one-line quoted string
without escapes; whole-line comments and ``- item`` block sequences are read too; no
anchor, tag, block scalar, nesting, duplicate key or unusual character. For anything
else it returns None and the caller runs the parser. tests/engine/test_simple_yaml.py
compares both on generated blocks and on every workspace in the repository.
"""

from __future__ import annotations

import re

import yaml

MAX_LINES = 200  # far below every YamlBudget limit (depth here is 2, one node per item)
MAX_ITEMS = 1_000
STR_TAG = "tag:yaml.org,2002:str"

_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?")
_START_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# In a flow sequence PyYAML ends a plain scalar at any of these (`[0?, z]` is a parse
# error for PyYAML, a list for libyaml).
_FLOW_FORBIDDEN = frozenset(",[]{}#:?'\"")
_RESOLVER = yaml.resolver.Resolver()


def load_simple(text: str) -> dict[str, object] | None:
    """``yaml.safe_load(text)`` when ``text`` is simple frontmatter (see the module
    docstring); None when this path cannot prove the answer."""
    lines = text.split("\n")
    if not text or len(lines) > MAX_LINES:
        return None
    out: dict[str, object] = {}
    items = 0
    at = 0
    while at < len(lines):
        line = lines[at]
        at += 1
        if _is_comment_or_blank(line):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match.group(1), match.group(2)
        if key in out or not _is_plain_string(key, flow=False):
            return None
        parsed: object
        if value is None:  # `key:` then a block sequence, or nothing (null)
            sequence, at = _block_sequence(lines, at)
            if sequence is None:
                return None
            parsed = sequence if sequence else None
            items += len(sequence)
        elif value.startswith("["):
            flow = _flow_list(value)
            if flow is None:
                return None
            parsed = flow
            items += len(flow)
        else:
            scalar = _block_scalar(value)
            if scalar is None:
                return None
            parsed = scalar
        if items > MAX_ITEMS:
            return None
        out[key] = parsed
    return out or None


_ITEM = re.compile(r"( *)- +(.*)")


def _block_sequence(lines: list[str], at: int) -> tuple[list[str] | None, int]:
    """The ``- item`` lines from ``at`` (all at one indentation), and where they end;
    None when a line there is not one this path reads."""
    out: list[str] = []
    indent: str | None = None
    while at < len(lines):
        line = lines[at]
        if _is_comment_or_blank(line):
            at += 1
            continue
        match = _ITEM.fullmatch(line)
        if match is None:
            if line[:1] == " ":
                return None, at  # an indented line that is not an item
            break
        if indent is None:
            indent = match.group(1)
        elif match.group(1) != indent:
            return None, at
        scalar = _block_scalar(match.group(2))
        if scalar is None:
            return None, at
        out.append(scalar)
        at += 1
    return out, at


def _is_comment_or_blank(line: str) -> bool:
    stripped = line.strip(" ")
    return not stripped or (stripped.startswith("#") and stripped.isprintable())


def _block_scalar(value: str) -> str | None:
    """A one-line value in block context: plain, or single- or double-quoted without
    escapes; None when it is anything else."""
    if value.startswith("'"):
        inner = value[1:-1]
        if len(value) < 2 or not value.endswith("'") or "'" in inner.replace("''", ""):
            return None
        return inner.replace("''", "'") if _quoted_text_is_safe(inner) else None
    if value.startswith('"'):
        inner = value[1:-1]
        if len(value) < 2 or not value.endswith('"') or '"' in inner or "\\" in inner:
            return None
        return inner if _quoted_text_is_safe(inner) else None
    return value if _is_plain_string(value, flow=False) else None


def _quoted_text_is_safe(inner: str) -> bool:
    """Quoted text PyYAML keeps as it is: printable, and no run of spaces it would fold
    (it keeps single spaces and leading or trailing ones on one line)."""
    return inner.isprintable()


def _flow_list(value: str) -> list[str] | None:
    if not value.endswith("]"):
        return None
    inner = value[1:-1]
    if not inner.strip(" "):
        return []
    parsed = [item.strip(" ") for item in inner.split(",")]
    if not all(_is_plain_string(item, flow=True) for item in parsed):
        return None
    return parsed


def _is_plain_string(text: str, *, flow: bool) -> bool:
    """Whether PyYAML reads ``text`` (one line, in block or flow context) as exactly this
    plain string."""
    if not text or text != text.strip(" ") or not text.isprintable():
        return False
    if text[0] in _START_INDICATORS or text.endswith(":"):
        return False
    if ": " in text or " #" in text:
        return False
    if flow and any(char in _FLOW_FORBIDDEN for char in text):
        return False
    tag: object = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return tag == STR_TAG
