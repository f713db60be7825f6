"""The link graph: wikilinks between memories, both directions, dangling targets kept."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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

    Most targets have one source and no anchor, so a lone source is stored as the path
    itself and anchors as a tuple (the empty one shared): a memory of 1,000,000 distinct
    dangling links held a set and a list per target, 318 of the graph's 386 MB (issue 23).
    A source's targets are a tuple, and only the few sources with anchored links keep a
    dict of their anchors: a dict of targets and anchors per memory was ~12 MB at 50,000
    memories (issue 19).
    """

    def __init__(self) -> None:
        self._out: dict[str, tuple[str, ...]] = {}  # source -> its targets, in order
        self._anchors: dict[str, dict[str, tuple[str, ...]]] = {}  # source -> target -> anchors
        self._in: dict[str, str | set[str]] = {}  # target -> its source, or its sources
        self._memories: set[str] = set()
        # What `load` was given, built into the dicts when the graph is first used.
        self._loaded: list[tuple[str, Iterable[Link]]] | None = None

    def __contains__(self, path: object) -> bool:
        """A memory, or a path some memory links to."""
        self._build()
        return path in self._memories or path in self._in

    def set_file(self, path: str, links: Sequence[Link]) -> None:
        """Replace the outgoing links of one memory (marking it as a memory node)."""
        self._build()
        self._drop_outlinks(path)
        self._memories.add(path)
        self._put(self._out, self._anchors, self._in, path, links)

    def load(self, files: list[tuple[str, Iterable[Link]]]) -> None:
        """The whole graph at once (warm starts), built when it is first used: the first
        screen of a warm start needs no link (0.25 s of a 50k restore went to this)."""
        self._out, self._anchors, self._in, self._memories = {}, {}, {}, set()
        self._loaded = files

    def prepare(self) -> None:
        """Build now what `load` left for the first use."""
        self._build()

    def _build(self) -> None:
        files = self._loaded
        if files is None:
            return
        out: dict[str, tuple[str, ...]] = {}
        anchors: dict[str, dict[str, tuple[str, ...]]] = {}
        incoming: dict[str, str | set[str]] = {}
        for path, links in files:
            self._put(out, anchors, incoming, path, links)
        self._out, self._anchors, self._in, self._memories = out, anchors, incoming, set(out)
        self._loaded = None

    @staticmethod
    def _put(
        out: dict[str, tuple[str, ...]],
        anchors: dict[str, dict[str, tuple[str, ...]]],
        incoming: dict[str, str | set[str]],
        path: str,
        links: Iterable[Link],
    ) -> None:
        by_target = _anchors_by_target(links)
        out[path] = tuple(by_target)
        anchored = {t: a for t, a in by_target.items() if a}
        if anchored:
            anchors[path] = anchored
        for target in by_target:
            _add_source(incoming, target, path)

    def remove_file(self, path: str) -> None:
        """Forget a memory's outlinks; it stays as a dangling target if others link to it."""
        self._build()
        self._drop_outlinks(path)
        self._memories.discard(path)

    def _drop_outlinks(self, path: str) -> None:
        incoming = self._in
        self._anchors.pop(path, None)
        for target in self._out.pop(path, ()):
            sources = incoming.get(target)
            if sources == path:
                del incoming[target]
            elif isinstance(sources, set):
                sources.discard(path)
                if len(sources) == 1:
                    incoming[target] = sources.pop()

    def outlinks(self, path: str) -> list[Edge]:
        """Edges to indexed memories, in order of first appearance in the file."""
        self._build()
        memories = self._memories
        anchors = self._anchors.get(path, {})
        return [
            Edge(path, target, anchors.get(target, ()))
            for target in self._out.get(path, ())
            if target in memories
        ]

    def inlinks(self, path: str) -> list[Edge]:
        """Edges from indexed memories to `path`, sources sorted by path."""
        self._build()
        if path not in self._memories:
            return []
        return [
            Edge(source, path, self._anchors.get(source, {}).get(path, ()))
            for source in sorted(_sources(self._in.get(path)))
            if source in self._memories
        ]

    def dangling_from(self, path: str) -> list[str]:
        """Targets of `path` that are not indexed memories."""
        self._build()
        return [t for t in self._out.get(path, ()) if t not in self._memories]

    def snapshot(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """Outgoing edges per memory (for equality-with-rebuild checks)."""
        self._build()
        return {
            node: [(t, self._anchors.get(node, {}).get(t, ())) for t in self._out.get(node, ())]
            for node in self._memories
        }


def _anchors_by_target(links: Iterable[Link]) -> dict[str, tuple[str, ...]]:
    """Targets in order of first appearance, each with its anchors in order."""
    targets: dict[str, list[str]] = {}
    for link in links:
        anchors = targets.get(link.target)
        if anchors is None:
            anchors = targets[link.target] = []
        if link.anchor:
            anchors.append(link.anchor)
    return {target: tuple(anchors) for target, anchors in targets.items()}


def _add_source(incoming: dict[str, str | set[str]], target: str, path: str) -> None:
    sources = incoming.get(target)
    if sources is None:
        incoming[target] = path
    elif isinstance(sources, set):
        sources.add(path)
    elif sources != path:
        incoming[target] = {sources, path}


def _sources(sources: str | set[str] | None) -> Iterable[str]:
    if sources is None:
        return ()
    return (sources,) if isinstance(sources, str) else sources
