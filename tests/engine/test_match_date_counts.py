"""The chart's counts: how many matching chunks carry each date, counted in arrays
(issue 19), equal to the dates of every hit of a search asked for all of them."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from reme_tui.engine import Engine
from reme_tui.engine.index import state as state_module
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


@pytest.mark.parametrize(
    ("seed", "compact", "touched_limit"),
    [(0, False, 1 << 16), (1, True, 1 << 16), (2, True, 5), (3, False, 3)],
)
def test_date_counts_follow_random_churn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, compact: bool, touched_limit: int
) -> None:
    """The date table is caught up from the paths each change touched (issue 19): after
    any mix of new, deleted, moved-to-another-day and rewritten memories, with the keyword
    index compacted (path ids handed out anew) and the touched log starting over, the counts
    are those of every hit, and the frontmatter keys those some memory uses."""
    monkeypatch.setattr(state_module, "TOUCHED_LIMIT", touched_limit)
    rng = random.Random(seed)
    engine = _engine(tmp_path)
    root = engine.root
    live = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    for step in range(30):
        action = rng.choice(["add", "delete", "move", "rewrite"])
        touched: list[Path] = []
        if action == "add" or not live:
            rel = f"daily/2026-03-0{rng.randint(1, 9)}/s{step}.md"
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(memory(f"budget {rng.choice(['plan', 'x'])}\n"), "utf-8")
            live.append(rel)
            touched.append(root / rel)
        elif action == "delete":
            rel = live.pop(rng.randrange(len(live)))
            (root / rel).unlink()
            touched.append(root / rel)
        elif action == "move":
            rel = live.pop(rng.randrange(len(live)))
            moved = f"daily/2026-04-0{rng.randint(1, 9)}/m{step}.md"
            (root / moved).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).rename(root / moved)
            live.append(moved)
            touched += [root / rel, root / moved]
        else:  # a new body, and maybe a frontmatter key no other memory has
            rel = rng.choice(live)
            extra = rng.choice(["", "", f"status: s{step}", "owner: x"])
            body = rng.choice(["budget plan\n", "other\n"])
            (root / rel).write_text(memory(body, extra=extra), "utf-8")
            touched.append(root / rel)
        engine.apply(touched)
        if compact and step % 4 == 3:  # path ids handed out anew
            with engine._lock:
                engine._state.keyword.compact()
        for text in ("budget", "plan"):
            assert engine.match_date_counts(text) == dates_of_every_hit(engine, text), (step, text)
        with engine._lock:
            every_key = {k for m in engine._state.memories.values() for k in m.frontmatter}
        assert engine.frontmatter_keys() == every_key, step
