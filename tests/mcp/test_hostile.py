"""Hostile arguments get tool errors with a message; nothing outside the workspace is read
or written, and the server keeps serving."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from .client import answer, refusal, served

SECRET = "zorbleflux"  # a word only the file outside holds


@pytest.fixture
def outside(tmp_path: Path, workspace: Path) -> Path:
    secret = tmp_path / "secret.md"
    secret.write_text(f"---\nname: secret\nmemory_tags: [s]\n---\n{SECRET}\n")
    (workspace / "daily" / "leak.md").symlink_to(secret)
    return secret


def test_hostile_arguments(workspace: Path, outside: Path) -> None:
    secret_before = outside.read_bytes()
    escapes = [
        "../secret.md",
        "daily/../../secret.md",
        str(outside),
        "daily/leak.md",  # a symlink whose target is outside
        "C:\\secret.md",
        "daily/\x00.md",
    ]

    async def main() -> list[str]:
        messages = []
        async with served(workspace, "--allow-writes") as session:
            for path in escapes:
                for tool, extra in (
                    ("read_memory", {}),
                    ("neighbours", {}),
                    ("add_tag", {"tag": "pwned"}),
                    ("set_tags", {"tags": []}),
                    ("explain", {"query": SECRET}),
                ):
                    messages.append(await refusal(session, tool, {"path": path, **extra}))
            for args in (
                {"query": "atlas", "limit": 10**12},
                {"query": "atlas", "limit": 0},
                {"query": "atlas", "limit": "5"},
                {"query": "atlas", "tags": ["!!!"]},
                {"query": "atlas", "tags": ["t"] * 1000},
                {"query": "x" * 100_001},
                {"query": "   "},
                {"query": "atlas", "meta": ["=1"]},
                {"query": "atlas", "bogus": 1},
                {"query": 7},
                {},
            ):
                messages.append(await refusal(session, "search", args))
            messages.append(await refusal(session, "list_tags", {"order": "sideways"}))
            messages.append(await refusal(session, "changes", {"since": "the dawn of time"}))
            messages.append(await refusal(session, "read_memory", {"path": "daily/x.md",
                                                                   "start_line": -1}))  # fmt: skip
            messages.append(await refusal(session, "no_such_tool", {}))
            for uri in ("reme://../secret.md", "reme://daily/leak.md", "file:///etc/passwd"):
                with pytest.raises(MCPError):
                    await session.read_resource(uri)
            # Still serving, and the workspace's own files are fine.
            # A bad date is not refused: ignored with a warning, as ReMe does (issue 22).
            dated = await answer(session, "search", {"query": "atlas", "since": "2026-02-30"})
            assert any("2026-02-30" in warning for warning in dated["warnings"])
            found = await answer(session, "search", {"query": SECRET})
            assert found["results"] == []
            tags = (await answer(session, "list_tags", {}))["items"]
            assert "s" not in [tag for tag, _count in tags]  # the file outside is not indexed
        return messages

    messages = anyio.run(main)
    assert all(message.strip() for message in messages)
    assert not any(SECRET in message for message in messages)
    assert outside.read_bytes() == secret_before
    assert "limit must be between 1 and 100" in "\n".join(messages)
    log = (workspace.parent / "server-stderr.log").read_text()
    assert "Traceback" not in log
