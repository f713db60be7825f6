"""A memory of countless distinct wikilinks (issue 23): the first MAX_LINKS_PER_MEMORY are
kept as links, the rest counted without a record each and reported as `links-too-many`;
the other memories answer as they did without the file."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from reme_tui.engine.codes import Code, Severity
from reme_tui.engine.engine import Engine
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.parse import wikilinks
from reme_tui.engine.parse.wikilinks import MAX_LINKS_PER_MEMORY, parse_links, scan_links
from reme_tui.engine.records import Link
from reme_tui.engine.search.types import SearchQuery, SearchResponse
from tests.helpers import memory, write_workspace

HOSTILE = "daily/2026-01-01/links.md"
OTHER = {
    "digest/ok.md": memory("zebra from ok [[digest/fine.md]]\n", tags=["good"]),
    "digest/fine.md": memory("zebra from fine, budget [[digest/ok.md#Top]]\n", tags=["fine"]),
    "daily/2026-01-02/plain.md": memory("zebra budget plain [[digest/ok.md]]\n"),
}
EXTRA = 5


def _hostile(kept: int, extra: int) -> str:
    """One link per line from line 5 (four frontmatter lines): the first to a memory, the
    rest to nowhere, repeats mixed in, and past the budget one more link to a memory."""
    lines = ["zebra hostile [[digest/ok.md]]"]
    lines += [f"[[nowhere-{i}]] [[digest/ok.md]]" for i in range(1, kept)]
    lines += ["[[digest/fine.md]] [[nowhere-1]]"]  # the first dropped, and a kept repeat
    lines += [f"[[nowhere-{kept + i}]] [[digest/fine.md]]" for i in range(1, extra)]
    return memory("\n".join(lines) + "\n")


def _answers(response: SearchResponse) -> tuple[list[tuple[str, int]], dict[str, object]]:
    hits = [(h.path, h.start_line) for h in response.hits if h.path != HOSTILE]
    links = {
        path: (
            [(n.path, n.anchors) for n in found.outlinks],
            [(n.path, n.anchors) for n in found.inlinks if n.path != HOSTILE],
        )
        for path, found in response.links.items()
        if path != HOSTILE
    }
    return hits, links


def test_past_the_budget_links_are_counted_and_reported(tmp_path: Path) -> None:
    text = _hostile(MAX_LINKS_PER_MEMORY, EXTRA)
    engine = Engine.open(write_workspace(tmp_path / "with", {**OTHER, HOSTILE: text}))
    hostile = engine.memory(HOSTILE)
    assert hostile is not None
    assert len(hostile.links) == MAX_LINKS_PER_MEMORY
    assert hostile.links[0] == Link("digest/ok.md", None, None, 5)
    assert hostile.links[-1].target == f"nowhere-{MAX_LINKS_PER_MEMORY - 1}"
    assert "digest/fine.md" not in {link.target for link in hostile.links}

    (too_many,) = [d for d in engine.diagnostics() if d.code == Code.LINKS_TOO_MANY]
    assert too_many.path == HOSTILE and too_many.severity is Severity.WARNING
    assert too_many.line == 5 + MAX_LINKS_PER_MEMORY  # the line of the first link dropped
    assert text.splitlines()[too_many.line - 1].startswith("[[digest/fine.md]]")
    assert too_many.message.startswith(f"{EXTRA} more distinct wikilinks")
    assert f"first {MAX_LINKS_PER_MEMORY:,}" in too_many.message
    assert too_many in hostile.diagnostics  # what the preview's warning notes show

    # The link kept points at ok.md; the one dropped does not reach fine.md's inlinks.
    query = SearchQuery(text="zebra", limit=50)
    with_file = engine.search(query)
    assert HOSTILE in [n.path for n in with_file.links["digest/ok.md"].inlinks]
    assert HOSTILE not in [n.path for n in with_file.links["digest/fine.md"].inlinks]
    assert "hostile" in {token for h in with_file.hits for token in h.text.split()}

    without = Engine.open(write_workspace(tmp_path / "without", OTHER))
    assert _answers(with_file) == _answers(without.search(query))
    other = [d for d in engine.diagnostics() if d.path != HOSTILE]
    assert other == without.diagnostics()

    # The record shape is unchanged: the saved index holds the capped links and the note.
    engine.attach_store(IndexStore(engine.root, tmp_path / "cache"))
    assert engine.save()
    warm = Engine.open(engine.root, store=IndexStore(engine.root, tmp_path / "cache"))
    assert warm.fingerprint() == engine.fingerprint()
    assert warm.memory(HOSTILE) == hostile
    assert warm.diagnostics() == engine.diagnostics()


def test_at_the_budget_nothing_is_dropped() -> None:
    body = "".join(f"[[n{i}]] [[n{i}]]\n" for i in range(MAX_LINKS_PER_MEMORY))
    scan = scan_links(body, first_line=3)
    assert len(scan.links) == MAX_LINKS_PER_MEMORY
    assert (scan.dropped, scan.first_dropped_line) == (0, None)
    assert scan.links[-1] == Link(f"n{MAX_LINKS_PER_MEMORY - 1}", None, None, 3 + 9_999)


def test_dropped_links_are_counted_by_target_and_anchor() -> None:
    # Past a budget of two: b#x, c, then repeats (stripped), a kept one again, and b#y.
    body = "[[a]] [[b]]\n[[ b # x ]] ![[c|C]] [[b#x]] [[ c ]] [[a]] [[ ]] [[b#y]]"
    scan = scan_links(body, first_line=10, limit=2)
    assert [link.target for link in scan.links] == ["a", "b"]
    assert (scan.dropped, scan.first_dropped_line) == (3, 11)
    assert parse_links(body) == scan_links(body).links  # under the real budget: all kept


def test_no_record_is_built_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 200_000
    body = " ".join(f"[[x{i}.md]]" for i in range(count)) + "\n"
    built = 0

    class CountedLink(Link):
        __slots__ = ()

        def __init__(self, *args: object, **kwargs: object) -> None:
            nonlocal built
            built += 1
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(wikilinks, "Link", CountedLink)
    tracemalloc.start()
    try:
        scan = scan_links(body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(scan.links) == MAX_LINKS_PER_MEMORY == built
    assert scan.dropped == count - MAX_LINKS_PER_MEMORY
    # ~10,000 records (~2 MB) and 8 bytes a dropped link; 200,000 records took ~60 MB.
    assert peak < 12 * 1024 * 1024, peak
