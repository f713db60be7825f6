"""--model, --vector-weight and --allow-download from the command line (no network)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from reme_tui.cli import main
from reme_tui.engine.index import vectors
from tests.engine.tiny_model import build_tiny_model
from tests.helpers import memory, write_workspace


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "daily/2026-03-01/kitten.md": memory("my kitten has soft fur and paws\n"),
            "daily/2026-03-02/puppy.md": memory("the puppy is a good pet dog\n"),
            "daily/2026-03-03/python.md": memory("fixed a python bug, the kitten watched\n"),
            "digest/weather.md": memory("storm and rain in the forecast\n"),
        },
    )


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the model encodes during the test."""
    seen: list[str] = []
    original = vectors.Embedder.encode

    def encode(self: vectors.Embedder, texts: Sequence[str]) -> np.ndarray:
        seen.extend(texts)
        return original(self, texts)

    monkeypatch.setattr(vectors.Embedder, "encode", encode)
    return seen


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip().startswith("{") else {}, err


def test_model_gives_hybrid_json(
    workspace: Path, model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, err = run(
        capsys, "search", "puppy", str(workspace), "--model", str(model_dir), "--json"
    )
    assert code == 0 and err == ""
    assert doc["counts"] == {
        "candidates": 25, "keyword": 1, "vector": 4, "returned": 4, "hybrid": True
    }  # fmt: skip
    first = doc["results"][0]
    assert first["path"] == "daily/2026-03-02/puppy.md"
    assert first["scores"]["keyword"] is not None and first["scores"]["vector"] is not None
    assert first["score"] == pytest.approx(0.7 / 61 + 0.3 / 61)  # keyword #1, vector #1
    assert doc["results"][1]["score"] == pytest.approx(0.7 / 62)  # vector #2 only


def test_text_output_shows_both_scores(
    workspace: Path, model_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([str(workspace), "--query", "puppy", "--model", str(model_dir)])
    out = capsys.readouterr().out
    assert code == 0
    assert "vector=" in out and "keyword=" in out


@pytest.mark.parametrize(
    ("weight", "first"),
    [("0", "daily/2026-03-02/puppy.md"), ("1", "daily/2026-03-02/puppy.md")],
)
def test_vector_weight_extremes(
    workspace: Path,
    model_dir: Path,
    capsys: pytest.CaptureFixture[str],
    weight: str,
    first: str,
) -> None:
    code, doc, _ = run(
        capsys,
        str(workspace),
        "--query",
        "puppy",
        "--model",
        str(model_dir),
        "--vector-weight",
        weight,
        "--json",
    )
    assert code == 0
    results = doc["results"]
    assert results[0]["path"] == first
    if weight == "0":  # vector-only hits get nothing from the keyword side
        assert [r["score"] for r in results[1:]] == [0.0] * 3
    else:  # the vector ranking exactly; the keyword side adds nothing
        sims = [r["scores"]["vector"] for r in results]
        assert sims == sorted(sims, reverse=True)
        assert [r["score"] for r in results] == pytest.approx([1 / 61, 1 / 62, 1 / 63, 1 / 64])


@pytest.mark.parametrize("weight", ["-0.1", "1.5"])
def test_vector_weight_out_of_range_is_a_usage_error(
    workspace: Path, capsys: pytest.CaptureFixture[str], weight: str
) -> None:
    code = main([str(workspace), "--query", "x", "--vector-weight", weight])
    assert code == 2
    assert "--vector-weight must be between 0 and 1" in capsys.readouterr().err


def test_vector_weight_needs_query(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(workspace), "--list-tags", "--vector-weight", "0.5"]) == 2
    expected = "--vector-weight only applies with --query or --explain or the app"
    assert expected in capsys.readouterr().err


def bm25_json(workspace: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    code, doc, _ = run(capsys, str(workspace), "--query", "kitten", "--json", "--no-cache")
    assert code == 0
    return doc


def test_missing_model_notice_and_bm25(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = bm25_json(workspace, capsys)
    code, doc, err = run(
        capsys,
        "search",
        "kitten",
        str(workspace),
        "--json",
        "--no-cache",
        "--model",
        str(tmp_path / "nowhere"),
    )
    assert code == 0
    assert doc == expected and doc["results"] and doc["counts"]["vector"] == 0
    assert err.count("\n") == 1
    assert "reme-tui: notice: model directory" in err and "searching with BM25 only" in err


def test_broken_model_notice_and_bm25(
    workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("model.safetensors", "config.json", "tokenizer.json"):
        (broken / name).write_bytes(b"\x00garbage")
    expected = bm25_json(workspace, capsys)
    code, doc, err = run(
        capsys, "search", "kitten", str(workspace), "--json", "--no-cache", "--model", str(broken)
    )
    assert code == 0 and doc == expected
    assert "could not be loaded" in err and "BM25 only" in err and err.count("\n") == 1


def test_unknown_model_id_without_download(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, err = run(
        capsys, str(workspace), "--query", "kitten", "--json", "--model", "someone/no-such-model"
    )
    assert code == 0 and doc["results"]
    assert "Downloading is off" in err and "BM25 only" in err


def test_warm_start_does_not_reencode(
    workspace: Path, model_dir: Path, capsys: pytest.CaptureFixture[str], encoded: list[str]
) -> None:
    argv = [str(workspace), "--query", "kitten", "--json", "--model", str(model_dir)]
    code, first, _ = run(capsys, *argv)
    assert code == 0 and len(encoded) == 4 + 1  # four chunks, one query
    encoded.clear()
    code, second, _ = run(capsys, *argv)
    assert code == 0 and encoded == ["kitten"]  # the query only
    assert second == first
