"""The one wikilink parser: the engine, the chunker and the preview all read links here."""

from __future__ import annotations

import array
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..records import FieldLink, Link

# The one wikilink syntax (SPEC "Wikilinks", ReMe's WikilinkHandler): optional `!`
# (an embed), a target without []|# or newline, optional #anchor, optional |alias.
# Every delimiter is ASCII, so the same pattern also runs over UTF-8 bytes (the
# chunker's plain path needs byte offsets) and finds the same links.
WIKILINK_PATTERN = (
    r"(?P<embed>!)?"
    r"\[\[(?P<target>[^\[\]|#\n]+?)"
    r"(?:\#(?P<anchor>[^\[\]|\n]+))?"
    r"(?:\|(?P<alias>[^\[\]\n]+))?\]\]"
)
# What is searched is that pattern without its `!`, which is read from the character
# before the match: a pattern that may open with `!` has no literal prefix, and `re`
# tried it at every character of a body. Over 10,000 memories that search was an eighth
# of a cold build's parsing, ~15 times what a search for `[[` costs (issue 19). Both find
# the same links: no link ends in `!`, so the one before a match is never another's.
_LINK_PATTERN = WIKILINK_PATTERN.removeprefix(r"(?P<embed>!)?")
_WIKILINK = re.compile(_LINK_PATTERN)
_WIKILINK_BYTES = re.compile(_LINK_PATTERN.encode("ascii"))
_BANG = ord("!")

# Links kept per memory (issue 23). ReMe keeps every distinct (target, anchor) link of a
# body as a graph edge, with no budget. On a memory of 1,000,000 distinct links
# (`[[x1.md]] [[x2.md]] ...`, 15 MB) reme-ai 0.4.2.0 gave no answer within 600 s
# (measured), so bounding the graph loses no answer ReMe gives. reme-tui kept them all:
# ~285 MB and ~6 s to build the records, ~200 MB more for the graph's two maps, and
# `search --no-cache` at 1,000 memories took ~590 MB and ~13 s, over the 500 MB /
# 10 s for one hostile file. So the first MAX_LINKS_PER_MEMORY distinct links, in order of
# appearance, are kept (graph edges, neighbours, dangling checks, tag suggestions); the
# rest are counted without a record each and reported as `links-too-many`. The link text
# stays ordinary searchable text (SPEC "Chunks"), so search answers do not change. No real
# memory comes near: ReMe's digest `## Sources` and day-index pages list one link per note,
# the sample workspaces a handful a memory. Measured with the budget on that workspace:
# ~425 MB / ~8 s --no-cache, ~470 MB saving, ~290 MB / ~1.7 s warm.
MAX_LINKS_PER_MEMORY = 10_000


@dataclass(frozen=True, slots=True)
class Wikilink:
    """One ``[[target#anchor|alias]]`` occurrence in a text, as written.

    ``target`` is stripped and never empty (an empty target is no link); ``anchor`` and
    ``alias`` are stripped, None when absent; ``embed`` is the leading ``!``;
    ``start``/``end`` span the whole match, ``!`` included.
    """

    target: str
    anchor: str | None
    alias: str | None
    embed: bool
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class LinkScan:
    """A body's links as kept (``parse_links``), and what the budget left out."""

    links: list[Link]
    dropped: int = 0  # distinct (target, anchor) links past the budget: counted, not kept
    first_dropped_line: int | None = None  # file line of the first of them


def find_wikilinks(text: str) -> Iterator[Wikilink]:
    """Every wikilink of ``text`` in order, repeats included."""
    if "[[" not in text:
        return
    for match in _WIKILINK.finditer(text):
        found = _wikilink(match)
        if found is not None:
            yield found


def _wikilink(match: re.Match[str]) -> Wikilink | None:
    target = match.group("target").strip()
    if not target:
        return None  # an empty target is no link
    anchor, alias = match.group("anchor"), match.group("alias")
    start = match.start()
    embed = start > 0 and match.string[start - 1] == "!"
    return Wikilink(
        target,
        None if anchor is None else anchor.strip(),
        None if alias is None else alias.strip(),
        embed,
        start - 1 if embed else start,
        match.end(),
    )


def wikilink_byte_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of the wikilinks in UTF-8 ``data`` (the same links ``find_wikilinks`` sees)."""
    if b"[[" not in data:
        return []
    return [
        _with_bang(m)
        for m in _WIKILINK_BYTES.finditer(data)
        if m.group("target").decode("utf-8", "ignore").strip()
    ]


def _with_bang(match: re.Match[bytes]) -> tuple[int, int]:
    start = match.start()
    return (start - 1 if start and match.string[start - 1] == _BANG else start), match.end()


def parse_links(body: str, first_line: int = 1) -> list[Link]:
    """Wikilinks of a body in order of appearance, deduplicated by (target, anchor), at
    most ``MAX_LINKS_PER_MEMORY`` of them (``scan_links`` also says what was left out)."""
    return scan_links(body, first_line).links


def scan_links(body: str, first_line: int = 1, limit: int = MAX_LINKS_PER_MEMORY) -> LinkScan:
    """The first ``limit`` distinct links of a body as records, and a count of the rest."""
    links: list[Link] = []
    seen: set[tuple[str, str | None]] = set()
    line = first_line
    scanned_to = 0
    if "[[" not in body:
        return LinkScan(links)
    matches = _WIKILINK.finditer(body)
    for match in matches:
        found = _wikilink(match)
        if found is None:
            continue
        key = (found.target, found.anchor)
        if key in seen:
            continue
        line += body.count("\n", scanned_to, found.start)
        scanned_to = found.start
        if len(links) >= limit:
            seen.add(key)
            return LinkScan(links, 1 + _count_distinct_past(matches, seen), line)
        seen.add(key)
        links.append(Link(found.target, found.anchor, found.alias, line, found.embed))
    return LinkScan(links)


def _count_distinct_past(
    matches: Iterator[re.Match[str]], seen: set[tuple[str, str | None]]
) -> int:
    """Distinct (target, anchor) keys among the remaining matches that are not in ``seen``.

    No record and no key is kept: one 8-byte hash per link in a flat array, made distinct
    at the end (~8 MB for a moment at 1,000,000 links). A 64-bit collision, odds ~1 in
    30 million at a million links, would undercount by one; the count is only reported.
    """
    hashes = array.array("q")
    for match in matches:
        target, anchor = match.group("target", "anchor")
        target = target.strip()
        if not target:
            continue
        key = (target, None if anchor is None else anchor.strip())
        if key not in seen:
            hashes.append(hash(key))
    if not hashes:
        return 0
    return int(np.unique(np.frombuffer(hashes, dtype=np.int64)).size)


def parse_field_links(
    frontmatter: Mapping[str, Any], line_of: Callable[[str], int | None]
) -> list[FieldLink]:
    """Wikilinks inside frontmatter values (strings, nested in lists or mappings), by key.

    `line_of(key)` gives the file line of a top-level key, for diagnostics.
    """
    found: list[FieldLink] = []
    seen: set[tuple[str, str]] = set()
    for key, value in frontmatter.items():
        for text in _strings(value):
            for link in find_wikilinks(text):
                target = link.target
                if (key, target) not in seen:
                    seen.add((key, target))
                    found.append(FieldLink(field=str(key), target=target, line=line_of(str(key))))
    return found


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > 8:  # hostile nesting: provenance never sits this deep
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
