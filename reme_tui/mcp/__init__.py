"""The MCP server: agents (Claude Code, Claude Desktop, any MCP client) reach the live,
ReMe-exact index over stdio. Only the engine's faces are used; no UI.

- ``arguments``  tool arguments are hostile: one checked getter per kind;
- ``catalog``    what a tool is (name, description, JSON schema, handler);
- ``read_tools`` search, list_tags, read_memory, neighbours, suggest_tags, tag_dupes,
  diagnostics, changes;
- ``write_tools`` add_tag, remove_tag, set_tags, merge_tags (only with --allow-writes);
- ``resources``  each memory as ``reme://<path>``, the tag list as ``reme://tags``;
- ``live``       the watcher thread that keeps the index current;
- ``server``     the SDK's low-level server on stdio.
"""

from .server import serve, tool_names

__all__ = ["serve", "tool_names"]
