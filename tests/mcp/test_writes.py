"""Write tools: absent without --allow-writes (and nothing written), working with it
through the write door, refusing a file changed since it was read."""

from __future__ import annotations

from pathlib import Path

import anyio

from .client import answer, refusal, served

MEMORY = "digest/procedure/deploy-atlas.md"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.md"))}


def test_writes_refused_without_allow_writes(workspace: Path) -> None:
    before = _snapshot(workspace)

    async def main() -> list[str]:
        async with served(workspace) as session:
            return [
                await refusal(session, "add_tag", {"path": MEMORY, "tag": "x"}),
                await refusal(session, "set_tags", {"path": MEMORY, "tags": []}),
                await refusal(session, "merge_tags", {"tags": ["priya"], "into": "p"}),
            ]

    for message in anyio.run(main):
        assert "--allow-writes" in message
    assert _snapshot(workspace) == before


def test_write_tools_go_through_the_write_door(workspace: Path) -> None:
    path = workspace / MEMORY

    async def main() -> None:
        async with served(workspace, "--allow-writes") as session:
            read = await answer(session, "read_memory", {"path": MEMORY})
            old_tags = read["tags"]
            added = await answer(
                session, "add_tag", {"path": MEMORY, "tag": "runbook", "expected": read["stamp"]}
            )
            assert added["changed"] is True and "runbook" in added["new_tags"]
            assert "runbook" in path.read_text()
            found = await answer(session, "search", {"query": "deploy", "tags": ["runbook"]})
            assert [hit["path"] for hit in found["results"]] == [MEMORY]
            # The stamp read before the edit is stale now: refused, file untouched.
            current = path.read_bytes()
            message = await refusal(
                session, "remove_tag", {"path": MEMORY, "tag": "runbook",
                                        "expected": read["stamp"]},
            )  # fmt: skip
            assert "changed" in message.lower()
            assert path.read_bytes() == current
            removed = await answer(session, "remove_tag", {"path": MEMORY, "tag": "runbook"})
            assert removed["new_tags"] == old_tags
            cleared = await answer(session, "set_tags", {"path": MEMORY, "tags": ["a", "b"]})
            assert cleared["new_tags"] == ["a", "b"]
            plan = await answer(
                session, "merge_tags", {"tags": ["a"], "into": "b", "dry_run": True}
            )
            assert plan["written"] == [] and "memory_tags" in path.read_text()
            merged = await answer(session, "merge_tags", {"tags": ["a"], "into": "b"})
            assert merged["written"] == [MEMORY] and merged["journal"]
            listing = await answer(session, "list_tags", {"order_by": "tag"})
            assert ["a", 1] not in listing["items"]

    anyio.run(main)
