"""Explain (issue 20): one test per stage, each failing when that stage says the wrong thing,
and the arithmetic of a returned memory equal to the search's own scores."""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

import pytest

from reme_tui.engine import Engine, EngineConfig, Explanation, Filters, SearchQuery
from reme_tui.engine.reme import DEFAULT_LAYOUT
from reme_tui.engine.search import parse_meta
from tests.engine.tiny_model import build_tiny_model
from tests.helpers import memory, write_workspace

FILES = {
    "daily/2026-03-01/deploy.md": memory(
        "# Deploy\n\nThe atlas deploy ran twice; the deploy script broke.\n",
        tags=["project_atlas", "ops"],
    ),
    "daily/2026-03-05/atlas.md": memory(
        "# Atlas\n\nAtlas planning notes. See [[digest/wiki/runbook.md]].\n",
        tags=["project_atlas"],
    ),
    "daily/2026-03-09/variant.md": memory(
        "# Variant\n\nThe atlas deploy from the other team.\n", tags=["project-atlas"]
    ),
    "daily/2026-03-12/overlimit.md": memory(
        "# Over\n\nAn atlas deploy note with too many tags.\n",
        tags=["alpha", "beta", "gamma", "project_atlas"],
    ),
    "daily/2026-03-15/voided.md": (
        "---\nname: 2026\nmemory_tags: [project_atlas]\n---\n# Voided\n\natlas deploy again.\n"
    ),
    "digest/wiki/runbook.md": memory("# Runbook\n\nHow to restart the service.\n", tags=["ops"]),
    "digest/wiki/undated.md": memory("# Undated\n\nAtlas deploy checklist.\n", tags=["ops"]),
    "notes/outside-folder.md": memory("atlas deploy\n"),
}

QUERY = "atlas deploy"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


@pytest.fixture
def engine(workspace: Path) -> Engine:
    return Engine.open(workspace)


def explain(engine: Engine, path: str, text: str = QUERY, **kwargs: object) -> Explanation:
    return engine.explain(path, SearchQuery(text, **kwargs))  # type: ignore[arg-type]


def rank_in(engine: Engine, path: str, query: SearchQuery) -> tuple[int, float] | None:
    for rank, hit in enumerate(engine.search(query).hits, 1):
        if hit.path == path:
            return rank, hit.score
    return None


# -- returned: rank, score and the BM25 arithmetic --------------------------------------


def test_a_returned_memory_has_the_search_rank_and_exact_score_arithmetic(engine: Engine) -> None:
    query = SearchQuery(QUERY, limit=10)
    for path in ("daily/2026-03-01/deploy.md", "digest/wiki/undated.md"):
        found = rank_in(engine, path, query)
        assert found is not None
        result = engine.explain(path, query)
        assert result.dropped_at is None
        assert (result.rank, result.score) == found
        assert result.verdict.startswith(f"returned at rank {found[0]} ")
        keyword = result.stage("keyword")
        assert keyword is not None and keyword.passed
        (chunk,) = keyword.data["chunks"]
        assert chunk["score"] == found[1]
        assert abs(sum(t["added"] for t in chunk["terms"]) - found[1]) <= 1e-9
        # Each term's part is BM25 of the data shown (float64 here, float32 in the index).
        n = keyword.data["documents"]
        k1, b = keyword.data["k1"], keyword.data["b"]
        norm = 1 - b + b * chunk["length"] / chunk["avg_length"]
        assert chunk["length_norm"] == pytest.approx(norm)
        for term in chunk["terms"]:
            idf = math.log(1 + (n - term["df"] + 0.5) / (term["df"] + 0.5))
            assert term["idf"] == pytest.approx(idf, rel=1e-6)
            expected = idf * term["tf"] * (k1 + 1) / (term["tf"] + k1 * norm)
            assert term["part"] == pytest.approx(expected, rel=1e-5)
        assert {t["term"] for t in chunk["terms"] if t["tf"]} == {"atlas", "deploy"}
        deploy = next(t for t in chunk["terms"] if t["term"] == "deploy")
        if path.endswith("deploy.md"):
            assert deploy["tf"] == 3  # "deploy", "deploy", and the heading's "Deploy"


# -- discovery -----------------------------------------------------------------------


