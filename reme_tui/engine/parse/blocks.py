"""A memory body's top-level blocks as the chunker needs them, whoever rendered them.

Two producers fill these records: mistletoe (parse, then its ``MarkdownRenderer``, as
ReMe does) and the exact fast path (``fast_blocks``) for bodies made only of blocks whose
rendering it can reproduce. The chunker packs them the same way whichever produced them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

BlockKind = Literal["heading", "table", "code", "list", "other"]

# A list's items (rendered item text, 1-based line within the body or None) or a table's
# data rows (text unused, line); computed only when an oversized block must be split.
Units = Callable[[], list[tuple[str, int | None]]]


@dataclass(frozen=True, slots=True)
class CodeParts:
    """What splitting an oversized fenced code block needs."""

    indentation: int
    delimiter: str
    info_string: str
    content: str  # the code lines, each ending in a newline


@dataclass(frozen=True, slots=True)
class Block:
    """One top-level block. ``text`` is its rendered Markdown without trailing newlines
    (for a heading: the heading's text only, its level in ``level``); ``line`` is its
    1-based first line within the body (None when the parser gave none)."""

    kind: BlockKind
    line: int | None
    text: str
    level: int = 0
    code: CodeParts | None = None
    units: Units | None = None
