"""The MCP server on stdio (the official SDK's low-level server): tool and resource
requests handed to the tables in read_tools / write_tools / resources. Every failure goes
back as a message: a ToolError as a tool result with isError, anything unexpected as the
same with its type (the traceback goes to stderr only)."""

from __future__ import annotations

import logging
import sys
import traceback
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from reme_tui import __version__
from reme_tui.engine import Engine
from reme_tui.safe_text import for_json
from reme_tui.shape_version import versioned

from . import resources
from .arguments import ToolError
from .catalog import Context, ToolSpec
from .live import LiveIndex
from .read_tools import READ_TOOLS
from .write_tools import WRITE_TOOLS

INSTRUCTIONS = (
    "A ReMe agent-memory workspace (Markdown memories under daily/ and digest/), indexed "
    "live. Use `search` to find memories, `read_memory` to read one, `neighbours` for its "
    "links, `suggest_tags` for tags that fit it, `list_tags` / `tag_dupes` for the tag "
    "vocabulary, `diagnostics` for what ReMe cannot read, `changes` for recent edits."
)


def tools_for(*, allow_writes: bool) -> dict[str, ToolSpec]:
    chosen = READ_TOOLS + (WRITE_TOOLS if allow_writes else ())
    return {spec.name: spec for spec in chosen}


def _tool(spec: ToolSpec) -> types.Tool:
    hints = dict(spec.annotations) if spec.writes else {"readOnlyHint": True}
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema,
        annotations=types.ToolAnnotations(**hints),
    )


def _failure(message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], is_error=True
    )


def call(
    tools: dict[str, ToolSpec], context: Context, name: str, args: Any
) -> types.CallToolResult:
    """One tool call, never raising: a result, or a failure with a message."""
    spec = tools.get(name)
    if spec is None:
        known = ", ".join(sorted(tools))
        hint = " (write tools need `reme-tui mcp --allow-writes`)" if name in _WRITE_NAMES else ""
        return _failure(f"unknown tool {name[:100]!r}{hint}; tools: {known}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return _failure("arguments must be an object")
    try:
        document = versioned(spec.call(context, args))
    except ToolError as exc:
        return _failure(str(exc))
    except Exception as exc:  # a bug or an I/O failure: a message, never a traceback
        traceback.print_exc(file=sys.stderr)
        return _failure(f"{name} failed: {type(exc).__name__}: {exc}")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=for_json(document, indent=None))],
        structured_content=document,
    )


_WRITE_NAMES = frozenset(spec.name for spec in WRITE_TOOLS)


def build_server(context: Context, *, allow_writes: bool) -> Server[Any]:
    tools = tools_for(allow_writes=allow_writes)
    listed = [_tool(spec) for spec in tools.values()]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return call(tools, context, params.name, params.arguments)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        found = [
            types.Resource(uri=resources.TAGS_URI, name="tags", mime_type="application/json",
                           description="Every tag with its file count (as list_tags).")
        ]  # fmt: skip
        for uri, path, description in resources.memory_resources(context.engine):
            found.append(
                types.Resource(uri=uri, name=path, mime_type="text/markdown",
                               description=description or None)
            )  # fmt: skip
        return types.ListResourcesResult(resources=found)

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            mime, text = resources.read(context, uri)
        except ToolError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        contents = types.TextResourceContents(uri=uri, text=text, mime_type=mime)
        return types.ReadResourceResult(contents=[contents])

    return Server(
        "reme-tui",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def serve(engine: Engine, *, allow_writes: bool = False, vector_weight: float | None = None,
          live: bool = True) -> None:  # fmt: skip
    """Serve `engine` over stdin/stdout until the client closes the connection."""
    logging.getLogger("mcp").setLevel(logging.WARNING)
    context = Context(engine, vector_weight)
    server = build_server(context, allow_writes=allow_writes)
    watcher = LiveIndex(engine) if live else None
    if watcher is not None:
        watcher.start()

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(run)
    finally:
        if watcher is not None:
            watcher.stop()
        context.close()
        engine.stop_embedding(timeout=5)


def tool_names(*, allow_writes: bool) -> list[str]:
    return list(tools_for(allow_writes=allow_writes))


__all__ = ["serve", "tool_names"]
