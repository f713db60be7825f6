"""The link graph's cost per link (issue 23): a memory of countless distinct dangling links
must not cost a set and a list per target; answers across one and several sources stay."""

from __future__ import annotations

import tracemalloc

from reme_tui.engine.index.link_graph import Edge, LinkGraph
from reme_tui.engine.records import Link

LINKS = 10_000


def test_lone_targets_cost_little_more_than_their_dict_entries() -> None:
    links = [Link(f"nowhere-{i}", None, None, i + 1) for i in range(LINKS)]
    graph = LinkGraph()
    tracemalloc.start()
    try:
        graph.set_file("daily/a.md", links)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held / LINKS < 100  # bytes a link; a set and a list per target made it ~310
    assert len(graph.dangling_from("daily/a.md")) == LINKS


def _link(target: str, anchor: str | None = None) -> Link:
    return Link(target, anchor, None, 1)


def test_sources_come_and_go_between_one_and_many() -> None:
    graph = LinkGraph()
    graph.set_file("t.md", [])
    graph.set_file("a.md", [_link("t.md", "x"), _link("t.md", "y")])
    graph.set_file("b.md", [_link("t.md")])
    graph.set_file("c.md", [_link("t.md")])
    assert graph.inlinks("t.md") == [
        Edge("a.md", "t.md", ("x", "y")),
        Edge("b.md", "t.md", ()),
        Edge("c.md", "t.md", ()),
    ]
    graph.remove_file("b.md")
    graph.remove_file("a.md")
    assert graph.inlinks("t.md") == [Edge("c.md", "t.md", ())]
    graph.set_file("c.md", [_link("elsewhere.md")])  # c no longer links to t
    assert graph.inlinks("t.md") == []
    assert "elsewhere.md" in graph and graph.dangling_from("c.md") == ["elsewhere.md"]
    graph.set_file("c.md", [_link("t.md"), _link("t.md")])  # the same source twice
    graph.load([("t.md", []), ("c.md", [_link("t.md")]), ("d.md", [_link("t.md")])])
    assert [e.source for e in graph.inlinks("t.md")] == ["c.md", "d.md"]
    assert graph.snapshot()["c.md"] == [("t.md", ())]
