"""model2vec loading, the exact vector index and the embedding cache (no network)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.index import vectors as vec
from reme_tui.engine.index.vectors import (
    EmbeddingCache,
    ModelUnavailable,
    VectorIndex,
    content_key,
    load_model,
)

try:
    from tests.engine.tiny_model import DIM, build_tiny_model
except ImportError:  # tests/ is not a package: pytest put this directory on sys.path
    from tiny_model import DIM, build_tiny_model  # type: ignore[no-redef]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(scope="module")
def embedder(model_dir: Path) -> vec.Embedder:
    return load_model(str(model_dir))


# --------------------------------------------------------------------------- loading


def test_load_from_directory(model_dir: Path, embedder: vec.Embedder) -> None:
    info = embedder.info
    assert info.dim == DIM
    assert info.source == "directory"
    assert info.name == str(model_dir.resolve())
    assert len(info.identity) == 64


def test_encode_is_normalized_float32_with_zero_rows(embedder: vec.Embedder) -> None:
    out = embedder.encode(["The cat and the dog", "python bug", "zzz qqq", ""])
    assert out.dtype == np.float32
    assert out.shape == (4, DIM)
    np.testing.assert_allclose(np.linalg.norm(out[:2], axis=1), 1.0, atol=1e-6)
    assert not out[2:].any()
    assert embedder.encode([]).shape == (0, DIM)


def test_encode_nearest_neighbour_is_same_topic(embedder: vec.Embedder) -> None:
    docs = {
        ("daily/a.md", 1): "my kitten has soft fur and paws",
        ("daily/b.md", 1): "fixed a python bug in the function",
        ("daily/c.md", 1): "baked bread and cheese soup recipe",
        ("daily/d.md", 1): "storm and rain in the forecast",
    }
    index = VectorIndex(DIM)
    for key, text in docs.items():
        index.set_path(key[0], [key], embedder.encode([text]))
    for query, expected in [
        ("puppy pet", "daily/a.md"),
        ("debug the compile test", "daily/b.md"),
        ("pizza pasta", "daily/c.md"),
        ("snow wind cloud", "daily/d.md"),
    ]:
        hits = index.top_k(embedder.encode([query])[0], 1)
        assert hits[0][0] == (expected, 1)
        assert hits[0][1] > 0.8


def test_identity_stable_across_loads_and_copies(model_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(model_dir, copy)
    first = load_model(str(model_dir)).info.identity
    assert load_model(str(model_dir)).info.identity == first
    assert load_model(str(copy)).info.identity == first


def test_identity_differs_for_different_weights(model_dir: Path, tmp_path: Path) -> None:
    other = build_tiny_model(tmp_path / "other", seed=1)
    assert load_model(str(other)).info.identity != load_model(str(model_dir)).info.identity


@pytest.mark.parametrize("spec", ["/nonexistent/model/dir", "./no-such-model", "a/b/c"])
def test_missing_directory_is_model_unavailable(spec: str) -> None:
    with pytest.raises(ModelUnavailable, match="does not exist"):
        load_model(spec)


def test_empty_name_is_model_unavailable() -> None:
    with pytest.raises(ModelUnavailable, match="no embedding model"):
        load_model("  ")


def test_unknown_id_without_download(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub

    def no_network(*args: object, **kwargs: object) -> str:
        if not kwargs.get("local_files_only"):
            raise AssertionError("network used without permission")
        return real(*args, **kwargs)

    real = huggingface_hub.snapshot_download
    monkeypatch.setattr(huggingface_hub, "snapshot_download", no_network)
    with pytest.raises(ModelUnavailable) as err:
        load_model("nobody/no-such-model", cache_dir=tmp_path)
    message = str(err.value)
    assert "'nobody/no-such-model'" in message
    assert "was not found" in message
    assert "no copy of it in the local Hugging Face cache" in message
    assert str(tmp_path) in message
    assert "Downloading is off" in message


def test_download_failure_is_model_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub

    def fake(*args: object, **kwargs: object) -> str:
        if kwargs.get("local_files_only"):
            raise huggingface_hub.errors.LocalEntryNotFoundError("not cached")
        raise OSError("network unreachable")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake)
    with pytest.raises(ModelUnavailable, match=r"could not be downloaded.*network unreachable"):
        load_model("nobody/no-such-model", allow_download=True, cache_dir=tmp_path)


def test_model_id_resolved_from_local_cache(model_dir: Path, tmp_path: Path) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "models--owner--tiny"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    shutil.copytree(model_dir, repo / "snapshots" / commit)
    loaded = load_model("owner/tiny", cache_dir=tmp_path)
    assert loaded.info.source == "cache"
    assert loaded.info.name == "owner/tiny"
    assert loaded.info.identity == load_model(str(model_dir)).info.identity


def test_cached_snapshot_without_model_files(tmp_path: Path) -> None:
    commit = "f" * 40
    repo = tmp_path / "models--owner--empty"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit)
    (repo / "snapshots" / commit).mkdir(parents=True)
    with pytest.raises(ModelUnavailable, match="has no model2vec files"):
        load_model("owner/empty", cache_dir=tmp_path)


def test_missing_tokenizer_is_model_unavailable(model_dir: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(model_dir, broken)
    (broken / "tokenizer.json").unlink()
    with pytest.raises(
        ModelUnavailable,
        match=r"is not a model2vec model.*needs model\.safetensors, config\.json and tokenizer",
    ):
        load_model(str(broken))


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("model.safetensors", b"\x00garbage, not a safetensors file"),
        ("tokenizer.json", b"{not json"),
        ("config.json", b"[1, 2"),
    ],
)
def test_corrupt_file_is_model_unavailable(
    model_dir: Path, tmp_path: Path, name: str, content: bytes
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(model_dir, broken)
    (broken / name).write_bytes(content)
    with pytest.raises(ModelUnavailable, match="could not be loaded"):
        load_model(str(broken))


def test_file_instead_of_directory(model_dir: Path) -> None:
    with pytest.raises(ModelUnavailable, match="not a directory"):
        load_model(str(model_dir / "config.json"))


# --------------------------------------------------------------------------- vector index


def _unit(*values: float) -> np.ndarray:
    arr = np.zeros(DIM, dtype=np.float32)
    arr[: len(values)] = values
    return arr


def test_top_k_scores_are_raw_cosine_without_threshold() -> None:
    index = VectorIndex(DIM)
    index.set_path("a.md", [("a.md", 1), ("a.md", 9)], np.stack([_unit(2, 0), _unit(-1, 0)]))
    index.set_path("b.md", [("b.md", 1)], np.stack([_unit(1, 1)]))
    index.set_path("c.md", [("c.md", 3)], np.stack([_unit(0, 0)]))  # zero vector scores 0
    hits = index.top_k(_unit(3, 0), 10)
    assert hits == [
        (("a.md", 1), 1.0),
        (("b.md", 1), pytest.approx(0.707107, abs=1e-6)),
        (("c.md", 3), 0.0),
        (("a.md", 9), -1.0),
    ]
    assert index.top_k(_unit(3, 0), 2, allowed_paths={"b.md", "c.md", "zzz.md"}) == [
        (("b.md", 1), pytest.approx(0.707107, abs=1e-6)),
        (("c.md", 3), 0.0),
    ]
    assert index.top_k(_unit(3, 0), 5, allowed_paths=[]) == []
    assert index.top_k(_unit(), 5) == []  # zero query: no hits
    assert index.top_k(_unit(1), 0) == []


def test_ties_are_broken_by_key() -> None:
    index = VectorIndex(DIM)
    same = _unit(0.3, 0.4, 0.5)
    for path in ["z.md", "b.md", "m.md"]:
        index.set_path(path, [(path, 7), (path, 2)], np.stack([same, same * 5]))
    hits = index.top_k(same, 4)
    assert [key for key, _ in hits] == [("b.md", 2), ("b.md", 7), ("m.md", 2), ("m.md", 7)]
    assert len({score for _, score in hits}) == 1
    assert hits[0][1] == pytest.approx(1.0)


def test_set_path_replaces_and_remove_path_counts() -> None:
    index = VectorIndex(DIM)
    index.set_path("a.md", [("a.md", 1), ("a.md", 5)], np.stack([_unit(1), _unit(0, 1)]))
    index.set_path("a.md", [("a.md", 3)], np.stack([_unit(0, 0, 1)]))
    assert len(index) == 1
    assert index.keys_for("a.md") == [("a.md", 3)]
    assert "a.md" in index
    assert index.remove_path("a.md") == 1
    assert index.remove_path("a.md") == 0
    assert len(index) == 0
    index.set_path("b.md", [], np.zeros((0, DIM)))
    assert "b.md" not in index


def test_invalid_input_is_rejected() -> None:
    index = VectorIndex(DIM)
    with pytest.raises(ValueError, match="does not belong"):
        index.set_path("a.md", [("b.md", 1)], np.ones((1, DIM)))
    with pytest.raises(ValueError, match="duplicate"):
        index.set_path("a.md", [("a.md", 1), ("a.md", 1)], np.ones((2, DIM)))
    with pytest.raises(ValueError, match="shape"):
        index.set_path("a.md", [("a.md", 1)], np.ones((1, DIM + 1)))
    with pytest.raises(ValueError, match="NaN"):
        index.set_path("a.md", [("a.md", 1)], np.full((1, DIM), np.nan))
    with pytest.raises(ValueError, match="dimension"):
        index.top_k(np.ones(DIM + 1), 3)


def _brute_force(
    model: dict[tuple[str, int], np.ndarray], query: np.ndarray, allowed: set[str] | None
) -> dict[tuple[str, int], float]:
    q = query.astype(np.float64)
    q = q / np.linalg.norm(q)
    out = {}
    for key, v in model.items():
        if allowed is not None and key[0] not in allowed:
            continue
        v64 = v.astype(np.float64)
        norm = np.linalg.norm(v64)
        out[key] = float(v64 @ q / norm) if norm else 0.0
    return out


def _check_against_brute_force(
    hits: list[tuple[tuple[str, int], float]], expected: dict[tuple[str, int], float], k: int
) -> None:
    assert len(hits) == min(k, len(expected))
    keys = [key for key, _ in hits]
    assert len(set(keys)) == len(keys)
    for key, score in hits:
        assert score == pytest.approx(expected[key], abs=1e-5)
    for (key_a, score_a), (key_b, score_b) in itertools.pairwise(hits):
        assert score_a >= score_b
        if score_a == score_b:
            assert key_a < key_b
    if hits:
        floor = min(expected[key] for key in keys)
        assert all(expected[key] <= floor + 1e-5 for key in expected.keys() - set(keys))


PATHS = [f"daily/{c}.md" for c in "abcdefg"]
small_ints = st.integers(min_value=-2, max_value=2)
vector_st = st.lists(small_ints, min_size=DIM, max_size=DIM).map(
    lambda xs: np.asarray(xs, dtype=np.float32)
)
op_st = st.one_of(
    st.tuples(
        st.just("set"),
        st.sampled_from(PATHS),
        st.lists(st.tuples(st.integers(1, 40), vector_st), max_size=4, unique_by=lambda t: t[0]),
    ),
    st.tuples(st.just("remove"), st.sampled_from(PATHS), st.just([])),
)


@settings(max_examples=100, deadline=None)
@given(
    ops=st.lists(op_st, max_size=25),
    query=vector_st.filter(lambda v: bool(v.any())),
    k=st.integers(1, 12),
    allowed=st.one_of(st.none(), st.sets(st.sampled_from([*PATHS, "nope.md"]))),
)
def test_top_k_matches_brute_force(
    ops: list[tuple[str, str, list[tuple[int, np.ndarray]]]],
    query: np.ndarray,
    k: int,
    allowed: set[str] | None,
) -> None:
    VectorIndex._COMPACT_MIN_FREE = 2  # exercise compaction on small indexes
    index = VectorIndex(DIM)
    model: dict[tuple[str, int], np.ndarray] = {}
    for op, path, chunks in ops:
        for key in [key for key in model if key[0] == path]:
            del model[key]
        if op == "set":
            keys = [(path, line) for line, _ in chunks]
            vectors = np.stack([v for _, v in chunks]) if chunks else np.zeros((0, DIM))
            index.set_path(path, keys, vectors)
            model.update(dict(zip(keys, vectors, strict=True)))
        else:
            index.remove_path(path)
    assert len(index) == len(model)
    _check_against_brute_force(
        index.top_k(query, k, allowed), _brute_force(model, query, allowed), k
    )
    restored = VectorIndex.from_state(index.export_state())
    assert restored.top_k(query, k, allowed) == index.top_k(query, k, allowed)
    for path in sorted({key[0] for key in model})[:2]:
        similar = index.similar_to_path(path, k, exclude=allowed or ())
        _check_similar(similar, _brute_similar(model, path, allowed or set()), k)


def _unit64(v: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(v.astype(np.float64))
    return v.astype(np.float64) / norm if norm else v.astype(np.float64)


def _brute_similar(
    model: dict[tuple[str, int], np.ndarray], path: str, exclude: set[str]
) -> dict[str, float]:
    mean = np.mean([_unit64(v) for key, v in model.items() if key[0] == path], axis=0)
    if not np.linalg.norm(mean):
        return {}
    query = mean / np.linalg.norm(mean)
    best: dict[str, float] = {}
    for (other, _), v in model.items():
        if other != path and other not in exclude:
            best[other] = max(best.get(other, -2.0), float(_unit64(v) @ query))
    return best


def _check_similar(hits: list[tuple[str, float]], best: dict[str, float], k: int) -> None:
    positive = {p: score for p, score in best.items() if score > 1e-6}
    assert len(hits) <= min(k, len(best))
    assert len(hits) >= min(k, len(positive))
    for path, score in hits:
        assert score > 0
        assert score == pytest.approx(best[path], abs=1e-5)
    if len(hits) == k:
        floor = min(best[p] for p, _ in hits)
        assert all(best[p] <= floor + 1e-5 for p in best.keys() - {p for p, _ in hits})


@pytest.fixture(autouse=True)
def _restore_compaction_threshold() -> object:
    saved = VectorIndex._COMPACT_MIN_FREE
    yield
    VectorIndex._COMPACT_MIN_FREE = saved


def test_compaction_keeps_results() -> None:
    VectorIndex._COMPACT_MIN_FREE = 4
    rng = np.random.default_rng(3)
    index = VectorIndex(DIM)
    for i in range(40):
        index.set_path(f"p{i}.md", [(f"p{i}.md", 1), (f"p{i}.md", 2)], rng.normal(size=(2, DIM)))
    query = rng.normal(size=DIM).astype(np.float32)
    before = [hit for hit in index.top_k(query, 80) if int(hit[0][0][1:-3]) % 5 == 0]
    for i in range(40):
        if i % 5:
            index.remove_path(f"p{i}.md")
    assert index._used < 80  # compacted
    assert index.top_k(query, 80) == before


def test_similar_to_path_best_chunk_per_other_path() -> None:
    index = VectorIndex(DIM)
    index.set_path("me.md", [("me.md", 1), ("me.md", 9)], np.stack([_unit(1, 0), _unit(0, 3)]))
    index.set_path(
        "near.md", [("near.md", 1), ("near.md", 4)], np.stack([_unit(0, 1), _unit(2, 2)])
    )
    index.set_path("far.md", [("far.md", 1)], np.stack([_unit(0, 0, 1)]))
    index.set_path("anti.md", [("anti.md", 1)], np.stack([_unit(-1, -1)]))
    index.set_path("linked.md", [("linked.md", 1)], np.stack([_unit(1, 0.5)]))
    # mean of me.md's unit chunks is (0.5, 0.5): near.md's second chunk points the same way.
    assert index.similar_to_path("me.md", 5, exclude={"linked.md"}) == [
        ("near.md", pytest.approx(1.0))
    ]
    assert [p for p, _ in index.similar_to_path("me.md", 5)] == ["near.md", "linked.md"]
    assert [p for p, _ in index.similar_to_path("me.md", 1)] == ["near.md"]
    assert index.similar_to_path("unknown.md", 5) == []
    scored = index.similar_to_path("me.md", 5, min_similarity=-2.0)
    assert [p for p, _ in scored] == ["near.md", "linked.md", "far.md", "anti.md"]


def test_index_state_round_trip() -> None:
    rng = np.random.default_rng(0)
    index = VectorIndex(DIM)
    for i in range(10):
        keys = [(f"p{i}.md", line) for line in (1, 10, 20)[: 1 + i % 3]]
        index.set_path(f"p{i}.md", keys, rng.normal(size=(len(keys), DIM)))
    index.remove_path("p3.md")
    state = index.export_state()
    assert set(state) == {"version", "dim", "paths", "path_index", "start_lines", "vectors"}
    restored = VectorIndex.from_state(state)
    assert len(restored) == len(index)
    assert restored.paths() == index.paths()
    query = rng.normal(size=DIM)
    assert restored.top_k(query, 50) == index.top_k(query, 50)
    assert restored.similar_to_path("p1.md", 5) == index.similar_to_path("p1.md", 5)
    with pytest.raises(ValueError):
        VectorIndex.from_state({**state, "version": 99})
    with pytest.raises(ValueError):
        VectorIndex.from_state({**state, "start_lines": state["start_lines"][:-1]})


# --------------------------------------------------------------------------- embedding cache


class CountingEmbedder(vec.Embedder):
    """Counts how many texts reach the model."""

    def __init__(self, inner: vec.Embedder) -> None:
        super().__init__(inner._model, inner.info)
        self.encoded: list[str] = []

    def encode(self, texts):  # type: ignore[no-untyped-def]
        self.encoded.extend(texts)
        return super().encode(texts)


def test_content_key_is_sha256_hex() -> None:
    assert content_key("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert content_key("é") != content_key("e")


def test_cache_hits_and_misses(embedder: vec.Embedder) -> None:
    counting = CountingEmbedder(embedder)
    cache = EmbeddingCache(embedder.info.identity, embedder.dim)
    first = cache.encode_cached(counting, ["cat dog", "python bug", "cat dog"])
    assert counting.encoded == ["cat dog", "python bug"]
    assert len(cache) == 2
    again = cache.encode_cached(counting, ["python bug", "rain snow", "cat dog"])
    assert counting.encoded == ["cat dog", "python bug", "rain snow"]
    np.testing.assert_array_equal(again[0], first[1])
    np.testing.assert_array_equal(again[2], first[0])
    np.testing.assert_allclose(again, embedder.encode(["python bug", "rain snow", "cat dog"]))
    vectors, found = cache.get_many([content_key("cat dog"), content_key("nope")])
    assert found.tolist() == [True, False]
    assert not vectors[1].any()


def test_cache_invalidated_on_identity_change(embedder: vec.Embedder) -> None:
    cache = EmbeddingCache(embedder.info.identity, embedder.dim)
    cache.encode_cached(embedder, ["cat dog"])
    assert not cache.switch_model(embedder.info.identity, embedder.dim)
    assert len(cache) == 1
    assert cache.switch_model("other-model", embedder.dim)
    assert len(cache) == 0
    with pytest.raises(ValueError, match="different model"):
        cache.encode_cached(embedder, ["cat dog"])


def test_cache_retain_and_state_round_trip() -> None:
    cache = EmbeddingCache("m1", DIM)
    keys = [content_key(t) for t in ("a", "b", "c")]
    cache.put_many(keys, np.eye(3, DIM, dtype=np.float32))
    cache.put_many([keys[1]], np.full((1, DIM), 2.0))
    assert cache.retain({keys[1], keys[2], "other"}) == 1
    state = cache.export_state()
    assert state["identity"] == "m1"
    restored = EmbeddingCache.from_state(state)
    vectors, found = restored.get_many(keys)
    assert found.tolist() == [False, True, True]
    np.testing.assert_array_equal(vectors[1], np.full(DIM, 2.0))
    np.testing.assert_array_equal(vectors[2], np.eye(3, DIM)[2])
    with pytest.raises(ValueError):
        EmbeddingCache.from_state({**state, "version": 0})


def test_cache_grows_over_many_batches() -> None:
    cache = EmbeddingCache("m", DIM)
    rng = np.random.default_rng(5)
    stored: dict[str, np.ndarray] = {}
    for batch in range(60):
        keys = [content_key(f"{batch}-{i}") for i in range(3)]
        vectors = rng.normal(size=(3, DIM)).astype(np.float32)
        cache.put_many(keys, vectors)
        stored.update(zip(keys, vectors, strict=True))
    got, found = cache.get_many(list(stored))
    assert found.all()
    np.testing.assert_array_equal(got, np.stack(list(stored.values())))
    assert len(EmbeddingCache.from_state(cache.export_state())) == 180
