"""One row of the results list, built from a search hit or a browsed memory."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

_CJK = re.compile(r"[\u4e00-\u9fff]")
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


def term_pattern(terms: list[str] | tuple[str, ...]) -> re.Pattern[str] | None:
    """A case-insensitive regex matching the query terms the way the tokenizer splits words."""
    return _compiled_terms(tuple(sorted({t for t in terms if t}, key=lambda t: (-len(t), t))))


@lru_cache(maxsize=256)
def _compiled_terms(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """Compiled once per set of terms. The boundaries are written as ``\\w`` lookarounds
    with the CJK range case-sensitive (``(?-i:...)``): a negated class with that range under
    IGNORECASE made each compile ~5 ms, paid again by every keystroke's new terms. Each
    word comes first and looks behind itself for its start (``(?<!\\wword)``, a fixed
    width): a pattern that opens with a literal lets the scanner skip to the words' first
    letters, twice as fast over a 3 KB chunk as a leading lookbehind tried at every
    character (every shown row and preview block runs it)."""
    cjk = [re.escape(term) for term in terms if _CJK.fullmatch(term)]
    words = [re.escape(term) for term in terms if not _CJK.fullmatch(term)]
    parts = [
        rf"{word}(?:(?<!\w{word})|(?<=(?-i:[\u4e00-\u9fff]){word})){_WORD_END}" for word in words
    ]
    parts.extend(cjk)
    if not parts:
        return None
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
    text: str, pattern: re.Pattern[str] | None, width: int = 240, visible: int | None = None
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