def test_discovery_says_why_a_file_is_not_a_memory(engine: Engine, workspace: Path) -> None:
    outside_folder = explain(engine, "notes/outside-folder.md")
    assert outside_folder.dropped_at == "discovery"
    assert outside_folder.stages[0].data["reason"] == "not-memory-folder"
    assert len(outside_folder.stages) == 1
    missing = explain(engine, "daily/2026-03-01/nope.md")
    assert (missing.dropped_at, missing.exists) == ("discovery", False)
    assert missing.stages[0].data["reason"] == "missing"
    outside = explain(engine, "../elsewhere.md")
    assert outside.stages[0].data["reason"] == "outside"
    not_md = explain(engine, "daily/2026-03-01/deploy.txt")
    assert not_md.exists is False


def test_discovery_reports_the_scans_symlink_decision(workspace: Path, tmp_path: Path) -> None:
    target = tmp_path / "secret.md"
    target.write_text(memory("atlas deploy\n"), encoding="utf-8")
    os.symlink(target, workspace / "daily" / "link.md")
    engine = Engine.open(workspace)
    result = explain(engine, "daily/link.md")
    assert result.dropped_at == "discovery"
    assert result.stages[0].data["reason"] == "symlink-outside"


def test_discovery_of_an_indexed_memory_passes(engine: Engine) -> None:
    stage = explain(engine, "digest/wiki/runbook.md").stages[0]
    assert (stage.stage, stage.passed, stage.data["reason"]) == ("discovery", True, "indexed")


# -- frontmatter and tags ----------------------------------------------------------------


def test_voided_frontmatter_is_shown_with_its_line_and_drops_the_tag(engine: Engine) -> None:
    result = explain(engine, "daily/2026-03-15/voided.md", filters=Filters(tags=("project_atlas",)))
    frontmatter = result.stage("frontmatter")
    assert frontmatter is not None and not frontmatter.passed
    assert (frontmatter.data["code"], frontmatter.data["line"]) == ("name-not-string", 2)
    assert result.dropped_at == "tags"
    tags = result.stage("tags")
    assert tags is not None and [h["kind"] for h in tags.data["hints"]] == ["voided"]
    # Without a tag filter it is returned anyway: the body is still indexed.
    assert explain(engine, "daily/2026-03-15/voided.md", limit=10).returned


def test_a_tag_past_the_third_is_a_dropped_item_and_the_reason_it_is_filtered(
    engine: Engine,
) -> None:
    result = explain(
        engine, "daily/2026-03-12/overlimit.md", filters=Filters(tags=("project_atlas",))
    )
    frontmatter = result.stage("frontmatter")
    assert frontmatter is not None and frontmatter.passed
    outcomes = [(i["tag"], i["outcome"]) for i in frontmatter.data["items"]]
    assert outcomes == [
        ("alpha", "kept"),
        ("beta", "kept"),
        ("gamma", "kept"),
        ("project_atlas", "over-limit"),
    ]
    assert frontmatter.data["tags"] == ["alpha", "beta", "gamma"]
    assert result.dropped_at == "tags"
    tags = result.stage("tags")
    assert tags is not None
    (hint,) = tags.data["hints"]
    assert (hint["kind"], hint["asked"]) == ("over-limit", "project_atlas")
    assert "item 4" in hint["text"]


def test_tag_filter_any_all_and_excluded(engine: Engine) -> None:
    path = "daily/2026-03-05/atlas.md"  # carries project_atlas only
    any_of = explain(engine, path, filters=Filters(tags=("project_atlas", "ops")), limit=10)
    stage = any_of.stage("tags")
    assert stage is not None and stage.passed and stage.data["matched"] == ["project_atlas"]
    assert any_of.returned
    all_of = explain(engine, path, filters=Filters(tags=("project_atlas", "ops"), all_tags=True))
    assert all_of.dropped_at == "tags"
    stage = all_of.stage("tags")
    assert stage is not None and stage.data["mode"] == "all" and "`ops`" in stage.detail
    # deploy.md carries both: ALL keeps it.
    assert explain(
        engine,
        "daily/2026-03-01/deploy.md",
        filters=Filters(tags=("project_atlas", "ops"), all_tags=True),
    ).returned
    excluded = explain(
        engine, "daily/2026-03-01/deploy.md", filters=Filters(exclude_tags=("ops",)), limit=10
    )
    assert excluded.dropped_at == "tags"
    stage = excluded.stage("tags")
    assert stage is not None and stage.data["excluded_matched"] == ["ops"]


