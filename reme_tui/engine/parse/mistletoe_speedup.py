"""Exact, faster inline scanning for mistletoe 1.6.0, used only inside the chunker's calls.

ReMe renders every chunk through mistletoe, so reme-tui must too (chunk text and line
ranges depend on it). Profiling a cold open showed ~40% of all indexing time inside
mistletoe's character-by-character emphasis/link scanner, which walks every character
of every paragraph in Python even when the text holds no `*`, `_`, `[`, `]`, `!`, `\\`
or backtick. This version runs the same state machine, but while the machine is idle
(no pending escape, delimiter run or image marker) it jumps straight to the next
character that can change its state. Inert characters leave the state untouched in the
original loop, so the matches produced are identical.

`find_tokens` also skips a span-token type whose pattern needs a literal the text does not
contain (an inline code span needs a backtick, an escape a backslash, ...), which cannot
change the result either. Together they cut chunking time by about half on typical memories.
tests/engine/test_chunking_speedup.py checks both against the originals on random Markdown.

Scope: mistletoe looks both functions up as module attributes at call time, so
``fast_scanners()`` swaps them in for the duration of one ``with`` block and puts the
originals back after; the chunker wraps its parse and render in it, under its mistletoe
lock. Nothing else in the process sees them. The replacement copies mistletoe 1.6.0's own
loop (and writes its private ``core_tokens._code_matches`` as that loop does), so on any
other mistletoe version ``fast_scanners()`` changes nothing: mistletoe's own scanner runs,
slower but never wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .mistletoe_import import preload_core_tokens

preload_core_tokens()  # before mistletoe's package runs its slow punctuation scan

import mistletoe  # noqa: E402
from mistletoe import core_tokens, span_token, span_tokenizer  # noqa: E402

# The versions whose scanner this module reproduces (tests/engine/test_chunking_speedup.py).
SUPPORTED_VERSIONS = frozenset({"1.6.0"})

_ACTIVE = re.compile(r"[\\*_\[\]!]")

# A literal each pattern cannot match without (see mistletoe/span_token.py).
_REQUIRED_LITERAL: dict[type, str] = {
    span_token.InlineCode: "`",
    span_token.Strikethrough: "~~",
    span_token.AutoLink: "<",
    span_token.EscapeSequence: "\\",
    span_token.LineBreak: "\n",
}


def find_tokens(string: str, token_types: list[Any], fallback_token: Any) -> list[Any]:
    tokens = []
    for token_type in token_types:
        literal = _REQUIRED_LITERAL.get(token_type)
        if literal is not None and literal not in string:
            continue
        for m in token_type.find(string):
            tokens.append(
                span_tokenizer.ParseToken(m.start(), m.end(), m, string, token_type, fallback_token)
            )
    return sorted(tokens)


def find_core_tokens(string: str, root: Any) -> list[Any]:
    delimiters: list[Any] = []
    matches: list[Any] = []
    escaped = False
    in_delimiter_run: str | None = None
    in_image = False
    start = 0
    i = 0
    n = len(string)
    code_pattern = core_tokens.code_pattern
    has_backtick = "`" in string  # a code span needs one; skip the costly regex scan
    code_match = code_pattern.search(string) if has_backtick else None
    while i < n:
        if not escaped and in_delimiter_run is None and not in_image:
            active = _ACTIVE.search(string, i)
            nxt = active.start() if active is not None else n
            if code_match is not None and code_match.start() < nxt:
                nxt = code_match.start()
            if nxt >= n:
                break
            i = nxt
        if code_match is not None and i == code_match.start():
            if in_delimiter_run is not None:
                delimiters.append(core_tokens.Delimiter(start, i if not escaped else i - 1, string))
                in_delimiter_run = None
                escaped = False
            core_tokens._code_matches.append(code_match)
            i = code_match.end()
            code_match = code_pattern.search(string, i)
            continue
        c = string[i]
        if c == "\\" and not escaped:
            escaped = True
            i += 1
            continue
        if in_delimiter_run is not None and (c != in_delimiter_run or escaped):
            delimiters.append(core_tokens.Delimiter(start, i if not escaped else i - 1, string))
            in_delimiter_run = None
        if in_delimiter_run is None and (c == "*" or c == "_") and not escaped:
            in_delimiter_run = c
            start = i
        if not escaped:
            if c == "[":
                if not in_image:
                    delimiters.append(core_tokens.Delimiter(i, i + 1, string))
                else:
                    delimiters.append(core_tokens.Delimiter(i - 1, i + 1, string))
                    in_image = False
            elif c == "!":
                in_image = True
            elif c == "]":
                i = core_tokens.find_link_image(string, i, delimiters, matches, root)
                code_match = code_pattern.search(string, i) if has_backtick else None
            elif in_image:
                in_image = False
        else:
            escaped = False
        i += 1
    if in_delimiter_run:
        delimiters.append(core_tokens.Delimiter(start, i, string))
    core_tokens.process_emphasis(string, None, delimiters, matches)
    return matches


def is_supported() -> bool:
    """Whether the installed mistletoe is one this module reproduces exactly."""
    return getattr(mistletoe, "__version__", None) in SUPPORTED_VERSIONS


@contextmanager
def fast_scanners() -> Iterator[bool]:
    """Use the fast scanners for the mistletoe calls inside the block; yields whether it did.

    Not thread-safe by itself: mistletoe's state is module-global, so callers serialize
    (the chunker holds its mistletoe lock).
    """
    if not is_supported():
        yield False
        return
    saved = core_tokens.find_core_tokens, span_tokenizer.find_tokens
    core_tokens.find_core_tokens = find_core_tokens
    span_tokenizer.find_tokens = find_tokens
    try:
        yield True
    finally:
        core_tokens.find_core_tokens, span_tokenizer.find_tokens = saved
