"""The one wikilink parser: the engine, the chunker and the preview all read links here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

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
_WIKILINK = re.compile(WIKILINK_PATTERN)
_WIKILINK_BYTES = re.compile(WIKILINK_PATTERN.encode("ascii"))


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


def find_wikilinks(text: str) -> Iterator[Wikilink]:
    """Every wikilink of ``text`` in order, repeats included."""
    if "[[" not in text:
        return
    for match in _WIKILINK.finditer(text):
        target = match.group("target").strip()
        if not target:
            continue
        anchor, alias = match.group("anchor"), match.group("alias")
        yield Wikilink(
            target,
            None if anchor is None else anchor.strip(),
            None if alias is None else alias.strip(),
            match.group("embed") is not None,
            match.start(),
            match.end(),
        )


def wikilink_byte_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of the wikilinks in UTF-8 ``data`` (the same links ``find_wikilinks`` sees)."""
    if b"[[" not in data:
        return []
    return [
        m.span()
        for m in _WIKILINK_BYTES.finditer(data)
        if m.group("target").decode("utf-8", "ignore").strip()
    ]


def parse_links(body: str, first_line: int = 1) -> list[Link]:
    """Wikilinks of a body in order of appearance, deduplicated by (target, anchor)."""
    links: list[Link] = []
    seen: set[tuple[str, str | None]] = set()
    line = first_line
    scanned_to = 0
    for found in find_wikilinks(body):
        key = (found.target, found.anchor)
        if key in seen:
            continue
        seen.add(key)
        line += body.count("\n", scanned_to, found.start)
        scanned_to = found.start
        links.append(Link(found.target, found.anchor, found.alias, line, found.embed))
    return links


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
