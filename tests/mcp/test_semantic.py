"""With --model (and --vector-weight), search ranks with the vectors too, exactly as
`--query --model --json` does (no network: a tiny local model)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.engine.tiny_model import build_tiny_model

from .client import answer, served
from .test_search_equals_cli import cli_answer


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_hybrid_search_equals_query_json(workspace: Path, tmp_path: Path) -> None:
    model = str(build_tiny_model(tmp_path / "tiny"))
    flags = ("--model", model, "--vector-weight", "0.5")
    cases = [{"query": "atlas launch"}, {"query": "kitten pet code", "limit": 3}]
    expected = [cli_answer(workspace, case, *flags) for case in cases]

    async def main() -> list[dict]:  # type: ignore[type-arg]
        async with served(workspace, *flags) as session:
            return [await answer(session, "search", case) for case in cases]

    got = anyio.run(main)
    for mine, theirs in zip(got, expected, strict=True):
        mine.pop("warnings", None)
        assert mine == theirs
    assert expected[1]["counts"]["vector"] > 0  # the model knows these words: it ranked
