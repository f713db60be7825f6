"""Resources: each memory as `reme://<workspace-relative path>`, and the tag list as
`reme://tags` (JSON)."""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

from reme_tui.engine import Engine

from .arguments import ToolError
from .catalog import Context
from .read_tools import list_tags, read_memory

SCHEME = "reme://"
TAGS_URI = "reme://tags"
MAX_LISTED = 50_000  # memories listed as resources (a bigger workspace lists its first ones)
MAX_DESCRIPTION = 300  # characters of a memory's description in the listing (it is hostile)


def memory_uri(path: str) -> str:
    return SCHEME + quote(path, safe="/-._~")


def memory_resources(engine: Engine) -> list[tuple[str, str, str | None]]:
    """(uri, path, description) of every memory, in path order."""
    found = []
    for path in engine.paths()[:MAX_LISTED]:
        memory = engine.memory(path)
        description = memory.description if memory is not None else None
        if description is not None and len(description) > MAX_DESCRIPTION:
            description = description[: MAX_DESCRIPTION - 1] + "…"
        found.append((memory_uri(path), path, description))
    return found


def read(context: Context, uri: str) -> tuple[str, str]:
    """(mime type, text) of a resource; ToolError when it names nothing readable."""
    if uri == TAGS_URI:
        return "application/json", json.dumps(list_tags(context, {}), ensure_ascii=False)
    if not uri.startswith(SCHEME):
        raise ToolError(f"unknown resource {uri[:200]!r}: expected reme://<path> or {TAGS_URI}")
    path = unquote(uri[len(SCHEME) :])
    return "text/markdown", str(read_memory(context, {"path": path})["text"])
