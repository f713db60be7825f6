"""Workspace text made safe for a terminal: control, escape and bidi characters shown, not obeyed.

Tags, names, descriptions, file names and memory text come from files anyone (an agent, a
synced folder) may have written. Printed raw, ``ESC ] 0;title BEL`` retitles the terminal,
``ESC [2J`` clears it, OSC 8 plants links, and bidi overrides reorder what is read.
``for_terminal`` replaces every C0 control except tab and newline, DEL, every C1 control
and the bidi embedding/override/isolate characters with a visible escape (``\\x1b``,
``\\u202e``); ``for_json`` escapes the same characters inside a JSON document (where C0 is
already escaped by ``json``), so the document still parses to the same strings.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Beyond C0: DEL, C1, bidi embeddings/overrides/isolates, line/paragraph separators, and
# lone surrogates: a file name that is not UTF-8 (``bad\xff.md``) decodes to U+DCFF, which
# would otherwise go out as the raw byte 0xFF and make the output invalid UTF-8.
_UNSAFE_PAST_C0 = "\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"
# What `for_terminal` escapes: every C0 but \t and \n, and the rest.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f{_UNSAFE_PAST_C0}]")
# What no painted segment may hold: every C0 (a painted line has no tab or newline left:
# Textual expands and splits them first) and the rest (the app's paint guard drops them).
NEVER_PAINTED = re.compile(f"[\x00-\x1f{_UNSAFE_PAST_C0}]")
# Inside JSON text every C0 control is already escaped; what remains raw is the rest
# (surrogates escaped as ``\udcff``: json.loads gives back the same string, os.fsencode the bytes).
_JSON_UNSAFE = re.compile(f"[{_UNSAFE_PAST_C0}]")
_ESCAPED_BYTES = range(0xDC80, 0xDD00)  # what surrogateescape makes of the bytes 0x80-0xFF


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in _ESCAPED_BYTES:
        return f"\\x{code - 0xDC00:02x}"  # the byte the file name really holds
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def for_terminal(text: object) -> str:
    """``text`` as a string a terminal shows and never executes."""
    value = text if isinstance(text, str) else str(text)
    return _UNSAFE.sub(_visible, value)


# Characters that draw nothing (zero-width space/joiners, soft hyphen, BOM, word joiner,
# variation selectors, Hangul fillers, tag characters): in a tag or name they make two
# different values look identical, so one-line fields show them (issue 26). A joiner or
# variation selector after a symbol is part of an emoji sequence and stays.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
_IN_EMOJI = frozenset("\u200d\ufe0e\ufe0f")


def _visible_invisible(match: re.Match[str]) -> str:
    char, start = match.group(), match.start()
    before = match.string[start - 1] if start else ""
    if char in _IN_EMOJI and before and not before.isalnum() and not before.isspace():
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def show_invisible(text: str) -> str:
    """``text`` with every character that draws nothing written as its escape."""
    return _INVISIBLE.sub(_visible_invisible, text)


def for_terminal_line(text: object) -> str:
    """Like ``for_terminal`` for one-line fields (tags, names, paths): newlines escaped too,
    and characters that draw nothing shown."""
    return show_invisible(for_terminal(text).replace("\n", "\\n"))


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def for_json(document: Any, *, indent: int | None = 2) -> str:
    """``document`` as JSON with no raw control, C1 or bidi character anywhere."""
    text = json.dumps(document, ensure_ascii=False, indent=indent)
    return _JSON_UNSAFE.sub(_json_escape, text)
