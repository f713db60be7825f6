"""The link graph: wikilinks between memories, both directions, dangling targets kept."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..records import Link


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
