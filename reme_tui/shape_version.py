"""The version of the JSON shapes reme-tui prints (`--json`, `--jsonl`) and the MCP server
answers with: every document carries it as ``"schema"``, first. Raised when a field changes
meaning or goes away; a new field does not raise it. One number for the command line and the
MCP server, because they share the shapes (an MCP search equals `reme-tui search --json`)."""

from __future__ import annotations

from typing import Any

SCHEMA = 1


def versioned(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``"schema"`` first (a ``schema`` it holds is replaced)."""
    return {"schema": SCHEMA, **{k: v for k, v in document.items() if k != "schema"}}
