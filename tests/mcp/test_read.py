"""read_memory's line ranges and stamp, neighbours, list_tags' orders, tag_dupes,
diagnostics and suggest_tags: each answer checked against the files or the matching --json mode."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import anyio

from .client import answer, refusal, served

MEMORY = "daily/2026-09-01/atlas-kickoff.md"


def cli_json(workspace: Path, *flags: str) -> dict:  # type: ignore[type-arg]
    argv = [sys.executable, "-m", "reme_tui", str(workspace), *flags, "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_read_tools(workspace: Path) -> None:
    data = (workspace / MEMORY).read_bytes()
    lines = data.decode().splitlines(keepends=True)
    expected = {
        "tags": cli_json(workspace, "--list-tags", "--order-by", "tag", "--order", "desc"),
        "dupes": cli_json(workspace, "--tag-dupes"),
        "diagnostics": cli_json(workspace, "--diagnostics"),
        "suggest": cli_json(workspace, "--suggest-tags", MEMORY, "--limit", "3"),
    }

    async def main() -> None:
        async with served(workspace) as session:
            whole = await answer(session, "read_memory", {"path": MEMORY})
            assert whole["text"] == data.decode()
            assert whole["total_lines"] == len(lines) and whole["start_line"] == 1
            assert whole["stamp"]["sha256"] == hashlib.sha256(data).hexdigest()
            assert whole["stamp"]["size"] == len(data)
            assert whole["tags"] == ["project_atlas", "alice", "acme_corp"]
            part = await answer(session, "read_memory", {"path": MEMORY, "start_line": 2,
                                                         "end_line": 3})  # fmt: skip
            assert part["text"] == "".join(lines[1:3])
            tail = await answer(session, "read_memory", {"path": MEMORY, "start_line": 5,
                                                         "end_line": 10**6})  # fmt: skip
            assert tail["text"] == "".join(lines[4:]) and tail["end_line"] == len(lines)
            message = await refusal(session, "read_memory", {"path": MEMORY, "start_line": 3,
                                                             "end_line": 2})  # fmt: skip
            assert "before" in message
            links = await answer(session, "neighbours", {"path": "daily/2026-09-01.md"})
            assert MEMORY in [link["path"] for link in links["outlinks"]]
            back = await answer(session, "neighbours", {"path": MEMORY})
            assert "daily/2026-09-01.md" in [link["path"] for link in back["inlinks"]]
            tags = await answer(session, "list_tags", {"order_by": "tag", "order": "desc"})
            assert tags == expected["tags"]
            assert await answer(session, "tag_dupes", {}) == expected["dupes"]
            assert await answer(session, "diagnostics", {}) == expected["diagnostics"]
            suggested = await answer(session, "suggest_tags", {"path": MEMORY, "limit": 3})
            assert suggested == expected["suggest"]

    anyio.run(main)
