"""Provenance: links from a memory to what it was made from (conversations, resources).

ReMe writes `source_conversation: '[[session/dialog/<id>.jsonl]]'` on daily notes,
`source_resource` / `source_images` on resource notes, and a `## Sources` section of wikilinks
in digest nodes. Those targets are files, not memories: a link to an existing file in the
workspace is a source, a link into `session/` or `resource/` whose file is missing is a
missing source, and only a link that looks like a memory (or names nothing) is dangling.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..files import PathOutsideWorkspace, resolves_inside, to_relative
from ..records import FieldLink, Link
from .layout import RemeLayout

SourceKind = Literal["conversation", "image", "resource", "memory", "file"]
LinkRole = Literal["memory", "source", "missing-source", "dangling"]

IMAGE_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff", ".heic", ".svg"}
)


@dataclass(frozen=True, slots=True)
class Source:
    """One provenance link of a memory: where it points, what it is, and whether it exists."""

    target: str
    kind: SourceKind
    exists: bool
    field: str | None  # the frontmatter key it came from; None for a body link
    line: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.target,
            "kind": self.kind,
            "exists": self.exists,
            "field": self.field,
            "line": self.line,
        }


def source_kind(target: str, layout: RemeLayout, *, is_memory: bool = False) -> SourceKind:
    if is_memory:
        return "memory"
    lowered = target.lower()
    if lowered.endswith(".jsonl") and target.startswith(layout.dialog_dir + "/"):
        return "conversation"
    if os.path.splitext(lowered)[1] in IMAGE_SUFFIXES:
        return "image"
    if target.startswith(layout.resource_dir + "/"):
        return "resource"
    return "file"


class SourceChecker:
    """Answers "does this link target exist as a file in the workspace?", memoized for one
    pass (diagnostics of the whole workspace ask about the same transcripts many times)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._root_real = os.path.realpath(root)
        self._known: dict[str, bool] = {}

    def exists(self, target: str) -> bool:
        found = self._known.get(target)
        if found is None:
            found = self._known[target] = self._check(target)
        return found

    def _check(self, target: str) -> bool:
        if target.startswith("/") or "\x00" in target:
            return False
        try:
            rel = to_relative(self._root, target)
        except PathOutsideWorkspace:
            return False
        if not rel:
            return False
        path = self._root / rel
        if not resolves_inside(self._root_real, path):
            return False
        try:
            return stat.S_ISREG(os.stat(path).st_mode)
        except (OSError, ValueError):
            return False


def is_source_area(target: str, layout: RemeLayout) -> bool:
    """Under ReMe's session or resource folder: a source even when the file is gone."""
    return target.startswith((layout.session_dir + "/", layout.resource_dir + "/"))


def link_role(
    target: str,
    *,
    is_indexed: Callable[[str], bool],
    looks_like_memory: Callable[[str], bool],
    checker: SourceChecker,
    layout: RemeLayout,
) -> LinkRole:
    """What a body wikilink is: a memory edge, a source, a missing source, or dangling."""
    if is_indexed(target):
        return "memory"
    if looks_like_memory(target):
        return "dangling"
    if checker.exists(target):
        return "source"
    if is_source_area(target, layout):
        return "missing-source"
    return "dangling"


def sources_of(
    field_links: Iterable[FieldLink],
    body_links: Iterable[Link],
    *,
    is_indexed: Callable[[str], bool],
    looks_like_memory: Callable[[str], bool],
    checker: SourceChecker,
    layout: RemeLayout,
) -> list[Source]:
    """A memory's sources: frontmatter provenance first (every link there is provenance,
    memories included), then body links to files that are not memories."""
    found: dict[str, Source] = {}
    for link in field_links:
        if link.target in found:
            continue
        indexed = is_indexed(link.target)
        found[link.target] = Source(
            target=link.target,
            kind=source_kind(link.target, layout, is_memory=indexed),
            exists=indexed or checker.exists(link.target),
            field=link.field,
            line=link.line,
        )
    for body_link in body_links:
        if body_link.target in found:
            continue
        role = link_role(
            body_link.target,
            is_indexed=is_indexed,
            looks_like_memory=looks_like_memory,
            checker=checker,
            layout=layout,
        )
        if role in ("source", "missing-source"):
            found[body_link.target] = Source(
                target=body_link.target,
                kind=source_kind(body_link.target, layout),
                exists=role == "source",
                field=None,
                line=body_link.line,
            )
    return list(found.values())
