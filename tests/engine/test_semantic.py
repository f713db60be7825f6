"""Hybrid search through the engine with the tiny offline model: fusion, filters,
incremental embedding, cache invalidation, persistence, degradation."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from reme_tui.engine.engine import Engine
from reme_tui.engine.index import semantic
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.index.vectors import Embedder, load_model
from reme_tui.engine.search.filters import Filters
from reme_tui.engine.search.fusion import RRF_K
from reme_tui.engine.search.types import SearchQuery
from tests.engine.tiny_model import build_tiny_model
from tests.helpers import memory, write_workspace

FILES = {
    "daily/2026-03-01/kitten.md": memory("my kitten kitten has soft fur and paws\n", tags=["pets"]),
    "daily/2026-03-02/puppy.md": memory("the puppy is a good pet dog\n", tags=["pets"]),
    "daily/2026-03-03/python.md": memory(
        "fixed a python bug in the function, kitten watched\n", tags=["work"]
    ),
    "daily/2026-03-04/bread.md": memory("baked bread and cheese soup recipe\n", tags=["food"]),
    "digest/weather.md": memory(
        "storm and rain in the forecast, see [[daily/2026-03-04/bread.md]]\n", tags=["misc"]
    ),
}


class CountingEmbedder(Embedder):
    """The real tiny model, recording every batch of texts it encodes."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner._model, inner.info)
        self.batches: list[list[str]] = []
        self.lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        with self.lock:
            self.batches.append(list(texts))
        return super().encode(texts)

    @property
    def texts(self) -> list[str]:
        return [t for batch in self.batches for t in batch]


@pytest.fixture(scope="module")
def model_dirs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("models")
    return build_tiny_model(base / "a", seed=0), build_tiny_model(base / "b", seed=1)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


def counting(model_dir: Path) -> CountingEmbedder:
    return CountingEmbedder(load_model(str(model_dir)))


def ready_engine(workspace: Path, embedder: Embedder, store: IndexStore | None = None) -> Engine:
    engine = Engine.open(workspace, store=store)
    engine.attach_model(embedder)
    assert engine.wait_for_embeddings(10)
    return engine


def vector_ranking(engine: Engine, embedder: Embedder, text: str) -> list[tuple[str, float]]:
    """The vector branch computed independently: cosine of the query with every chunk."""
    query = embedder.encode([text])[0]
    scored = []
    for path in engine.paths():
        for chunk in engine.memory(path).chunks:  # type: ignore[union-attr]
            vec = embedder.encode([chunk.text])[0]
            scored.append((path, float(np.dot(query.astype(np.float64), vec))))
    scored.sort(key=lambda item: (-item[1], item[0]))
    return scored


# --------------------------------------------------------------------------- fusion


@pytest.mark.parametrize("weight", [0.7, 0.3])
def test_fusion_matches_hand_computed_rrf(
    workspace: Path, model_dirs: tuple[Path, Path], weight: float
) -> None:
    embedder = counting(model_dirs[0])
    engine = ready_engine(workspace, embedder)
    text = "kitten python"
    bm25 = Engine.open(workspace).search(SearchQuery(text, limit=10))
    keyword_ranks = {h.path: r for r, h in enumerate(bm25.hits, 1)}
    assert list(keyword_ranks) == ["daily/2026-03-03/python.md", "daily/2026-03-01/kitten.md"]
    vectors = vector_ranking(engine, embedder, text)
    vector_ranks = {path: r for r, (path, _) in enumerate(vectors, 1)}

    response = engine.search(SearchQuery(text, limit=10, vector_weight=weight))

    expected = {
        path: weight / (RRF_K + rank)
        + ((1 - weight) / (RRF_K + keyword_ranks[path]) if path in keyword_ranks else 0.0)
        for path, rank in vector_ranks.items()
    }
    order = sorted(expected, key=lambda p: (-expected[p], p))
    assert [h.path for h in response.hits] == order
    for hit in response.hits:
        assert hit.score == pytest.approx(expected[hit.path], abs=1e-12)
        assert hit.vector_rank == vector_ranks[hit.path]
        assert hit.keyword_rank == keyword_ranks.get(hit.path)
        assert hit.vector_score == pytest.approx(dict(vectors)[hit.path], abs=1e-6)
    assert response.counts == {
        "candidates": 50, "keyword": 2, "vector": 5, "returned": 5, "hybrid": True
    }  # fmt: skip
    assert response.to_json()["results"][0]["scores"]["vector"] is not None
    assert engine.search_mode == "hybrid"
    assert response.warnings == []