def test_a_near_duplicate_spelling_of_the_asked_tag_is_named(engine: Engine) -> None:
    result = explain(
        engine, "daily/2026-03-09/variant.md", filters=Filters(tags=("project_atlas",))
    )
    assert result.dropped_at == "tags"
    tags = result.stage("tags")
    assert tags is not None
    (hint,) = tags.data["hints"]
    assert (hint["kind"], hint["tag"], hint["asked"]) == (
        "variant",
        "project-atlas",
        "project_atlas",
    )
    assert "carries `project-atlas`; you asked `project_atlas`" in result.verdict


# -- dates, paths, metadata ------------------------------------------------------------------


def test_date_filter_is_the_path_date_against_since_until(engine: Engine) -> None:
    late = explain(engine, "daily/2026-03-01/deploy.md", filters=Filters(since="2026-03-05"))
    assert late.dropped_at == "dates"
    dates = late.stage("dates")
    assert dates is not None
    assert (dates.data["date"], dates.data["since"]) == ("2026-03-01", "2026-03-05")
    assert "before the start 2026-03-05" in dates.detail
    kept = explain(engine, "daily/2026-03-05/atlas.md", filters=Filters(since="2026-03-05"))
    assert kept.stage("dates").passed  # type: ignore[union-attr]
    undated = Filters(since="2026-03-05")
    assert explain(engine, "digest/wiki/undated.md", filters=undated).stage("dates").passed  # type: ignore[union-attr]
    strict = explain(
        engine, "digest/wiki/undated.md", filters=Filters(since="2026-03-05", strict_dates=True)
    )
    assert strict.dropped_at == "dates" and "strict" in strict.stage("dates").detail  # type: ignore[union-attr]


def test_path_prefix_filter(engine: Engine) -> None:
    result = explain(engine, "digest/wiki/undated.md", filters=Filters(path_prefixes=("daily/",)))
    assert result.dropped_at == "paths"
    stage = result.stage("paths")
    assert stage is not None and stage.data["prefixes"] == ["daily/"]
    exact = explain(
        engine, "digest/wiki/undated.md", filters=Filters(paths=("digest/wiki/undated.md",))
    )
    assert exact.returned and exact.stage("paths").passed  # type: ignore[union-attr]


def test_metadata_filter_shows_the_value_it_compared(workspace: Path) -> None:
    write_workspace(
        workspace,
        {"daily/2026-03-20/typed.md": memory("atlas deploy\n", extra="type: note")},
    )
    layout = replace(DEFAULT_LAYOUT, include_frontmatter_in_metadata=True)
    engine = Engine.open(workspace, EngineConfig(layout=layout))
    result = explain(
        engine, "daily/2026-03-20/typed.md", filters=Filters(meta=(parse_meta("type=decision"),))
    )
    assert result.dropped_at == "metadata"
    stage = result.stage("metadata")
    assert stage is not None
    (test,) = stage.data["tests"]
    assert (test["key"], test["actual"], test["matched"]) == ("type", "'note'", False)
    assert explain(
        engine, "daily/2026-03-20/typed.md", filters=Filters(meta=(parse_meta("type=note"),))
    ).returned


# -- keyword candidates and the cut-off ---------------------------------------------------


def test_no_query_word_in_it_is_a_keyword_drop(engine: Engine) -> None:
    result = explain(engine, "digest/wiki/runbook.md")
    assert result.dropped_at == "keyword"
    stage = result.stage("keyword")
    assert stage is not None and "no chunk contains" in stage.detail


