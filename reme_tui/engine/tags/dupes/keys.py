"""The keys tags are compared by: folded, separator-free, fingerprints, n-grams."""

from __future__ import annotations

import re
import unicodedata

#: Legal-form tokens dropped by the second fingerprint key (``acme_corp`` -> ``acme``).
LEGAL_FORMS = frozenset(
    {
        "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited",
        "llc", "llp", "plc", "gmbh", "ag", "bv", "nv", "pty", "srl",
    }
)  # fmt: skip


_TOKEN = re.compile(r"(?:[^\W_]|[+#])+")  # alphanumerics, plus the + and # of c++ / c#


_SPECIAL_FOLDS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)


def fold(text: str) -> str:
    """Casefold and strip accents (NFKD, drop combining marks, recompose)."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    decomposed = unicodedata.normalize("NFKD", folded.translate(_SPECIAL_FOLDS))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped)


def tokens_of(tag: str) -> tuple[str, ...]:
    """Folded tokens: runs of alphanumerics (and ``+``/``#``)."""
    return tuple(_TOKEN.findall(fold(tag)))


def separator_key(tag: str) -> str:
    """``project_a``, ``Project-A``, ``projecta`` -> ``projecta``; ``v1_2`` -> ``v1.2``."""
    parts = tokens_of(tag)
    if not parts:
        return fold(tag)
    out = parts[0]
    for part in parts[1:]:
        joiner = "." if out[-1].isdigit() and part[0].isdigit() else ""
        out += joiner + part
    return out


def fingerprint_key(tag: str) -> str:
    """OpenRefine fingerprint: unique folded tokens, sorted, joined by a space."""
    return " ".join(sorted(set(tokens_of(tag))))


def legal_fingerprint_key(tag: str) -> str:
    """Fingerprint after dropping trailing legal-form tokens (``acme_corp`` -> ``acme``)."""
    parts = list(tokens_of(tag))
    while len(parts) > 1 and parts[-1] in LEGAL_FORMS:
        parts.pop()
    return " ".join(sorted(set(parts)))


def ngram_fingerprint(tag: str, n: int = 2) -> str:
    """OpenRefine n-gram fingerprint of the separator key: unique sorted n-grams joined."""
    return ngram_key(separator_key(tag), n)


def ngram_key(key: str, n: int = 2) -> str:
    if len(key) <= n:
        return key
    return "".join(sorted({key[i : i + n] for i in range(len(key) - n + 1)}))
