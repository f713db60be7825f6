"""Small helpers shared by tests: write a workspace from a dict of path -> text."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_workspace(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Create each file (parents included) under root; bytes are written verbatim."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def memory(body: str, *, name: str = "Note", tags: list[str] | None = None, extra: str = "") -> str:
    """A memory file with simple frontmatter."""
    lines = ["---", f"name: {name}", "description: A note"]
    if tags is not None:
        lines.append("memory_tags: [" + ", ".join(tags) + "]")
    if extra:
        lines.append(extra)
    lines.append("---")
    return "\n".join(lines) + "\n" + body
