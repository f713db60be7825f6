"""One row of the results list, built from a search hit or a browsed memory."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import islice
from typing import Any


# The CJK range makes a class slow to compile (~2-5 ms each, before the app's first
# screen if done on import): these are compiled with the first search's terms.
@cache
def _cjk() -> re.Pattern[str]:
    return re.compile(r"[\u4e00-\u9fff]")


@cache
def _glue() -> re.Pattern[str]:
    """A word character the tokenizer glues to its neighbours (any but an ideograph)."""
    return re.compile(r"[^\W\u4e00-\u9fff]", re.IGNORECASE)


@cache
def _glued() -> re.Pattern[str]:
    """A term made only of such characters."""
    return re.compile(r"[^\W\u4e00-\u9fff]+")


# A term starts and ends where no word character the tokenizer would glue to it stands
# (CJK ideographs are split apart, so they are no such character).
_WORD_END = r"(?:(?!\w)|(?=(?-i:[\u4e00-\u9fff])))"  # not before one
# Markdown noise left out of one-line snippets: heading marks and list bullets.
_MARKUP = re.compile(r"(?m)^\s*(?:#{1,6}|[-*+]|\d+[.)])\s+")
_EMPHASIS = re.compile(r"\*\*|__|`")


@dataclass(frozen=True, slots=True)
class ResultRow:
    path: str
    start_line: int | None
    end_line: int | None
    date: str | None
    tags: tuple[str, ...]
    name: str | None
    description: str | None
    text: str
    score: float | None = None
    keyword_score: float | None = None
    vector_score: float | None = None
    keyword_rank: int | None = None
    vector_rank: int | None = None
    matched_terms: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """A stable id for keeping the selection across refreshes."""
        return f"{self.path}:{self.start_line or 0}"

    @classmethod
    def from_hit(cls, hit: Any) -> ResultRow:
        return cls(
            path=hit.path,
            start_line=hit.start_line,
            end_line=hit.end_line,
            date=hit.date,
            tags=tuple(hit.tags),
            name=hit.name,
            description=hit.description,
            text=hit.text,
            score=hit.score,
            keyword_score=hit.keyword_score,
            vector_score=hit.vector_score,
            keyword_rank=hit.keyword_rank,
            vector_rank=hit.vector_rank,
            matched_terms=tuple(hit.matched_terms),
        )

    @classmethod
    def from_memory(cls, memory: Any) -> ResultRow:
        first = memory.chunks[0] if memory.chunks else None
        return cls(
            path=memory.path,
            start_line=None,
            end_line=None,
            date=memory.date,
            tags=tuple(memory.tags),
            name=memory.name,
            description=memory.description,
            text=first.text if first else "",
        )


class TermPattern:
    """The query terms as they are found in a text: case-insensitively, each where the
    tokenizer would cut it out (no word character it would glue on either side; CJK
    ideographs are cut apart, so they glue to nothing).

    Compiling the boundaries into one regex cost ~1.5 ms a term, again for every new set
    of terms: the CJK range in a lookaround is a 21,000-character set that Python's
    compiler walks (issue 19: half of showing a keystroke's results). Here the regex is
    the bare alternation, and each match's two neighbours are checked with one class
    compiled once. That finds what the boundary regex finds when every word term is
    made of such word characters, as the tokenizer's terms are: a longer term refused at
    a position means every shorter one there ends on a word character too. Other terms
    (a letter whose lowercase adds a mark, as "İ" does; a hand-made list) keep the
    boundary regex."""

    __slots__ = ("_ascii", "_exact", "_loose", "_single")

    def __init__(self, terms: tuple[str, ...]) -> None:
        self._single = frozenset(term for term in terms if _cjk().fullmatch(term))
        words = [re.escape(term) for term in terms if term not in self._single]
        self._loose: re.Pattern[str] | None = None
        self._ascii: re.Pattern[str] | None = None
        self._exact: re.Pattern[str] | None = None
        if all(_glued().fullmatch(term) for term in terms if term not in self._single):
            self._loose = re.compile("|".join(map(re.escape, terms)), re.IGNORECASE)
            # In ASCII text no ideograph stands beside a word, so \w is the boundary and
            # the scan stays in C (the word first, as in `_boundary_regex`).
            ascii_parts = [rf"{word}(?<!\w{word})(?!\w)" for word in words]
            self._ascii = re.compile("|".join(ascii_parts), re.IGNORECASE) if words else None
        else:
            self._exact = _boundary_regex(terms)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches in ``text``, left to right, not overlapping (the regex's own
        iterator where one regex decides: every shown row and preview line runs this)."""
        if self._loose is None:
            assert self._exact is not None
            return self._exact.finditer(text)
        if text.isascii():
            return iter(()) if self._ascii is None else self._ascii.finditer(text)
        return self._checked(self._loose, text)

    def _checked(self, loose: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
        search, glue, single = loose.search, _glue().match, self._single
        at = 0
        while (match := search(text, at)) is not None:
            start, end = match.span()
            if match.group() in single or not (
                (start and glue(text, start - 1)) or glue(text, end)
            ):
                yield match
                at = end
            else:
                at = start + 1

    @property
    def checks_neighbours(self) -> bool:
        """True when matches are checked one by one (the terms are tokenizer terms)."""
        return self._loose is not None

    def search(self, text: str) -> re.Match[str] | None:
        """The first match in ``text``, or None."""
        return next(self.finditer(text), None)


def term_pattern(terms: list[str] | tuple[str, ...]) -> TermPattern | None:
    """The query terms to find in rows and previews (see `TermPattern`); None without any."""
    return _compiled_terms(tuple(sorted({t for t in terms if t}, key=lambda t: (-len(t), t))))


@lru_cache(maxsize=256)
def _compiled_terms(terms: tuple[str, ...]) -> TermPattern | None:
    return TermPattern(terms) if terms else None


def _boundary_regex(terms: tuple[str, ...]) -> re.Pattern[str]:
    """The terms with their boundaries in one regex. Each word comes first and looks
    behind itself for its start (``(?<!\\wword)``, a fixed width): a pattern that opens
    with a literal lets the scanner skip to the words' first letters."""
    cjk = [re.escape(term) for term in terms if _cjk().fullmatch(term)]
    words = [re.escape(term) for term in terms if not _cjk().fullmatch(term)]
    parts = [
        rf"{word}(?:(?<!\w{word})|(?<=(?-i:[\u4e00-\u9fff]){word})){_WORD_END}" for word in words
    ]
    parts.extend(cjk)
    return re.compile("|".join(parts), re.IGNORECASE)


def densest_start(positions: list[int], window: int) -> int:
    """Of increasing ``positions``, the one starting the ``window`` (``[p, p + window)``)
    that holds the most of them; the earliest on ties. One pass (it runs for every row
    on every keystroke)."""
    best, most, end = positions[0], 0, 0
    for first, at in enumerate(positions):
        while end < len(positions) and positions[end] < at + window:
            end += 1
        if end - first > most:
            best, most = at, end - first
    return best


@lru_cache(maxsize=256)
def flat_text(text: str) -> str:
    """``text`` without Markdown markup, on one line with single spaces. Cached by text:
    each keystroke shows mostly the same chunks again under a new pattern, and this was
    half of drawing a row (issue 19). A hit's text is unpacked from the index for it (a
    copy), so the cache holds its keys too: 256 of them are a few pages of rows (~1.5 MB
    of 3 KB chunks; 2,048 were ~11 MB at 50,000 memories after a session of typing)."""
    return " ".join(_EMPHASIS.sub("", _MARKUP.sub(" ", text)).split())


def snippet(
    text: str, pattern: TermPattern | None, width: int = 240, visible: int | None = None
) -> str:
    """A one-line excerpt of ``text`` whose matched terms fall inside the first ``visible``
    columns (the row's width; the rest is cut by the list): the window starts a few words
    before the densest cluster of matches."""
    flat = flat_text(text)
    if not flat:
        return ""
    start = 0
    shown = visible or width
    lead = max(8, shown // 5)
    if pattern is not None:
        matches = [m.start() for m in islice(pattern.finditer(flat), 64)]
        if matches:
            best = densest_start(matches, shown - lead)
            if best + len(flat[best:].split(" ", 1)[0]) > shown - 1:
                start = flat.rfind(" ", 0, best - lead) + 1
    excerpt = flat[start : start + width]
    return ("…" if start else "") + excerpt


def explain(row: ResultRow) -> str | None:
    """How a search row was ranked: fused score, keyword and vector ranks (None when browsing)."""
    if row.score is None:
        return None
    parts = [f"score {row.score:.3f}"]
    if row.keyword_rank is not None:
        parts.append(f"keyword #{row.keyword_rank} ({row.keyword_score or 0:.3f})")
    if row.vector_rank is not None:
        parts.append(f"vector #{row.vector_rank} ({row.vector_score or 0:.3f})")
    return " · ".join(parts)
