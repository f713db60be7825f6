"""The live index: a memory edited, created or deleted on disk is found by the next calls."""

from __future__ import annotations

from pathlib import Path

import anyio

from .client import answer, eventually, served

WORD = "quuxplorative"


def test_edits_on_disk_reach_the_next_calls(workspace: Path) -> None:
    target = workspace / "digest" / "procedure" / "deploy-atlas.md"
    created = workspace / "daily" / "2026-09-30" / "fresh.md"

    async def paths(session: object, query: str) -> list[str]:
        document = await answer(session, "search", {"query": query})  # type: ignore[arg-type]
        return [hit["path"] for hit in document["results"]]

    async def main() -> None:
        async with served(workspace) as session:
            assert await paths(session, WORD) == []
            target.write_text(target.read_text() + f"\nAlso: {WORD} rollback.\n")

            async def edited() -> bool:
                return await paths(session, WORD) == ["digest/procedure/deploy-atlas.md"]

            await eventually(edited)
            created.parent.mkdir(parents=True, exist_ok=True)
            head = "---\nname: Fresh\nmemory_tags: [brandnewtag]\n---\n\n"
            created.write_text(f"{head}{WORD} notes.\n")

            async def tagged() -> bool:
                listing = await answer(session, "list_tags", {"order_by": "tag"})
                return ["brandnewtag", 1] in listing["items"]

            await eventually(tagged)
            assert "daily/2026-09-30/fresh.md" in await paths(session, WORD)
            read = await answer(session, "read_memory", {"path": "daily/2026-09-30/fresh.md"})
            assert read["tags"] == ["brandnewtag"]
            created.unlink()

            async def gone() -> bool:
                return "daily/2026-09-30/fresh.md" not in await paths(session, WORD)

            await eventually(gone)

    anyio.run(main)