def test_limit_and_min_score_cut_off(engine: Engine) -> None:
    query = SearchQuery(QUERY, limit=10)
    ranked = [h.path for h in engine.search(query).hits]
    second = ranked[1]
    result = engine.explain(second, SearchQuery(QUERY, limit=1))
    assert result.dropped_at == "cutoff"
    cutoff = result.stage("cutoff")
    assert cutoff is not None
    assert (cutoff.data["reason"], cutoff.data["rank"], cutoff.data["limit"]) == ("limit", 2, 1)
    first_score = engine.search(query).hits[0].score
    high = engine.explain(second, SearchQuery(QUERY, limit=10, min_score=first_score))
    assert high.dropped_at == "cutoff"
    assert high.stage("cutoff").data["reason"] == "min_score"  # type: ignore[union-attr]


def test_past_the_candidates_is_a_keyword_drop_with_its_rank(workspace: Path) -> None:
    many = {
        f"daily/2026-04-{day:02d}/n.md": memory(f"atlas {'atlas ' * day}\n", tags=["x"])
        for day in range(1, 9)
    }
    engine = Engine.open(write_workspace(workspace, many))
    query = SearchQuery("atlas deploy", limit=1)  # 5 candidates
    everything = engine.search(SearchQuery("atlas deploy", limit=100)).hits
    assert len(everything) > 6
    sixth = everything[6].path
    result = engine.explain(sixth, query)
    assert result.dropped_at == "keyword"
    keyword = result.stage("keyword")
    assert keyword is not None and keyword.data["candidates"] == 5
    (chunk,) = keyword.data["chunks"]
    assert chunk["rank"] is None and chunk["rank_among_matching"] == 7


# -- link expansion ----------------------------------------------------------------------


def test_a_neighbour_of_a_returned_result_says_whose(engine: Engine) -> None:
    result = explain(engine, "digest/wiki/runbook.md", limit=10)
    assert result.dropped_at == "keyword"
    links = result.stage("links")
    assert links is not None and links.passed
    assert links.data["neighbour_of"] == [
        {"result": "daily/2026-03-05/atlas.md", "direction": "outlink"}
    ]
    assert "neighbour" in result.verdict
    alone = explain(engine, "digest/wiki/runbook.md", filters=Filters(tags=("ops",)))
    assert not alone.stage("links").passed  # type: ignore[union-attr]


# -- vector branch and fusion ---------------------------------------------------------------


def test_fusion_arithmetic_equals_the_fused_score(workspace: Path, tmp_path: Path) -> None:
    write_workspace(
        workspace,
        {
            "daily/2026-05-01/cat.md": memory("kitten cat pet atlas\n"),
            "daily/2026-05-02/code.md": memory("python code bug\n"),
        },
    )
    engine = Engine.open(workspace)
    assert engine.load_model(str(build_tiny_model(tmp_path / "model"))) is None
    assert engine.wait_for_embeddings(10)
    query = SearchQuery("kitten atlas", limit=10)
    response = engine.search(query)
    assert response.hybrid
    for hit in response.hits:
        result = engine.explain(hit.path, query)
        assert result.score == response.hits[result.rank - 1].score  # type: ignore[operator]
        fusion = result.stage("fusion")
        assert fusion is not None and fusion.data["hybrid"]
        row = fusion.data["chunks"][0]
        assert row["total"] == row["score"] == hit.score
        vector = result.stage("vector")
        assert vector is not None and not vector.skipped
        ranks = [c["rank"] for c in vector.data["chunks"]]
        assert hit.vector_rank in ranks


def test_term_contributions_sum_to_every_score_exactly(tmp_path: Path) -> None:
    """Over the sample workspace, every returned chunk: the terms' ``added`` sum to the
    search's score exactly (adding the float32 parts in float64 would miss by ~1e-7)."""
    import shutil

    sample = Path(__file__).resolve().parents[2] / "sample_workspace"
    engine = Engine.open(shutil.copytree(sample, tmp_path / "ws"))
    for text in ("atlas deploy launch", "budget review priya alice"):
        query = SearchQuery(text, limit=40)
        hits = engine.search(query).hits
        assert len(hits) > 10
        for path in dict.fromkeys(h.path for h in hits):
            keyword = engine.explain(path, query).stage("keyword")
            assert keyword is not None
            for chunk in keyword.data["chunks"]:
                hit = next(
                    (h for h in hits if (h.path, h.start_line) == (path, chunk["start_line"])),
                    None,
                )
                if hit is not None:
                    assert sum(t["added"] for t in chunk["terms"]) == hit.score