def test_hand_ranked_example(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    """'puppy': one keyword hit (puppy.md); the vectors rank the two animal notes first
    (kitten.md just ahead: its words sit closer to the animal axis than "good pet dog")."""
    engine = ready_engine(workspace, counting(model_dirs[0]))
    hits = engine.search(SearchQuery("puppy", limit=3)).hits
    # puppy.md: keyword #1, vector #2 -> 0.7/62 + 0.3/61
    assert hits[0].path == "daily/2026-03-02/puppy.md"
    assert (hits[0].keyword_rank, hits[0].vector_rank) == (1, 2)
    assert hits[0].score == pytest.approx(0.7 / 62 + 0.3 / 61, abs=1e-15)
    # kitten.md: vector #1 only -> 0.7/61
    assert hits[1].path == "daily/2026-03-01/kitten.md"
    assert (hits[1].keyword_rank, hits[1].vector_rank) == (None, 1)
    assert hits[1].score == pytest.approx(0.7 / 61, abs=1e-15)
    # then vector #3 only -> 0.7/63
    assert (hits[2].keyword_rank, hits[2].vector_rank, hits[2].score) == (None, 3, 0.7 / 63)


def test_one_branch_only_keeps_native_scores(
    workspace: Path, model_dirs: tuple[Path, Path]
) -> None:
    engine = ready_engine(workspace, counting(model_dirs[0]))
    # "soft" is unknown to the tiny model: zero query vector -> keyword ranking alone.
    keyword_only = engine.search(SearchQuery("soft"))
    assert not keyword_only.hybrid and keyword_only.counts["vector"] == 0
    assert keyword_only.hits[0].score == keyword_only.hits[0].keyword_score
    # "melody" is in no file: the vector ranking alone, raw cosine scores.
    vector_only = engine.search(SearchQuery("melody guitar", limit=5))
    assert vector_only.counts["keyword"] == 0 and not vector_only.hybrid
    assert [h.vector_rank for h in vector_only.hits] == [1, 2, 3, 4, 5]
    assert all(h.score == h.vector_score and h.keyword_score is None for h in vector_only.hits)


@pytest.mark.parametrize("weight", [0.0, 1.0])
def test_vector_weight_extremes(
    workspace: Path, model_dirs: tuple[Path, Path], weight: float
) -> None:
    embedder = counting(model_dirs[0])
    engine = ready_engine(workspace, embedder)
    hits = engine.search(SearchQuery("kitten python", limit=10, vector_weight=weight)).hits
    if weight == 0.0:  # keyword ranking first, vector-only hits trail with score 0
        assert [h.keyword_rank for h in hits[:2]] == [1, 2]
        assert all(h.score == 0.0 and h.keyword_rank is None for h in hits[2:])
    else:  # the vector ranking exactly
        assert [h.vector_rank for h in hits] == [1, 2, 3, 4, 5]


def test_filters_apply_to_the_vector_branch(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    engine = ready_engine(workspace, counting(model_dirs[0]))
    pets = engine.search(SearchQuery("melody guitar", Filters(tags=("pets",)), limit=10))
    assert {h.path for h in pets.hits} == {
        "daily/2026-03-01/kitten.md",
        "daily/2026-03-02/puppy.md",
    }
    assert pets.counts["vector"] == 2
    dated = engine.search(
        SearchQuery(
            "melody",
            Filters(since="2026-03-02", until="2026-03-03", strict_dates=True),
            limit=10,
        )
    )
    assert {h.path for h in dated.hits} == {
        "daily/2026-03-02/puppy.md",
        "daily/2026-03-03/python.md",
    }
    excluded = engine.search(
        SearchQuery("melody", Filters(exclude_tags=("pets", "work")), limit=10)
    )
    assert {h.path for h in excluded.hits} == {"daily/2026-03-04/bread.md", "digest/weather.md"}
    nothing = engine.search(SearchQuery("melody", Filters(tags=("nosuchtag",))))
    assert nothing.hits == [] and nothing.counts["vector"] == 0


def test_candidates_follow_the_limit(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    engine = ready_engine(workspace, counting(model_dirs[0]))
    response = engine.search(SearchQuery("melody", limit=1))  # candidates = 5
    assert response.counts["vector"] == 5 and len(response.hits) == 1


# --------------------------------------------------------------------------- incremental


def test_apply_reembeds_only_touched_files(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    embedder = counting(model_dirs[0])
    engine = ready_engine(workspace, embedder)
    assert len(embedder.texts) == 5
    embedder.batches.clear()

    target = workspace / "daily/2026-03-04/bread.md"
    original = target.read_text()
    target.write_text(memory("baked pizza and pasta tonight\n", tags=["food"]))
    (workspace / "daily/2026-03-05").mkdir()
    (workspace / "daily/2026-03-05/new.md").write_text("a concert with guitar and drums\n")
    (workspace / "daily/2026-03-02/puppy.md").unlink()
    engine.apply(
        ["daily/2026-03-04/bread.md", "daily/2026-03-05/new.md", "daily/2026-03-02/puppy.md"]
    )
    assert engine.wait_for_embeddings(10)
    assert sorted(embedder.texts) == [
        "a concert with guitar and drums",
        "baked pizza and pasta tonight",
    ]
    hits = engine.search(SearchQuery("melody", limit=10)).hits
    assert hits[0].path == "daily/2026-03-05/new.md"
    assert "daily/2026-03-02/puppy.md" not in {h.path for h in hits}

    embedder.batches.clear()
    target.write_text(original)  # content seen before: served from the cache
    engine.apply(["daily/2026-03-04/bread.md"])
    assert engine.wait_for_embeddings(10)
    assert embedder.texts == []
    assert engine.semantic_status().done == 5


def test_changed_file_has_no_stale_vectors_while_pending(
    workspace: Path, model_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a file waits for its new embedding, the vector branch leaves it out (and says so)."""
    monkeypatch.setattr(semantic, "BATCH_CHUNKS", 1)
    gate = threading.Event()

    class Gated(CountingEmbedder):
        def encode(self, texts: Sequence[str]) -> np.ndarray:
            if len(texts) == 1 and texts[0].startswith("storm"):
                gate.wait(10)
            return super().encode(texts)

    engine = Engine.open(workspace)
    engine.attach_model(Gated(load_model(str(model_dirs[0]))))
    try:
        assert not engine.wait_for_embeddings(0.3)
        status = engine.semantic_status()
        assert status.state == "embedding" and status.total == 5
        response = engine.search(SearchQuery("snow wind cloud", limit=10))  # no keyword hit
        assert "digest/weather.md" not in {h.path for h in response.hits}
        assert response.counts["vector"] == status.done
        assert any("embeddings" in w and "% ready" in w for w in response.warnings)
        assert engine.search_mode.startswith("hybrid (embeddings ")
    finally:
        gate.set()
    assert engine.wait_for_embeddings(10)
    assert engine.search(SearchQuery("snow wind cloud")).hits[0].path == "digest/weather.md"


# --------------------------------------------------------------------------- models and store


def test_model_change_invalidates_the_cache(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    first = counting(model_dirs[0])
    engine = ready_engine(workspace, first)
    before = engine.search(SearchQuery("melody", limit=10))
    second = counting(model_dirs[1])
    assert second.info.identity != first.info.identity
    engine.attach_model(second)
    assert engine.wait_for_embeddings(10)
    assert len(second.texts) == 5  # every chunk again
    after = engine.search(SearchQuery("melody", limit=10))
    assert [h.vector_score for h in after.hits] != [h.vector_score for h in before.hits]
    first.batches.clear()
    engine.attach_model(first)  # back to the first model: its vectors were dropped
    assert engine.wait_for_embeddings(10)
    assert len(first.texts) == 5


def test_warm_start_reuses_saved_embeddings(
    workspace: Path, model_dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    store = IndexStore(workspace.resolve(), tmp_path / "cache")
    first = ready_engine(workspace, counting(model_dirs[0]), store)
    expected = first.search(SearchQuery("kitten python", limit=10)).to_json()

    again = counting(model_dirs[0])  # a fresh load of the same files: same identity
    warm = ready_engine(workspace, again, store)
    assert again.texts == []
    assert warm.search(SearchQuery("kitten python", limit=10)).to_json() == expected

    # A BM25-only run in between keeps the saved embeddings.
    Engine.open(workspace, store=store).save()
    third = counting(model_dirs[0])
    ready_engine(workspace, third, store)
    assert third.texts == []

    # Another model: nothing reusable, everything is encoded again.
    other = counting(model_dirs[1])
    ready_engine(workspace, other, store)
    assert len(other.texts) == 5


def test_model_attached_before_the_build(
    workspace: Path, model_dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    store = IndexStore(workspace, tmp_path / "cache")
    ready_engine(workspace, counting(model_dirs[0]), store)
    embedder = counting(model_dirs[0])
    engine = Engine.create(workspace)
    engine.attach_store(store)
    engine.attach_model(embedder)
    engine.build()
    assert engine.wait_for_embeddings(10)
    assert embedder.texts == [] and engine.semantic_status().done == 5


# --------------------------------------------------------------------------- degradation


def test_missing_model_stays_bm25(workspace: Path, tmp_path: Path) -> None:
    engine = Engine.open(workspace)
    assert engine.search_mode == "bm25"
    error = engine.load_model(str(tmp_path / "no-model"))
    assert error is not None and "does not exist" in error
    assert engine.search_mode == "bm25 (model unavailable)"
    assert engine.semantic_status().error == error
    response = engine.search(SearchQuery("kitten"))
    assert response.hits and not response.hybrid and response.counts["vector"] == 0


def test_broken_model_directory(workspace: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("model.safetensors", "config.json", "tokenizer.json"):
        (broken / name).write_text("not a model")
    engine = Engine.open(workspace)
    error = engine.load_model(str(broken))
    assert error is not None and "could not be loaded" in error
    assert engine.search(SearchQuery("kitten")).hits


def test_model_failing_while_embedding_degrades(
    workspace: Path, model_dirs: tuple[Path, Path]
) -> None:
    class Failing(CountingEmbedder):
        def encode(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("boom")

    engine = Engine.open(workspace)
    engine.attach_model(Failing(load_model(str(model_dirs[0]))))
    assert engine.wait_for_embeddings(10)
    status = engine.semantic_status()
    assert status.state == "failed" and "boom" in (status.error or "")
    assert engine.search_mode == "bm25 (model unavailable)"
    assert engine.search(SearchQuery("kitten")).hits


def test_detach_model(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    engine = ready_engine(workspace, counting(model_dirs[0]))
    engine.attach_model(None)
    assert engine.search_mode == "bm25"
    assert engine.search(SearchQuery("melody")).hits == []


# --------------------------------------------------------------------------- similar


def test_similar_skips_linked_memories(workspace: Path, model_dirs: tuple[Path, Path]) -> None:
    engine = ready_engine(workspace, counting(model_dirs[0]))
    similar = engine.similar("daily/2026-03-01/kitten.md", k=2)
    assert similar[0].path == "daily/2026-03-02/puppy.md"
    assert 0.0 < similar[0].similarity <= 1.0
    linked = engine.similar("daily/2026-03-04/bread.md", k=10)
    assert "digest/weather.md" not in {s.path for s in linked}  # it links to bread.md
    assert "daily/2026-03-04/bread.md" not in {s.path for s in linked}
    assert Engine.open(workspace).similar("daily/2026-03-01/kitten.md") == []


def test_a_model_failing_on_the_query_is_reported(
    workspace: Path, model_dirs: tuple[Path, Path]
) -> None:
    class FailsOnQueries(CountingEmbedder):
        def encode(self, texts: Sequence[str]) -> np.ndarray:
            if list(texts) == ["kitten"]:
                raise RuntimeError("query boom")
            return super().encode(texts)

    engine = ready_engine(workspace, FailsOnQueries(load_model(str(model_dirs[0]))))
    response = engine.search(SearchQuery("kitten"))
    assert response.hits and not response.hybrid and response.counts["vector"] == 0
    assert response.vector_error == "RuntimeError: query boom"
    assert any("vector search failed" in w and "query boom" in w for w in response.warnings)
    assert engine.search(SearchQuery("melody")).vector_error is None


def test_the_embedding_thread_can_be_stopped(
    workspace: Path, model_dirs: tuple[Path, Path]
) -> None:
    started, release = threading.Event(), threading.Event()

    class Slow(CountingEmbedder):
        def encode(self, texts: Sequence[str]) -> np.ndarray:
            started.set()
            release.wait(10)
            return super().encode(texts)

    engine = Engine.open(workspace)
    engine.attach_model(Slow(load_model(str(model_dirs[0]))))
    assert started.wait(10)
    assert not engine.stop_embedding(timeout=0)  # still inside the batch in hand
    release.set()
    assert engine.stop_embedding(timeout=10)
    engine.attach_model(Slow(load_model(str(model_dirs[0]))))  # stopped for good
    assert engine.semantic_status().state == "embedding"
    assert engine.search(SearchQuery("kitten")).hits
