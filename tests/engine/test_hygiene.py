"""Near-duplicate detection over an opened workspace, and remembered dismissals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.tag_dupes import build, missed_variants
from reme_tui.engine.engine import Engine
from reme_tui.engine.tags.hygiene import DismissedPairs, detect_duplicates, tag_evidence, tag_stats
from tests.helpers import write_workspace

SAMPLE = Path(__file__).parents[2] / "sample_workspace"
ATLAS = {"project_atlas", "project-atlas", "projectatlas"}


@pytest.fixture(scope="module")
def sample() -> Engine:
    return Engine.open(SAMPLE)


def cluster_with(clusters: list, tag: str) -> set[str]:  # type: ignore[type-arg]
    return next((set(c.tags) for c in clusters if tag in c.tags), set())


def test_stats_carry_spellings_most_used_first(sample: Engine) -> None:
    stats = {s.tag: s for s in tag_stats(sample)}
    atlas = stats["project_atlas"]
    assert atlas.files == len(sample.files_with_tag("project_atlas"))
    assert atlas.spellings[0] == "project_atlas"
    assert {"Project_Atlas", "project atlas"} <= set(atlas.spellings)
    assert stats["projectatlas"].spellings == ("ProjectAtlas",)


def test_evidence_text_is_capped_and_cached(sample: Engine) -> None:
    evidence = tag_evidence(sample, text_cap=500)
    assert evidence.files_by_tag["project_atlas"] == sample.files_with_tag("project_atlas")
    text = evidence.text_of_tag("project_atlas")  # type: ignore[misc]
    assert 0 < len(text) <= 500
    assert evidence.text_of_tag("project_atlas") is text  # type: ignore[misc]


def test_sample_workspace_finds_the_atlas_spellings(sample: Engine) -> None:
    clusters = detect_duplicates(sample)
    assert cluster_with(clusters, "project_atlas") == ATLAS
    first = clusters[0]
    assert set(first.tags) == ATLAS and first.confidence == "high"
    assert first.suggested == "project_atlas"
    assert "project_atlas_v2" not in cluster_with(clusters, "project_atlas")
    assert "阿特拉斯项目" not in {t for c in clusters for t in c.tags}


def test_cjk_spelling_needs_an_embedder(sample: Engine) -> None:
    def embed(texts: list[str]) -> np.ndarray:
        # A stand-in model that knows the Chinese name means Project Atlas.
        rows = []
        for text in texts:
            key = text.replace("_", " ").replace("-", " ")
            atlas = key in {"project atlas", "阿特拉斯项目", "projectatlas"}
            rows.append([1.0, 0.0] if atlas else [0.0, 1.0 + len(rows)])
        matrix = np.array(rows, dtype=np.float32)
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    clusters = detect_duplicates(sample, embed=embed)
    assert cluster_with(clusters, "project_atlas") == {*ATLAS, "阿特拉斯项目"}


def test_dismissed_pairs_persist_per_workspace(tmp_path: Path) -> None:
    root = write_workspace(
        tmp_path / "ws",
        {
            "digest/a.md": "---\nmemory_tags: [acme_corp]\n---\nAcme.\n",
            "digest/b.md": "---\nmemory_tags: [ACME]\n---\nAcme.\n",
            "digest/c.md": "---\nmemory_tags: [acme-corp]\n---\nAcme.\n",
        },
    )
    engine = Engine.open(root)
    assert cluster_with(detect_duplicates(engine), "acme") == {"acme", "acme_corp", "acme-corp"}
    store = DismissedPairs(root)
    assert store.dismiss(["acme", "acme_corp", "acme-corp"]) == 3
    assert store.dismiss(["acme_corp", "acme"]) == 0
    again = DismissedPairs(root)  # a new session reads the same file
    assert frozenset({"acme", "acme-corp"}) in again.pairs()
    assert detect_duplicates(engine, dismissed=again) == []
    other = write_workspace(tmp_path / "other", {"digest/a.md": "---\nmemory_tags: [x]\n---\n"})
    assert DismissedPairs(other).pairs() == frozenset()
    assert again.forget("acme", "acme_corp")
    assert cluster_with(detect_duplicates(engine, dismissed=again), "acme") == {
        "acme",
        "acme_corp",
    }


def test_corrupt_dismissed_file_reads_as_empty(tmp_path: Path) -> None:
    store = DismissedPairs(tmp_path)
    store.path.parent.mkdir(parents=True)
    store.path.write_text("{not json", encoding="utf-8")
    assert store.pairs() == frozenset()
    store.dismiss(["a", "b"])
    assert store.pairs() == {frozenset({"a", "b"})}


def test_generated_workspace_with_injected_variants(tmp_path: Path) -> None:
    """The 10k-memory run is ``python -m benchmarks.tag_dupes``; this is the same at 400."""
    root = tmp_path / "gen"
    injected = build(root, 400, words=40)
    assert injected
    engine = Engine.open(root)
    clusters = [c.to_json() for c in detect_duplicates(engine)]
    assert missed_variants(clusters, injected) == []
    for cluster in clusters:  # numbered entities never collapse together
        originals = {m["tag"] for m in cluster["tags"] if m["tag"] not in injected}
        assert len(originals) <= 1, cluster
