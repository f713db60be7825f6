"""ReMe-compatible Markdown chunking of a memory body, with 1-based file line ranges.

The frontmatter is split off before (``frontmatter/split.py``).

Mirrors reme-ai 0.4.2.0's ``markdown`` file chunker with its default settings
(10,000-byte chunks, ancestor-heading breadcrumbs on, at most 100 headings for
the Markdown path). Chunk text is *re-rendered* Markdown: the reference parses
the body with mistletoe and renders every block back with mistletoe's
``MarkdownRenderer`` (tables re-padded, setext headings turned into ATX ones,
blank lines between blocks collapsed to one, trailing newlines dropped), so
this module uses the same library and version to produce byte-identical text.

Two paths, as in the reference:

* Markdown path (at most 100 headings outside fenced code): blocks are folded
  into a heading tree; a subtree that fits is one chunk, otherwise fitting
  children are packed greedily in document order and oversized children are
  split recursively. Chunks that start inside a section carry their ancestor
  headings in front (outside their line range). Oversized single blocks are
  split on rows (tables, header repeated), lines (fenced code, fences
  repeated), items (lists) or rendered lines (anything else), with
  ``[Part i/n]`` markers when a block yields several pieces.
* Plain path (more than 100 headings): raw byte windows of 10,000 bytes with
  100 bytes of overlap that avoid cutting inside a ``[[wikilink]]``; text is
  the raw body slice (not re-rendered).

Line ranges follow the reference, which is not always "first and last
non-blank line": a chunk holding the whole body starts at the body's first
line (often the blank line after the closing ``---``), end lines come from the
rendered block's line count, and plain-path windows start and end mid-line.

mistletoe keeps its token registry in module globals, so parsing is serialized
with a lock; chunk from one thread at a time per process for best throughput.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .mistletoe_import import preload_core_tokens

preload_core_tokens()  # before mistletoe's package runs its slow punctuation scan

from mistletoe.block_token import (  # noqa: E402
    CodeFence,
    Document,
    Heading,
    List,
    ListItem,
    SetextHeading,
    Table,
    TableRow,
)
from mistletoe.markdown_renderer import BlankLine, MarkdownRenderer  # noqa: E402

from ..records import Chunk  # noqa: E402
from . import mistletoe_speedup  # noqa: E402
from .blocks import Block, CodeParts  # noqa: E402
from .fast_blocks import fast_blocks  # noqa: E402
from .frontmatter.split import normalize_newlines  # noqa: E402
from .wikilinks import wikilink_byte_spans  # noqa: E402

__all__ = [
    "CHUNK_BYTE_LIMIT",
    "MAX_AST_SECTIONS",
    "PLAIN_OVERLAP_BYTES",
    "chunk_body",
    "count_headings",
]

CHUNK_BYTE_LIMIT = 10_000
MAX_AST_SECTIONS = 100
PLAIN_OVERLAP_BYTES = 100

_ATX_RE = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)")
_SETEXT_UNDERLINE_RE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_INNER = "{inner}"  # placeholder in leaf envelopes (substituted with str.replace)
_SEP = "\n\n"

_MISTLETOE_LOCK = threading.Lock()


# -- Entry point ----------------------------------------------------------------


def chunk_body(path: str, body: str, first_line: int) -> list[Chunk]:
    """Chunks of ``body`` (text after the frontmatter) as the reference indexes them.

    ``first_line`` is the 1-based line number of the body's first line in the
    whole file (``split_frontmatter``'s third value). A blank or empty body has
    no chunks. CR / CRLF are normalized like the reference does on read.
    """
    body = normalize_newlines(body)
    if not body.strip():
        return []
    offset = first_line - 1
    if count_headings(body, stop_after=MAX_AST_SECTIONS) > MAX_AST_SECTIONS:
        drafts = _chunk_plain(body, offset)
    else:
        drafts = _chunk_markdown(body, offset)
    return [Chunk.of(path, d.start, d.end, d.text) for d in drafts]


def count_headings(body: str, stop_after: int | None = None) -> int:
    """ATX and setext headings outside fenced code, counted line by line without parsing.

    Stops early once the count exceeds ``stop_after``. Quirks kept from the
    reference: a fence closes only on the same character, at least as long, with
    nothing after it; a fence line resets setext detection; indentation is not
    otherwise considered (a ``# x`` inside an indented block still counts).
    """
    count = 0
    fence_char = ""
    fence_len = 0
    after_text = False
    for raw in body.split("\n"):
        line = raw[:-1] if raw.endswith("\r") else raw
        fence = _FENCE_RE.match(line)
        if fence:
            marker = fence.group(1)
            if not fence_char:
                fence_char, fence_len = marker[0], len(marker)
            elif _closes_fence(line, fence.end(), marker, fence_char, fence_len):
                fence_char, fence_len = "", 0
            after_text = False
            continue
        if fence_char:
            continue
        is_heading = _ATX_RE.match(line) is not None or (
            after_text and _SETEXT_UNDERLINE_RE.match(line) is not None
        )
        if is_heading:
            count += 1
            if stop_after is not None and count > stop_after:
                return count
        after_text = bool(line.strip()) and not is_heading
    return count


def _closes_fence(line: str, end: int, marker: str, fence_char: str, fence_len: int) -> bool:
    return marker[0] == fence_char and len(marker) >= fence_len and not line[end:].strip()


# -- Shared helpers -------------------------------------------------------------


@dataclass(slots=True)
class _Draft:
    """A chunk under construction (the packing cache grows its text and end line)."""

    text: str
    start: int
    end: int


def _nbytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _join(*parts: str) -> str:
    """Join non-empty parts with a blank line."""
    return _SEP.join(p for p in parts if p)


def _with_breadcrumb(breadcrumb: str, content: str) -> str:
    """``breadcrumb`` + blank line + ``content``; outer headings dropped first if too big."""
    if not breadcrumb:
        return content
    full = _join(breadcrumb, content)
    if _nbytes(full) <= CHUNK_BYTE_LIMIT:
        return full
    if CHUNK_BYTE_LIMIT - _nbytes(content) - 2 <= 0:
        return content
    headings = breadcrumb.split(_SEP)
    for first in range(1, len(headings)):
        candidate = _join(_SEP.join(headings[first:]), content)
        if _nbytes(candidate) <= CHUNK_BYTE_LIMIT:
            return candidate
    return content


# -- Plain path (too many headings) --------------------------------------------


def _chunk_plain(body: str, offset: int) -> list[_Draft]:
    """Overlapping byte windows that do not end or restart inside a wikilink."""
    data = body.encode("utf-8", "surrogatepass")
    size = len(data)
    newlines = [m.start() for m in re.finditer(b"\n", data)]
    spans = wikilink_byte_spans(data)
    span_starts = [s for s, _ in spans]
    drafts: list[_Draft] = []
    start = 0
    while start < size:
        end = min(start + CHUNK_BYTE_LIMIT, size)
        if end < size:
            span = _span_around(end, spans, span_starts)
            if span is not None and span[0] - start >= CHUNK_BYTE_LIMIT // 2:
                end = span[0]
        drafts.append(_plain_window(data, start, end, newlines, offset))
        if end >= size:
            break
        next_start = end - PLAIN_OVERLAP_BYTES
        span = _span_around(next_start, spans, span_starts)
        if span is not None:
            next_start = span[1]
        start = next_start if next_start > start else end
    return drafts


def _plain_window(data: bytes, start: int, end: int, newlines: list[int], offset: int) -> _Draft:
    first = bisect_right(newlines, start - 1) + 1
    last = bisect_right(newlines, end - 1) + 1
    if data[end - 1] == 0x0A:
        last -= 1
    text = data[start:end].decode("utf-8", "ignore")
    return _Draft(text, first + offset, last + offset)


def _span_around(
    pos: int, spans: list[tuple[int, int]], starts: list[int]
) -> tuple[int, int] | None:
    """The span with ``start < pos < end``, if any."""
    i = bisect_right(starts, pos) - 1
    if i < 0:
        return None
    s, e = spans[i]
    return (s, e) if s < pos < e else None


# -- Markdown path: heading tree ------------------------------------------------


@dataclass(slots=True)
class _Node:
    """``root``, ``section`` (heading + following blocks until an equal/higher heading) or
    ``body`` (one top-level block). ``text`` is the rendered subtree without the
    node's own heading; ``start``/``end`` span the subtree."""

    kind: str
    title: str = ""  # "## Heading" for sections
    level: int = 0
    children: list[_Node] = field(default_factory=list)
    block: Block | None = None
    text: str = ""
    start: int = 0
    end: int = 0

    @property
    def full_text(self) -> str:
        return _join(self.title, self.text)


def _chunk_markdown(body: str, offset: int) -> list[_Draft]:
    blocks = fast_blocks(body) if mistletoe_speedup.is_supported() else None
    if blocks is not None:
        return _TreeChunker().subtree(_build_tree(blocks, offset), ())
    with _MISTLETOE_LOCK, mistletoe_speedup.fast_scanners(), MarkdownRenderer() as renderer:
        root = _build_tree(_mistletoe_blocks(Document(body), renderer.render), offset)
        return _TreeChunker().subtree(root, ())


def _mistletoe_blocks(doc: Document, render: Callable[[Any], str]) -> Iterator[Block]:
    """The document's top-level blocks as mistletoe renders them (lazily: the caller holds
    the mistletoe lock while it consumes them and their units)."""
    for block in doc.children or []:
        if isinstance(block, BlankLine):
            continue
        line = getattr(block, "line_number", None)
        if isinstance(block, Heading | SetextHeading):
            level = max(1, getattr(block, "level", 1))
            yield Block("heading", line, _heading_text(block, render), level)
            continue
        text = render(block).rstrip("\n")
        if isinstance(block, Table):
            yield Block("table", line, text, units=_row_lines(block))
        elif isinstance(block, CodeFence):
            content = str(block.content)
            parts = CodeParts(block.indentation or 0, block.delimiter, block.info_string, content)
            yield Block("code", line, text, code=parts)
        elif isinstance(block, List):
            yield Block("list", line, text, units=_list_items(block, render))
        else:
            yield Block("other", line, text)


def _row_lines(table: Table) -> Callable[[], list[tuple[str, int | None]]]:
    return lambda: [
        ("", row.line_number) for row in table.children or [] if isinstance(row, TableRow)
    ]


def _list_items(
    block: List, render: Callable[[Any], str]
) -> Callable[[], list[tuple[str, int | None]]]:
    return lambda: [
        (render(item).rstrip("\n"), item.line_number)
        for item in block.children or []
        if isinstance(item, ListItem)
    ]


def _build_tree(blocks: Iterable[Block], offset: int) -> _Node:
    root = _Node("root", start=offset + 1, end=offset + 1)
    stack = [root]
    for block in blocks:
        line = block.line + offset if block.line is not None else stack[-1].start
        if block.kind == "heading":
            while len(stack) > 1 and stack[-1].level >= block.level:
                stack.pop()
            title = f"{'#' * block.level} {block.text}"
            section = _Node("section", title=title, level=block.level, start=line)
            stack[-1].children.append(section)
            stack.append(section)
            continue
        text = block.text
        if text:
            node = _Node("body", block=block, text=text, start=line, end=line + text.count("\n"))
            stack[-1].children.append(node)
    _finish(root)
    return root


def _heading_text(block: Any, render: Callable[[Any], str]) -> str:
    rendered = render(block).rstrip("\n")
    if rendered.startswith("#"):
        return rendered.lstrip("#").strip()
    return rendered.split("\n", 1)[0].strip()


def _finish(node: _Node) -> None:
    """Bottom-up: widen line ranges over children and render container text."""
    for child in node.children:
        _finish(child)
    if node.children:
        first = node.children[0].start
        node.start = min(node.start, first) if node.start else first
        node.end = max(child.end for child in node.children)
    elif node.end < node.start:
        node.end = node.start
    if node.kind != "body":
        node.text = _SEP.join(t for t in (c.full_text for c in node.children) if t)


# -- Markdown path: packing -----------------------------------------------------


class _TreeChunker:
    """Recursive greedy packing of the heading tree into drafts."""

    def subtree(self, node: _Node, ancestors: tuple[str, ...]) -> list[_Draft]:
        breadcrumb = _SEP.join(a for a in ancestors if a)
        whole = node.full_text
        if whole and _nbytes(_with_breadcrumb(breadcrumb, whole)) <= CHUNK_BYTE_LIMIT:
            return [_Draft(_with_breadcrumb(breadcrumb, whole), node.start, node.end)]
        if node.kind == "body":
            return self._split_block(node, breadcrumb)
        return self._pack_children(node, ancestors, breadcrumb)

    def _pack_children(
        self, node: _Node, ancestors: tuple[str, ...], breadcrumb: str
    ) -> list[_Draft]:
        inner = (*ancestors, node.title) if node.kind == "section" else ancestors
        inner_crumb = _SEP.join(a for a in inner if a)
        packer = _Packer()
        if node.title:
            packer.add(node.title, node.start, node.start, breadcrumb)
        for child in node.children:
            text = child.full_text
            if _nbytes(text) <= CHUNK_BYTE_LIMIT:
                packer.add(text, child.start, child.end, inner_crumb)
            else:
                packer.flush()
                packer.out.extend(self.subtree(child, inner))
        packer.flush()
        return packer.out

    def _split_block(self, node: _Node, breadcrumb: str) -> list[_Draft]:
        block = node.block
        if block is None:
            return _split_lines(node, breadcrumb)
        if block.kind == "table" and block.units is not None:
            return _split_table(node, block, block.units(), breadcrumb)
        if block.kind == "code" and block.code is not None:
            return _split_code(node, block.code, breadcrumb)
        if block.kind == "list" and block.units is not None:
            return _split_list(node, block, block.units(), breadcrumb)
        return _split_lines(node, breadcrumb)


def _split_table(
    node: _Node, block: Block, rows: list[tuple[str, int | None]], breadcrumb: str
) -> list[_Draft]:
    """Rows packed under a repeated header + separator line."""
    lines = node.text.split("\n")
    header, data = "\n".join(lines[:2]), lines[2:]
    shift = node.start - (block.line or node.start)

    def line_of(i: int) -> int:
        if i < len(rows):
            row_line = rows[i][1]
            if row_line:
                return row_line + shift
        return node.start + 2 + i

    units = [(row, line_of(i), line_of(i)) for i, row in enumerate(data)]
    return _pack_units(units, breadcrumb, f"{header}\n{_INNER}")


def _split_list(
    node: _Node, block: Block, items: list[tuple[str, int | None]], breadcrumb: str
) -> list[_Draft]:
    """Items packed one per line group; an oversized item stays whole."""
    if not items:
        return _split_lines(node, breadcrumb)
    shift = node.start - (block.line or node.start)
    units: list[tuple[str, int, int]] = []
    for text, item_line in items:
        if text:
            line = item_line + shift if item_line else node.start
            units.append((text, line, line + text.count("\n")))
    return _pack_units(units, breadcrumb, _INNER)


def _split_code(node: _Node, code: CodeParts, breadcrumb: str) -> list[_Draft]:
    """Code lines packed inside a repeated opening and closing fence."""
    indent = " " * code.indentation
    fence = f"{indent}{code.delimiter}"
    source = code.content.rstrip("\n")
    if not source:
        return []
    first = node.start + 1
    units = [(indent + ln, first + i, first + i) for i, ln in enumerate(source.split("\n"))]
    envelope = f"{fence}{code.info_string or ''}\n{_INNER}\n{fence}"
    return _pack_units(units, breadcrumb, envelope, keep_empty=True)


def _split_lines(node: _Node, breadcrumb: str) -> list[_Draft]:
    """Last resort for paragraphs, quotes, HTML...: rendered lines, blank ones dropped."""
    units = [(ln, node.start + i, node.start + i) for i, ln in enumerate(node.text.split("\n"))]
    return _pack_units(units, breadcrumb, _INNER)


class _Packer:
    """Greedy cache of consecutive subtrees; the cache's first piece carries the breadcrumb."""

    def __init__(self) -> None:
        self.out: list[_Draft] = []
        self._cache: _Draft | None = None

    def flush(self) -> None:
        if self._cache is not None:
            self.out.append(self._cache)
            self._cache = None

    def add(self, text: str, start: int, end: int, breadcrumb: str) -> None:
        if not text:
            return
        if self._cache is not None:
            merged = _join(self._cache.text, text)
            merged_size = _nbytes(merged)
            if merged_size <= CHUNK_BYTE_LIMIT:
                self._cache.text = merged
                self._cache.end = end
                if merged_size == CHUNK_BYTE_LIMIT:
                    self.flush()
                return
            self.flush()
        self._cache = _Draft(_with_breadcrumb(breadcrumb, text), start, end)
        if _nbytes(self._cache.text) >= CHUNK_BYTE_LIMIT:
            self.flush()


def _pack_units(
    units: list[tuple[str, int, int]],
    breadcrumb: str,
    envelope: str,
    keep_empty: bool = False,
) -> list[_Draft]:
    """Greedily pack ``(text, start, end)`` units joined by newlines into envelopes.

    The envelope, the breadcrumb and the widest ``[Part n/n]`` marker (sized on the
    number of units, blank ones included) all count against the limit; a unit too
    big on its own still gets a piece of its own. Several pieces get part markers.
    """
    overhead = _nbytes(envelope.replace(_INNER, ""))
    if breadcrumb:
        overhead += _nbytes(breadcrumb) + len(_SEP)
    if len(units) > 1:
        overhead += _nbytes(f"[Part {len(units)}/{len(units)}]\n\n")
    pieces = _greedy_pieces(units, CHUNK_BYTE_LIMIT - overhead, keep_empty)
    total = len(pieces)
    drafts = []
    for number, (inner, start, end) in enumerate(pieces, 1):
        content = envelope.replace(_INNER, inner)
        if total > 1:
            content = f"[Part {number}/{total}]\n\n{content}"
        drafts.append(_Draft(_with_breadcrumb(breadcrumb, content), start, end))
    return drafts


def _greedy_pieces(
    units: list[tuple[str, int, int]], budget: int, keep_empty: bool
) -> list[tuple[str, int, int]]:
    pieces: list[tuple[str, int, int]] = []
    bucket: list[tuple[str, int, int]] = []
    used = 0
    for unit in units:
        if not unit[0] and not keep_empty:
            continue
        size = _nbytes(unit[0])
        sep = 1 if bucket else 0
        if bucket and used + sep + size > budget:
            pieces.append(("\n".join(t for t, _, _ in bucket), bucket[0][1], bucket[-1][2]))
            bucket, used, sep = [], 0, 0
        bucket.append(unit)
        used += sep + size
    if bucket:
        pieces.append(("\n".join(t for t, _, _ in bucket), bucket[0][1], bucket[-1][2]))
    return pieces
