"""The one wikilink parser (engine, chunker and preview use it) and the link graph (networkx)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import networkx as nx

from .records import Link

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


@dataclass(frozen=True, slots=True)
class Edge:
    """All links from one file to one neighbour, with their anchors in order."""

    source: str
    target: str
    anchors: tuple[str, ...]


class LinkGraph:
    """Directed graph of wikilinks. Nodes are paths; `memory` marks indexed memories.

    Edges to paths that are not indexed memories are kept (dangling) for diagnostics but
    never reported as neighbours.
    """

    def __init__(self) -> None:
        self._graph: nx.DiGraph = nx.DiGraph()

    def set_file(self, path: str, links: list[Link]) -> None:
        """Replace the outgoing links of one memory (marking it as a memory node)."""
        graph = self._graph
        former_targets: list[str] = []
        if path in graph:
            former_targets = list(graph.succ[path])
            graph.remove_edges_from([(path, target) for target in former_targets])
            graph.nodes[path]["memory"] = True
        else:
            graph.add_node(path, memory=True)
        anchors_by_target: dict[str, list[str]] = {}
        for link in links:
            anchors = anchors_by_target.setdefault(link.target, [])
            if link.anchor:
                anchors.append(link.anchor)
        for target in anchors_by_target:
            if target not in graph:
                graph.add_node(target, memory=False)
        graph.add_edges_from(
            (path, target, {"anchors": anchors}) for target, anchors in anchors_by_target.items()
        )
        self._prune(path, former_targets)

    def load(self, files: Iterable[tuple[str, Iterable[Link]]]) -> None:
        """Build the whole graph at once (warm starts): one bulk insert instead of one
        networkx call per memory."""
        graph = nx.DiGraph()
        memories: list[str] = []
        edges: list[tuple[str, str, dict[str, list[str]]]] = []
        for path, links in files:
            memories.append(path)
            anchors_by_target: dict[str, list[str]] = {}
            for link in links:
                anchors = anchors_by_target.setdefault(link.target, [])
                if link.anchor:
                    anchors.append(link.anchor)
            edges.extend((path, t, {"anchors": a}) for t, a in anchors_by_target.items())
        graph.add_nodes_from(memories, memory=True)
        known = set(memories)
        graph.add_nodes_from(
            {target for _, target, _ in edges if target not in known}, memory=False
        )
        graph.add_edges_from(edges)
        self._graph = graph

    def remove_file(self, path: str) -> None:
        """Forget a memory's outlinks; it stays as a dangling target if others link to it."""
        graph = self._graph
        if path not in graph:
            return
        targets = list(graph.succ[path])
        graph.remove_edges_from([(path, target) for target in targets])
        graph.nodes[path]["memory"] = False
        self._prune(path, targets)

    def _prune(self, path: str, former_targets: list[str] | None = None) -> None:
        """Drop non-memory nodes nothing links to any more."""
        graph = self._graph
        candidates = [path, *(former_targets or ())]
        for node in candidates:
            if node in graph and not graph.nodes[node]["memory"] and not graph.pred[node]:
                graph.remove_node(node)

    def outlinks(self, path: str) -> list[Edge]:
        """Edges to indexed memories, in order of first appearance in the file."""
        if path not in self._graph:
            return []
        graph = self._graph
        return [
            Edge(path, target, tuple(data["anchors"]))
            for _, target, data in graph.out_edges(path, data=True)
            if graph.nodes[target]["memory"]
        ]

    def inlinks(self, path: str) -> list[Edge]:
        """Edges from indexed memories to `path`, sources sorted by path."""
        if path not in self._graph or not self._graph.nodes[path]["memory"]:
            return []
        graph = self._graph
        return [
            Edge(source, path, tuple(graph.edges[source, path]["anchors"]))
            for source in sorted(graph.predecessors(path))
            if graph.nodes[source]["memory"]
        ]

    def dangling_from(self, path: str) -> list[str]:
        """Targets of `path` that are not indexed memories."""
        if path not in self._graph:
            return []
        graph = self._graph
        return [t for t in graph.successors(path) if not graph.nodes[t]["memory"]]

    def snapshot(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """Outgoing edges per memory (for equality-with-rebuild checks)."""
        graph = self._graph
        return {
            node: [(t, tuple(d["anchors"])) for _, t, d in graph.out_edges(node, data=True)]
            for node, data in graph.nodes(data=True)
            if data["memory"]
        }

    @property
    def graph(self) -> nx.DiGraph:
        return self._graph
