"""The tool list and its schemas, as a client sees them."""

from __future__ import annotations

from pathlib import Path

import anyio

from .client import served

READ = [
    "search",
    "explain",
    "list_tags",
    "read_memory",
    "neighbours",
    "suggest_tags",
    "tag_dupes",
    "diagnostics",
    "changes",
]
WRITE = ["add_tag", "remove_tag", "set_tags", "merge_tags"]


def _tools(workspace: Path, *extra: str) -> list:  # type: ignore[type-arg]
    async def main() -> list:  # type: ignore[type-arg]
        async with served(workspace, *extra) as session:
            return list((await session.list_tools()).tools)

    return anyio.run(main)


def test_read_only_by_default_with_schemas(workspace: Path) -> None:
    tools = _tools(workspace)
    assert [t.name for t in tools] == READ
    for tool in tools:
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert len(tool.description or "") > 60, tool.name
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
    search = next(t for t in tools if t.name == "search").input_schema
    assert search["required"] == ["query"]
    assert search["properties"]["limit"]["maximum"] == 100
    assert {"tags", "since", "until", "strict_dates", "paths", "path_prefixes", "meta"} <= set(
        search["properties"]
    )
    listing = next(t for t in tools if t.name == "list_tags").input_schema
    assert listing["properties"]["order_by"]["enum"] == ["file_count", "tag"]


def test_allow_writes_adds_the_write_tools(workspace: Path) -> None:
    tools = _tools(workspace, "--allow-writes")
    assert [t.name for t in tools] == READ + WRITE
    for tool in tools[len(READ) :]:
        assert tool.annotations is not None and tool.annotations.read_only_hint is False
        assert "path" in tool.input_schema["properties"] or tool.name == "merge_tags"
