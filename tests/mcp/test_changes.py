"""`changes`: the server records the baseline when it opens the workspace (as every mode
does); edits seen later (by the watcher or a write tool) are listed, newest first."""

from __future__ import annotations

from pathlib import Path

import anyio

from .client import answer, eventually, refusal, served

MEMORY = "digest/procedure/deploy-atlas.md"


def test_changes_lists_what_changed_since_the_baseline(workspace: Path) -> None:
    async def main() -> None:
        async with served(workspace, "--allow-writes") as session:
            first = await answer(session, "changes", {})
            assert first["history"]["baseline_recorded"] is False  # done when it opened
            assert first["entries"] == []
            await answer(session, "add_tag", {"path": MEMORY, "tag": "runbook"})
            path = workspace / "daily" / "2026-09-01.md"
            path.write_text(path.read_text() + "\nA late line.\n")

            async def both() -> bool:
                document = await answer(session, "changes", {})
                return {e["path"] for e in document["entries"]} == {
                    MEMORY,
                    "daily/2026-09-01.md",
                }

            await eventually(both)
            later = await answer(session, "changes", {"limit": 1})
            assert len(later["entries"]) == 1
            assert later["history"]["baseline_recorded"] is False
            assert "since" in await refusal(session, "changes", {"since": "someday"})

    anyio.run(main)
