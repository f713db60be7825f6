"""ReMe-compatible BM25 tokenizer: regex words + one token per CJK ideograph, minus stopwords.

Behaviour matches reme-ai 0.4.2.0's ``regex`` tokenizer followed by its shared
post-processing, token for token and in the same order:

1. every CJK ideograph in U+4E00..U+9FFF, in order of appearance;
2. then every ``\\b\\w\\w+\\b`` match (Unicode word characters, at least two)
   in the text with those ideographs replaced by spaces;
3. each token is lowercased *after* it was cut (the regexes run on the original
   text), then tokens found in the stopword list are dropped.

Cutting before lowercasing only matters for exotic characters whose lowercase
form is longer or has another word-character class (``İ`` -> ``i̇``); for pure
ASCII text both orders agree, which the fast path below relies on.
"""

from __future__ import annotations

import re
from importlib.resources import files

__all__ = ["STOPWORDS", "load_stopwords", "tokenize"]

_WORD_RE = re.compile(r"\b\w\w+\b")
_IDEOGRAPH_RE = re.compile("[\u4e00-\u9fff]")


def load_stopwords() -> frozenset[str]:
    """Read the stopword list shipped with the engine (stripped, lowercased, blanks skipped)."""
    text = (files("reme_tui.engine") / "data" / "reme_stopwords.txt").read_text("utf-8")
    return frozenset(word.strip().lower() for word in text.splitlines() if word.strip())


STOPWORDS: frozenset[str] = load_stopwords()


def tokenize(text: str) -> list[str]:
    """Tokens of ``text`` exactly as ReMe's BM25 index sees them (duplicates kept)."""
    if text.isascii():
        # No ideographs possible, and ASCII lowercasing never changes a match.
        return [t for t in _WORD_RE.findall(text.lower()) if t not in STOPWORDS]
    ideographs = _IDEOGRAPH_RE.findall(text)
    rest = _IDEOGRAPH_RE.sub(" ", text) if ideographs else text
    raw = ideographs + _WORD_RE.findall(rest)
    return [t for t in map(str.lower, raw) if t not in STOPWORDS]
