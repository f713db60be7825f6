"""The one wikilink parser (engine, chunker and preview use it) and the link graph."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
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


@dataclass(frozen=True, slots=True)
class Edge:
    """All links from one file to one neighbour, with their anchors in order."""

    source: str
    target: str
    anchors: tuple[str, ...]


class LinkGraph:
    """Directed graph of wikilinks between paths; the sources are indexed memories.

    Edges to paths that are not indexed memories are kept (dangling) for diagnostics but
    never reported as neighbours. Plain dicts: a warm start loads every edge of the
    workspace at once, and networkx's per-edge attribute dicts made that the slowest part.
    """

    def __init__(self) -> None:
        self._out: dict[str, dict[str, list[str]]] = {}  # source -> target -> anchors
        self._in: dict[str, set[str]] = {}  # target -> sources
        self._memories: set[str] = set()

    def __contains__(self, path: object) -> bool:
        """A memory, or a path some memory links to."""
        return path in self._memories or path in self._in

    def set_file(self, path: str, links: list[Link]) -> None:
        """Replace the outgoing links of one memory (marking it as a memory node)."""
        self._drop_outlinks(path)
        self._memories.add(path)
        targets = _anchors_by_target(links)
        self._out[path] = targets
        for target in targets:
            self._in.setdefault(target, set()).add(path)

    def load(self, files: Iterable[tuple[str, Iterable[Link]]]) -> None:
        """Build the whole graph at once (warm starts)."""
        out: dict[str, dict[str, list[str]]] = {}
        incoming: dict[str, set[str]] = {}
        for path, links in files:
            targets = _anchors_by_target(links)
            out[path] = targets
            for target in targets:
                sources = incoming.get(target)
                if sources is None:
                    incoming[target] = {path}
                else:
                    sources.add(path)
        self._out, self._in, self._memories = out, incoming, set(out)

    def remove_file(self, path: str) -> None:
        """Forget a memory's outlinks; it stays as a dangling target if others link to it."""
        self._drop_outlinks(path)
        self._memories.discard(path)

    def _drop_outlinks(self, path: str) -> None:
        for target in self._out.pop(path, {}):
            sources = self._in.get(target)
            if sources is not None:
                sources.discard(path)
                if not sources:
                    del self._in[target]

    def outlinks(self, path: str) -> list[Edge]:
        """Edges to indexed memories, in order of first appearance in the file."""
        memories = self._memories
        return [
            Edge(path, target, tuple(anchors))
            for target, anchors in self._out.get(path, {}).items()
            if target in memories
        ]

    def inlinks(self, path: str) -> list[Edge]:
        """Edges from indexed memories to `path`, sources sorted by path."""
        if path not in self._memories:
            return []
        return [
            Edge(source, path, tuple(self._out[source][path]))
            for source in sorted(self._in.get(path, ()))
            if source in self._memories
        ]

    def dangling_from(self, path: str) -> list[str]:
        """Targets of `path` that are not indexed memories."""
        return [t for t in self._out.get(path, {}) if t not in self._memories]

    def snapshot(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """Outgoing edges per memory (for equality-with-rebuild checks)."""
        return {
            node: [(t, tuple(a)) for t, a in self._out.get(node, {}).items()]
            for node in self._memories
        }


def _anchors_by_target(links: Iterable[Link]) -> dict[str, list[str]]:
    """Targets in order of first appearance, each with its anchors in order."""
    targets: dict[str, list[str]] = {}
    for link in links:
        anchors = targets.get(link.target)
        if anchors is None:
            anchors = targets[link.target] = []
        if link.anchor:
            anchors.append(link.anchor)
    return targets
