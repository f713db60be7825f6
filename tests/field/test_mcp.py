"""The installed wheel's `reme-tui mcp`, driven by the MCP SDK's stdio client: the console
script starts the server, lists its tools and answers a search."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio

from tests.mcp.client import answer, served

from .conftest import CHECKOUT


def test_installed_mcp_server_answers_a_search(
    reme_tui: Path, home: dict[str, str], tmp_path: Path
) -> None:
    sample = Path(shutil.copytree(CHECKOUT / "sample_workspace", tmp_path / "sample"))

    async def main() -> tuple[list[str], dict[str, object]]:
        async with served(sample, command=[str(reme_tui)], env=home) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            return names, await answer(session, "search", {"query": "launch budget"})

    names, found = anyio.run(main)
    assert "search" in names and "add_tag" not in names
    results = found["results"]
    assert isinstance(results, list) and results
    assert all(hit["path"].endswith(".md") for hit in results)
