"""The facade: search pipeline, filters, tags, links, diagnostics, incremental apply."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from reme_tui.engine.engine import Engine, EngineConfig, WorkspaceError
from reme_tui.engine.search.filters import Filters
from reme_tui.engine.search.types import SearchError, SearchQuery
from tests.helpers import memory, write_workspace

FILES = {
    "daily/2026-03-01/kickoff.md": memory(
        "Atlas kickoff: budget approved by [[digest/personal/alice.md|Alice]].\n",
        name="Kickoff",
        tags=["Alice", "Project_Atlas"],
    ),
    "daily/2026-03-10/review.md": memory(
        "Budget review for atlas, see [[digest/wiki/atlas.md#Budget]] and [[digest/nope.md]].\n",
        name="Review",
        tags=["project atlas", "bob"],
    ),
    "daily/2026-04-02.md": memory(
        "Day index: budget of [[daily/2026-03-10/review.md]].\n", tags=["bob"]
    ),
    "digest/wiki/atlas.md": memory(
        "# Atlas\n\n## Budget\n\nThe atlas budget is 30k.\n", name="Atlas", tags=["project_atlas"]
    ),
    "digest/personal/alice.md": memory(
        "Alice prefers short budget memos.\n", name="Alice", tags=["alice"]
    ),
    "notes/not-a-memory.md": "budget budget budget\n",
    "README.md": "budget\n",
}


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    write_workspace(tmp_path, FILES)
    return Engine.open(tmp_path)


def paths(engine: Engine, **kwargs: object) -> list[str]:
    return [h.path for h in engine.search(SearchQuery(**kwargs)).hits]  # type: ignore[arg-type]


def test_only_daily_and_digest_markdown_are_memories(engine: Engine) -> None:
    assert engine.paths() == sorted(p for p in FILES if p.startswith(("daily/", "digest/")))


def test_tags_are_canonical_and_listed_by_count_then_name(engine: Engine) -> None:
    assert engine.list_tags() == [("project_atlas", 3), ("alice", 2), ("bob", 2)]
    assert engine.list_tags("tag") == [("alice", 2), ("bob", 2), ("project_atlas", 3)]
    assert engine.list_tags("tag", "desc")[0] == ("project_atlas", 3)
    assert engine.list_tags("file_count", "asc") == [("alice", 2), ("bob", 2), ("project_atlas", 3)]


def test_search_requires_text_and_positive_limit(engine: Engine) -> None:
    with pytest.raises(SearchError, match="empty"):
        engine.search(SearchQuery(text="   "))
    with pytest.raises(SearchError, match="positive"):
        engine.search(SearchQuery(text="budget", limit=0))


def test_tag_filters_any_all_exclude(engine: Engine) -> None:
    anyof = paths(engine, text="budget", filters=Filters(tags=("ALICE", "bob")), limit=50)
    assert set(anyof) == {
        "daily/2026-03-01/kickoff.md",
        "digest/personal/alice.md",
        "daily/2026-03-10/review.md",
        "daily/2026-04-02.md",
    }
    both = Filters(tags=("alice", "project atlas"), all_tags=True)
    allof = paths(engine, text="budget", filters=both, limit=50)
    assert allof == ["daily/2026-03-01/kickoff.md"]
    excluded = paths(engine, text="budget", filters=Filters(exclude_tags=("bob",)), limit=50)
    assert "daily/2026-03-10/review.md" not in excluded and "digest/wiki/atlas.md" in excluded
    assert paths(engine, text="budget", filters=Filters(tags=("unknown",))) == []
    with pytest.raises(SearchError, match="no valid values"):
        engine.search(SearchQuery(text="budget", filters=Filters(tags=("---", "  "))))


def test_tag_filter_info_counts_matched_paths(engine: Engine) -> None:
    response = engine.search(
        SearchQuery(text="budget", filters=Filters(tags=("Project-Atlas", "project_atlas")))
    )
    assert response.tag_filter is not None
    assert response.tag_filter.tags == ["project-atlas", "project_atlas"]
    assert response.tag_filter.matched_paths == 3


def test_date_range_is_inclusive_and_undated_pass_unless_strict(engine: Engine) -> None:
    loose_range = Filters(since="2026-3-10", until="2026-04-02")
    loose = set(paths(engine, text="budget", filters=loose_range, limit=50))
    assert loose == {
        "daily/2026-03-10/review.md",
        "daily/2026-04-02.md",
        "digest/wiki/atlas.md",
        "digest/personal/alice.md",
    }
    strict_range = Filters(since="2026-03-10", until="2026-04-02", strict_dates=True)
    strict = set(paths(engine, text="budget", filters=strict_range, limit=50))
    assert strict == {"daily/2026-03-10/review.md", "daily/2026-04-02.md"}


def test_invalid_date_is_ignored_with_warning(engine: Engine) -> None:
    response = engine.search(
        SearchQuery(text="budget", filters=Filters(since="2026-13-45"), limit=50)
    )
    assert len(response.hits) == 5
    assert response.warnings and "since" in response.warnings[0]


def test_limit_min_score_and_deterministic_ties(tmp_path: Path) -> None:
    same = memory("alpha beta\n", tags=["x"])
    write_workspace(tmp_path, {f"digest/wiki/n{i}.md": same for i in (3, 1, 2)})
    engine = Engine.open(tmp_path)
    assert paths(engine, text="alpha") == [f"digest/wiki/n{i}.md" for i in (1, 2, 3)]
    assert len(paths(engine, text="alpha", limit=2)) == 2
    top = engine.search(SearchQuery(text="alpha")).hits[0].score
    assert paths(engine, text="alpha", min_score=top + 1) == []
    assert len(paths(engine, text="alpha", min_score=top)) == 3


def test_stopword_only_query_finds_nothing(engine: Engine) -> None:
    assert paths(engine, text="the and of") == []


def test_link_expansion_groups_anchors_and_skips_dangling(engine: Engine) -> None:
    response = engine.search(SearchQuery(text="review atlas", limit=50))
    review = response.links["daily/2026-03-10/review.md"]
    assert [(n.path, n.anchors, n.name) for n in review.outlinks] == [
        ("digest/wiki/atlas.md", ("Budget",), "Atlas")
    ]
    assert [n.path for n in review.inlinks] == ["daily/2026-04-02.md"]
    assert review.dangling == ["digest/nope.md"]


def test_neighbours_inlinks_sorted_by_source(engine: Engine) -> None:
    alice = engine.neighbours("digest/personal/alice.md")
    assert [n.path for n in alice.inlinks] == ["daily/2026-03-01/kickoff.md"]
    assert alice.outlinks == []


def test_browse_lists_filtered_memories_newest_first(engine: Engine) -> None:
    browsed = [m.path for m in engine.browse(Filters(tags=("project_atlas",)))]
    assert browsed == [
        "daily/2026-03-10/review.md",
        "daily/2026-03-01/kickoff.md",
        "digest/wiki/atlas.md",
    ]


def test_diagnostics_include_dangling_links_with_lines(engine: Engine) -> None:
    dangling = [d for d in engine.diagnostics() if d.code == "link-dangling"]
    assert [(d.path, d.line) for d in dangling] == [("daily/2026-03-10/review.md", 6)]


def test_missing_workspace_is_a_workspace_error(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        Engine.open(tmp_path / "nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(WorkspaceError, match="not a directory"):
        Engine.open(tmp_path / "file")


def test_all_markdown_option_browses_every_md(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    engine = Engine.open(tmp_path, EngineConfig(all_markdown=True))
    assert "notes/not-a-memory.md" in engine.paths() and "README.md" in engine.paths()


def test_build_reports_progress(tmp_path: Path) -> None:
    write_workspace(tmp_path, FILES)
    seen: list[tuple[int, int]] = []
    Engine.open(tmp_path, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (5, 5)


def test_parallel_cold_build_equals_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_workspace(tmp_path, FILES)
    serial = Engine.open(tmp_path)
    monkeypatch.setenv("REME_TUI_WORKERS", "2")
    parallel = Engine.open(tmp_path)
    assert parallel.fingerprint() == serial.fingerprint()
    assert parallel.diagnostics() == serial.diagnostics()


def test_link_graph_forgets_targets_nothing_links_to(tmp_path: Path) -> None:
    write_workspace(tmp_path, {"digest/a.md": memory("[[digest/gone.md]] [[digest/b.md]]\n")})
    engine = Engine.open(tmp_path)
    write_workspace(tmp_path, {"digest/a.md": memory("no links now\n")})
    engine.apply(["digest/a.md"])
    assert "digest/gone.md" not in engine._state.links
    assert engine.neighbours("digest/a.md").dangling == []


@pytest.mark.parametrize(
    "failure",
    [
        BrokenProcessPool("simulated"),
        OSError("simulated"),
        # What starting the resource tracker raises under a captured sys.stderr (the app).
        ValueError("bad value(s) in fds_to_keep"),
    ],
    ids=repr,
)
def test_parallel_build_falls_back_to_serial_when_the_pool_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    from reme_tui.engine.index import loader

    write_workspace(tmp_path, FILES)
    serial = Engine.open(tmp_path)

    class BrokenPool:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise failure

    monkeypatch.setenv("REME_TUI_WORKERS", "2")
    monkeypatch.setattr(loader, "ProcessPoolExecutor", BrokenPool)
    assert Engine.open(tmp_path).fingerprint() == serial.fingerprint()


def test_start_method_never_spawns_an_unknown_main(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from reme_tui.engine.index import loader

    monkeypatch.setattr(threading, "active_count", lambda: 3)
    assert loader.start_method() is None  # pytest is not reme-tui's entry point
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert loader.start_method() == "fork"


def test_builds_beside_a_ui_thread_stay_serial_unless_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from reme_tui.engine.index import loader

    monkeypatch.delenv("REME_TUI_WORKERS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    assert loader.worker_count(10_000) == 4  # the main thread: headless modes
    seen: list[int] = []
    thread = threading.Thread(target=lambda: seen.append(loader.worker_count(10_000)))
    thread.start()
    thread.join()
    assert seen == [1]  # the app's build worker
    monkeypatch.setenv("REME_TUI_WORKERS", "2")
    assert loader.worker_count(10_000, in_thread=True) == 2
