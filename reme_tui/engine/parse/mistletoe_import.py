"""Import mistletoe without its start-up scan of every Unicode code point.

`mistletoe.core_tokens` builds its set of punctuation characters at import by calling
`unicodedata.category` on all 1,114,112 code points: 0.25 s on an idle machine, well over
0.5 s on a busy one, paid by every process that chunks a memory (each CLI run, the app, a
spawned build worker). The set depends only on the Unicode version of the running Python,
so it is shipped precomputed (`data/unicode_punctuation.txt`, one line per version) and
handed to the module in place of that one expression; the module is otherwise executed
from its own source, unchanged. For a Unicode version without a line, or a source that no
longer holds the expression, mistletoe is imported the ordinary way.
`tests/engine/test_mistletoe_import.py` checks the shipped sets against `unicodedata`.
"""

from __future__ import annotations

import importlib.util
import sys
import unicodedata
from importlib import resources
from pathlib import Path

MODULE = "mistletoe.core_tokens"
_SLOW_EXPRESSION = '{c for c in unicode_chrs if category(c).startswith("P")}'
_NAME = "_reme_tui_unicode_punctuation"
DATA = "unicode_punctuation.txt"


def compute_punctuation() -> frozenset[str]:
    """What mistletoe computes: every character whose Unicode category starts with P."""
    return frozenset(
        chr(i) for i in range(sys.maxunicode + 1) if unicodedata.category(chr(i)).startswith("P")
    )


def encode_ranges(chars: frozenset[str]) -> str:
    """`start-end` hex code point ranges, comma separated."""
    points = sorted(map(ord, chars))
    ranges: list[str] = []
    start = prev = points[0]
    for point in points[1:]:
        if point != prev + 1:
            ranges.append(f"{start:x}-{prev:x}")
            start = point
        prev = point
    ranges.append(f"{start:x}-{prev:x}")
    return ",".join(ranges)


def decode_ranges(text: str) -> frozenset[str]:
    chars: set[str] = set()
    for part in text.split(","):
        low, high = (int(v, 16) for v in part.split("-"))
        chars.update(chr(i) for i in range(low, high + 1))
    return frozenset(chars)


def shipped_punctuation(version: str = unicodedata.unidata_version) -> frozenset[str] | None:
    """The precomputed set for this Unicode version, or None when none is shipped."""
    try:
        text = resources.files("reme_tui.engine").joinpath("data", DATA).read_text("ascii")
    except OSError:
        return None
    for line in text.splitlines():
        found, _, ranges = line.partition(" ")
        if found == version and ranges:
            return decode_ranges(ranges)
    return None


def preload_core_tokens() -> bool:
    """Put a fast-built `mistletoe.core_tokens` in sys.modules before mistletoe's package
    imports it. True when done; False (nothing changed) when it cannot be done exactly."""
    if MODULE in sys.modules:
        return False
    punctuation = shipped_punctuation()
    package = importlib.util.find_spec("mistletoe")  # finds it without running it
    if punctuation is None or package is None or not package.submodule_search_locations:
        return False
    path = Path(next(iter(package.submodule_search_locations))) / "core_tokens.py"
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return False
    if source.count(_SLOW_EXPRESSION) != 1:
        return False
    spec = importlib.util.spec_from_file_location(MODULE, path)
    if spec is None:
        return False
    module = importlib.util.module_from_spec(spec)
    setattr(module, _NAME, set(punctuation))
    code = compile(source.replace(_SLOW_EXPRESSION, _NAME), str(path), "exec")
    sys.modules[MODULE] = module
    try:
        exec(code, module.__dict__)
    except Exception:
        del sys.modules[MODULE]
        return False
    delattr(module, _NAME)
    return True
