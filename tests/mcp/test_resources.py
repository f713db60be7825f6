"""Resources: each memory as reme://<path>, the tag list as reme://tags."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from mcp.types import TextResourceContents

from .client import served


def test_memories_and_tags_as_resources(workspace: Path) -> None:
    async def main() -> tuple[list[str], str, str]:
        async with served(workspace) as session:
            listed = (await session.list_resources()).resources
            uris = [str(r.uri) for r in listed]
            memory = await session.read_resource("reme://digest/procedure/deploy-atlas.md")
            tags = await session.read_resource("reme://tags")
            texts = []
            for result in (memory, tags):
                (content,) = result.contents
                assert isinstance(content, TextResourceContents)
                texts.append(content.text)
            return uris, texts[0], texts[1]

    uris, memory, tags = anyio.run(main)
    on_disk = sorted(
        str(p.relative_to(workspace))
        for top in ("daily", "digest")
        for p in (workspace / top).rglob("*.md")
    )
    assert uris == ["reme://tags", *(f"reme://{p}" for p in on_disk)]
    assert memory == (workspace / "digest/procedure/deploy-atlas.md").read_text()
    document = json.loads(tags)
    assert document["total_tags"] == len(document["items"]) > 0


def test_a_huge_description_is_cut_in_the_listing(workspace: Path) -> None:
    huge = "word " * 20_000
    note = workspace / "daily" / "2026-09-30" / "huge.md"
    note.parent.mkdir(parents=True)
    note.write_text(f"---\nname: Huge\ndescription: {huge}\n---\nbody\n")

    async def main() -> str | None:
        async with served(workspace) as session:
            listed = (await session.list_resources()).resources
            (entry,) = [r for r in listed if str(r.uri) == "reme://daily/2026-09-30/huge.md"]
            return entry.description

    description = anyio.run(main)
    assert description is not None and 0 < len(description) <= 300
    assert description.startswith("word word")
