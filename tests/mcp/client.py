"""Drive `python -m reme_tui mcp WS` with the MCP SDK's own stdio client."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

DEADLINE_S = 60.0  # generous: only a broken watcher takes this long


@asynccontextmanager
async def served(
    workspace: Path,
    *extra: str,
    command: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> AsyncIterator[ClientSession]:
    """A connected, initialized session with the server on ``workspace``; the whole
    environment is passed on (the tests' private XDG directories included). The server's
    stderr is appended to ``server-stderr.log`` beside the workspace. ``command`` runs
    another reme-tui (the installed one) and ``env`` replaces the environment."""
    argv = command or [sys.executable, "-m", "reme_tui"]
    params = StdioServerParameters(
        command=argv[0],
        args=[*argv[1:], "mcp", str(workspace), *extra],
        env=dict(os.environ) if env is None else env,
        cwd=str(workspace.parent),
    )
    log = workspace.parent / "server-stderr.log"
    with log.open("a") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=DEADLINE_S) as session,
        ):
            await session.initialize()
            yield session


async def call(session: ClientSession, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await session.call_tool(name, args)
    assert isinstance(result, CallToolResult)
    return result


async def answer(session: ClientSession, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A successful call's JSON document (the text block and the structured one agree)."""
    result = await call(session, name, args)
    assert not result.is_error, result.content
    text = result.content[0].text  # type: ignore[union-attr]
    document = json.loads(text)
    assert document == result.structured_content
    return document  # type: ignore[no-any-return]


async def refusal(session: ClientSession, name: str, args: dict[str, Any]) -> str:
    """A failed call's message (a tool error with text, never a traceback)."""
    result = await call(session, name, args)
    assert result.is_error, result.structured_content
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in text
    return text


async def eventually(check: Callable[[], Awaitable[bool]]) -> None:
    """Poll ``check`` until it holds (the watcher's debounce), with a generous deadline."""
    import anyio

    end = time.monotonic() + DEADLINE_S
    while not await check():
        assert time.monotonic() < end, "the server did not see the change in time"
        await anyio.sleep(0.05)
