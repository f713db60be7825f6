"""Semantic search is the extra `reme-tui[semantic]`: without model2vec, asking for a model
says how to install it, once, and the search goes on with BM25."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from reme_tui.cli import main
from tests.helpers import memory, write_workspace


def test_a_model_without_the_extra_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = write_workspace(tmp_path / "ws", {"daily/2026-03-01.md": memory("kitten\n")})
    model = tmp_path / "model"
    model.mkdir()
    monkeypatch.setitem(sys.modules, "model2vec", None)  # as in an install without the extra
    code = main(["search", "kitten", str(workspace), "--model", str(model), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["results"]
    assert err == (
        "reme-tui: notice: semantic search needs model2vec, which is not installed: "
        "pip install 'reme-tui[semantic]' (pipx: pipx inject reme-tui model2vec; "
        "uv: uv tool install 'reme-tui[semantic]'); searching with BM25 only\n"
    )
