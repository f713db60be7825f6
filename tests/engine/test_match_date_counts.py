"""The chart's counts: how many matching chunks carry each date, counted in arrays
(issue 19), equal to the dates of every hit of a search asked for all of them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from reme_tui.engine import Engine
from reme_tui.engine.search import Filters, SearchQuery
from tests.helpers import memory, write_workspace


def dates_of_every_hit(
    engine: Engine, text: str, filters: Filters | None = None
) -> Counter[str | None]:
    """The reference: a search with room for every chunk, its hits' dates counted."""
    query = SearchQuery(text, filters=filters or Filters(), limit=10_000, expand_links=False)
    return Counter(hit.date for hit in engine.search(query).hits)


def _engine(tmp_path: Path) -> Engine:
    files = {
        f"daily/2026-03-0{day}/n{n}.md": memory(f"budget plan {n}\n\n## Part\n\nbudget again\n")
        for day in range(1, 4)
        for n in range(3)
    }
    files["digest/undated.md"] = memory("budget undated\n", tags=["alice"])
    files["digest/other.md"] = memory("nothing here\n", tags=["alice"])
    root = write_workspace(tmp_path / "ws", files)
    engine = Engine.create(root)
    engine.build(save=False)
    return engine


def test_date_counts_equal_the_dates_of_every_matching_chunk(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    cases = [
        ("budget", Filters()),
        ("plan", Filters()),
        ("budget", Filters(tags=("alice",))),
        ("budget", Filters(since="2026-03-02")),
        ("nothing", Filters()),
        ("absent", Filters()),
        ("budget", Filters(tags=("nobody",))),
    ]
    for text, filters in cases:
        expected = dates_of_every_hit(engine, text, filters)
        assert engine.match_date_counts(text, filters) == expected, (text, filters)
    assert engine.match_date_counts("budget")[None] == 1  # the undated digest


def test_date_counts_follow_a_changed_date_and_a_new_memory(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    before = engine.match_date_counts("budget")
    moved = engine.root / "daily/2026-03-01/n0.md"
    moved.rename(engine.root / "daily/2026-03-09-n0.md")
    (engine.root / "daily/2026-03-08").mkdir()
    (engine.root / "daily/2026-03-08/new.md").write_text(memory("budget new\n"), "utf-8")
    engine.apply(
        [moved, engine.root / "daily/2026-03-09-n0.md", engine.root / "daily/2026-03-08/new.md"]
    )
    after = engine.match_date_counts("budget")
    assert after == dates_of_every_hit(engine, "budget")
    assert after != before and after["2026-03-08"] == 1
