"""Tags that look identical but are different strings (issue 26): invisible characters
(zero-width space, joiners, soft hyphen, BOM, variation selectors, Hangul fillers), bidi
controls, NFC/NFD twins and Latin look-alikes from Cyrillic or Greek (``аlice``).

ReMe indexes each as its own tag and so does reme-tui; ``look_key`` is what the eye sees,
so such tags are grouped as near-duplicates and an edit adding one beside its twin warns.
"""

from __future__ import annotations

import re
import unicodedata

_UNSEEN = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)
# Lower-case Cyrillic and Greek letters drawn like a Latin letter in common fonts.
_LATIN_TWINS = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "ë", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "ï",
        "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ɡ": "g",
        "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x",
    }
)  # fmt: skip


_LATIN_TWIN_CHARS = frozenset(chr(code) for code in _LATIN_TWINS)
_IN_EMOJI = frozenset("\u200d\ufe0e\ufe0f")  # joiner and emoji/text selectors


def _named(chars: list[str]) -> str:
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed').title()}" for c in chars)


def how_it_deceives(tag: str) -> str | None:
    """Why ``tag`` can be mistaken for another tag, or None: characters that draw nothing
    (a joiner or selector after a symbol is part of an emoji and does not count), a
    decomposed (NFD) spelling, or Cyrillic/Greek letters among Latin ones."""
    hidden = sorted(
        {
            match.group()
            for match in _UNSEEN.finditer(tag)
            if not (
                match.group() in _IN_EMOJI
                and match.start()
                and not tag[match.start() - 1].isalnum()
                and not tag[match.start() - 1].isspace()
            )
        }
    )
    if hidden:
        return f"holds {_named(hidden[:3])}, drawn as nothing"
    if unicodedata.normalize("NFC", tag) != tag:
        return "is spelled decomposed (NFD), unlike its composed twin"
    lookalikes = sorted({c for c in tag.casefold() if c in _LATIN_TWIN_CHARS})
    if lookalikes and any("LATIN" in unicodedata.name(c, "") for c in tag):
        return f"mixes Latin letters with {_named(lookalikes[:3])}, drawn like a Latin letter"
    return None


def look_key(tag: str) -> str:
    """What a reader sees of ``tag``: compatibility-composed, case-folded, without the
    characters that draw nothing, with Cyrillic/Greek look-alikes read as Latin."""
    seen = _UNSEEN.sub("", unicodedata.normalize("NFKC", tag).casefold())
    return unicodedata.normalize("NFC", seen.translate(_LATIN_TWINS))


def looks_alike(a: str, b: str) -> bool:
    """Two different tags a reader cannot tell apart."""
    return a != b and look_key(a) == look_key(b)


def lookalike_of(tag: str, existing: list[str] | tuple[str, ...] | set[str]) -> str | None:
    """An existing tag that ``tag`` cannot be told apart from, if any (sorted, first)."""
    key = look_key(tag)
    return next(
        (other for other in sorted(existing) if other != tag and look_key(other) == key), None
    )
