"""Surgical frontmatter tag edits, atomic writes and conflict checks.

Only the lines of the tag entry (``memory_tags`` by default) ever change; every
other byte of the file stays as it was. Each rewrite is checked by re-parsing
the result before it is written, and the write itself is atomic (temporary file
in the same directory, fsync, rename) and refused when the file changed since
the caller read it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

import yaml

from reme_tui.engine.chunking import normalize_newlines, split_frontmatter
from reme_tui.engine.tags import (
    DEFAULT_TAG_FIELD,
    MAX_TAG_LENGTH,
    MAX_TAGS_PER_FILE,
    judge_tag,
    normalize_tag,
)
from reme_tui.engine.workspace import MEMORY_ROOTS

_BOM = "\ufeff"
BOM_NOTE = (
    "the file starts with a byte-order mark, so ReMe does not see its frontmatter: "
    "the tags were written but will not be indexed until the BOM is removed"
)
# Characters YAML treats as line breaks that a plain "\n" split does not see.
_HIDDEN_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")
# PyYAML's reader refuses these anywhere in a stream.
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_NEEDS_ESCAPE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_NEAR_KEY_STRIP = re.compile(r"[\s_\-]+")


# --------------------------------------------------------------------------- errors


class EditError(Exception):
    """Base of every refusal from this module; ``exit_code`` is the headless exit code."""

    exit_code = 1


class UnsafeEditError(EditError):
    """The file cannot be rewritten without risking other bytes (invalid YAML, anchors, ...)."""


class ConflictError(EditError):
    """The file changed on disk since it was read; ``current`` is its fresh stamp."""

    def __init__(self, message: str, current: FileStamp | None) -> None:
        super().__init__(message)
        self.current = current


class PathRefused(EditError, ValueError):
    """The path is outside the workspace or not a memory file (a usage error)."""

    exit_code = 2


class InvalidTag(EditError, ValueError):
    """A tag normalizes to nothing or is too long (a usage error)."""

    exit_code = 2


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What the editor read: compared before every write."""

    mtime_ns: int
    size: int
    sha256: str

    def matches(self, other: FileStamp) -> bool:
        """Cheap fields first, then the content hash."""
        if self.size != other.size or self.mtime_ns != other.mtime_ns:
            return False
        return self.sha256 == other.sha256


@dataclass(frozen=True, slots=True)
class AddTag:
    """Append ``tag`` unless an item equal after normalization is present."""

    tag: str


@dataclass(frozen=True, slots=True)
class RemoveTag:
    """Remove every item equal to ``tag`` after normalization."""

    tag: str


@dataclass(frozen=True, slots=True)
class SetTags:
    """Replace the list with ``tags`` (written as given, in order)."""

    tags: tuple[str, ...]

    def __init__(self, tags: Iterable[str]) -> None:
        object.__setattr__(self, "tags", tuple(tags))


TagOp = AddTag | RemoveTag | SetTags


@dataclass(frozen=True, slots=True)
class EditResult:
    """Outcome of ``edit_tags``; tag lists are raw items as ``read_tags`` gives them."""

    path: str
    changed: bool
    old_tags: tuple[str, ...]
    new_tags: tuple[str, ...]
    old_stamp: FileStamp
    new_stamp: FileStamp
    notes: tuple[str, ...] = ()  # things the user should know although the edit succeeded

    @property
    def old_canonical(self) -> tuple[str, ...]:
        return effective_tags(self.old_tags)

    @property
    def new_canonical(self) -> tuple[str, ...]:
        return effective_tags(self.new_tags)


WarningKind = Literal["invalid", "too-long", "duplicate", "overflow", "near-duplicate"]


@dataclass(frozen=True, slots=True)
class TagWarning:
    """Something the editor shows before saving; ``index`` points into the input list."""

    kind: WarningKind
    index: int
    tag: str
    message: str
    suggestion: str | None = None


def effective_tags(items: Iterable[Any]) -> tuple[str, ...]:
    """The tags ReMe indexes for these items: normalized, deduplicated, first three."""
    seen: dict[str, None] = {}
    for item in items:
        canonical = normalize_tag(item)
        if canonical is not None:
            seen.setdefault(canonical, None)
    return tuple(seen)[:MAX_TAGS_PER_FILE]


# --------------------------------------------------------------------------- text model


@dataclass(frozen=True, slots=True)
class _Split:
    """A file's text cut into BOM, lines (with their endings) and frontmatter bounds."""

    bom: str
    lines: list[str]
    open_line: int | None  # index of the opening '---' line
    close_line: int | None  # index of the closing '---' line

    @property
    def has_frontmatter(self) -> bool:
        return self.open_line is not None

    def fm_text(self) -> str:
        assert self.open_line is not None and self.close_line is not None
        return "".join(self.lines[self.open_line + 1 : self.close_line])

    def eol(self) -> str:
        first = self.lines[0] if self.lines else ""
        return "\r\n" if first.endswith("\r\n") else "\n"


def _split_lines(text: str) -> list[str]:
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _split(text: str) -> _Split:
    bom = _BOM if text.startswith(_BOM) else ""
    lines = _split_lines(text[len(bom) :])
    if not lines or lines[0].strip() != "---":
        return _Split(bom, lines, None, None)
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return _Split(bom, lines, 0, index)
    return _Split(bom, lines, None, None)


@dataclass(slots=True)
class _Item:
    """One existing tag item and where its source text lives in the frontmatter."""

    value: Any
    display: str
    src: str
    start: int
    end: int
    chunk: str = ""  # block lists: the item's lines, with the comments before it


@dataclass(slots=True)
class _Entry:
    """The tag entry of a frontmatter, located in its text (offsets into fm_text)."""

    kind: Literal["absent", "empty", "scalar", "flow", "block"]
    items: list[_Item] = field(default_factory=list)
    span_start: int = 0  # start of the key line
    span_end: int = 0  # end of the entry's last line
    value_start: int = 0
    value_end: int = 0
    key_end: int = 0  # end of the key's text
    key_line: str = ""  # block/empty: the key line as written
    header: str = ""  # block: lines between the key line and the first item
    indent: str = "  "  # block: indentation of new items
    dash: str = "- "  # block: dash and the spacing after it
    sep: str = ", "  # flow: separator between items
    pad: tuple[str, str] = ("", "")  # flow: spacing inside the brackets
    quote: str = "'"  # preferred quote for new values
    eol: str = "\n"


@dataclass(slots=True)
class _Frontmatter:
    text: str
    data: dict[Any, Any]
    entry: _Entry
    pairs: list[tuple[yaml.Node, yaml.Node]]  # the root mapping's pairs as written


def _line_end(text: str, offset: int) -> int:
    """Offset just past the line ending of the line holding ``offset``."""
    newline = text.find("\n", offset)
    return len(text) if newline < 0 else newline + 1


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _last_char(node: yaml.Node) -> int:
    return max(node.start_mark.index, node.end_mark.index - 1)


def _load_frontmatter(fm_text: str, field_name: str) -> _Frontmatter:
    if _HIDDEN_BREAKS.search(fm_text):
        raise UnsafeEditError(
            "frontmatter contains a lone CR or a Unicode line separator; refusing to edit"
        )
    loader = _MarkingLoader(fm_text)
    try:
        root = loader.get_single_node()
        # Construction flattens merge keys into the node in place: keep the written pairs.
        pairs = list(root.value) if isinstance(root, yaml.MappingNode) else []
        data = None if root is None else loader.construct_document(root)
    except yaml.YAMLError as exc:
        raise UnsafeEditError(f"frontmatter YAML is invalid, refusing to edit: {exc}") from exc
    finally:
        loader.dispose()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise UnsafeEditError("frontmatter is not a YAML mapping; refusing to edit")
    if root is not None and not isinstance(root, yaml.MappingNode):
        raise UnsafeEditError("frontmatter is not a YAML mapping; refusing to edit")
    if root is not None and root.flow_style:
        raise UnsafeEditError("frontmatter is a flow mapping ({...}); refusing to edit")
    entry = _locate_entry(fm_text, pairs, data, field_name, loader.anchor_marks)
    return _Frontmatter(fm_text, _as_reference_reads(fm_text, data, field_name), entry, pairs)


def _as_reference_reads(fm_text: str, data: dict[Any, Any], field_name: str) -> dict[Any, Any]:
    """The mapping as ReMe loads it (from the stripped text); refuse if it differs from ours.

    Stripping matters for an indented first key or a block scalar at the very end.
    """
    stripped = fm_text.strip()
    unindented = fm_text.lstrip("\r\n") == fm_text.lstrip()
    if unindented and "|" not in fm_text and ">" not in fm_text:
        return data  # nothing that stripping can change
    try:
        ref = yaml.safe_load(stripped)
    except yaml.YAMLError as exc:
        raise UnsafeEditError(f"frontmatter YAML is invalid as ReMe reads it: {exc}") from exc
    ref = {} if ref is None else ref
    if not isinstance(ref, dict) or list(ref) != list(data):
        raise UnsafeEditError("ReMe reads this frontmatter differently (indentation); refusing")
    if not _equal_data(ref.get(field_name), data.get(field_name)):
        raise UnsafeEditError(f"ReMe reads `{field_name}` differently; refusing to edit")
    return ref


class _MarkingLoader(yaml.SafeLoader):
    """The safe loader, also noting where anchors and aliases occur (one parse for all)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.anchor_marks: list[int] = []

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            self.anchor_marks.append(event.start_mark.index)
        return super().compose_node(parent, index)


def _locate_entry(
    fm_text: str,
    root_pairs: Sequence[tuple[yaml.Node, yaml.Node]],
    data: dict[Any, Any],
    field_name: str,
    anchor_marks: Sequence[int],
) -> _Entry:
    pairs = [
        (key, value)
        for key, value in root_pairs
        if isinstance(key, yaml.ScalarNode) and key.value == field_name
    ]
    if len(pairs) > 1:
        raise UnsafeEditError(f"`{field_name}` appears more than once; refusing to edit")
    if not pairs:
        if field_name in data:
            raise UnsafeEditError(f"`{field_name}` comes from a YAML merge key; refusing to edit")
        at = _insertion_point(fm_text, root_pairs)
        return _Entry("absent", span_start=at, span_end=at)
    key, value = pairs[0]
    _refuse_unsafe_key(fm_text, key, value, field_name, anchor_marks)
    loaded = data.get(field_name)
    if isinstance(value, yaml.MappingNode):
        raise UnsafeEditError(f"`{field_name}` is a mapping, not a list; refusing to edit")
    if isinstance(value, yaml.SequenceNode):
        entry = _sequence_entry(fm_text, key, value, loaded, field_name)
    else:
        entry = _scalar_entry(fm_text, key, value, loaded)
    entry.key_end = key.end_mark.index
    return entry


def _insertion_point(fm_text: str, root_pairs: Sequence[tuple[yaml.Node, yaml.Node]]) -> int:
    """Where a new entry goes: the end, or before a closing block scalar.

    ReMe strips the frontmatter text, which trims a final block scalar's line breaks;
    putting the new key after it would change that value as ReMe reads it.
    """
    if root_pairs:
        key, value = root_pairs[-1]
        if isinstance(value, yaml.ScalarNode) and value.style in ("|", ">"):
            return _line_start(fm_text, key.start_mark.index)
    return len(fm_text)


def _refuse_unsafe_key(
    fm_text: str, key: yaml.Node, value: yaml.Node, field_name: str, anchor_marks: Sequence[int]
) -> None:
    start = key.start_mark.index
    if fm_text[_line_start(fm_text, start) : start].strip():
        raise UnsafeEditError(f"`{field_name}` is not at the start of its line; refusing to edit")
    if value.start_mark.index < key.end_mark.index:
        raise UnsafeEditError(f"`{field_name}` is a YAML alias; refusing to edit")
    end = value.end_mark.index
    if any(start <= mark <= end for mark in anchor_marks):
        raise UnsafeEditError(f"`{field_name}` uses a YAML anchor or alias; refusing to edit")


def _display(value: Any, node: yaml.ScalarNode) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return node.value


def _eol_at(fm_text: str, offset: int) -> str:
    end = _line_end(fm_text, offset)
    return "\r\n" if fm_text[:end].endswith("\r\n") else "\n"


def _scalar_entry(fm_text: str, key: yaml.Node, value: yaml.ScalarNode, loaded: Any) -> _Entry:
    span_start = _line_start(fm_text, key.start_mark.index)
    start, end = value.start_mark.index, value.end_mark.index
    eol = _eol_at(fm_text, key.start_mark.index)
    if value.style is None and value.value == "" and start == end:
        line_end = _line_end(fm_text, start)
        return _Entry(
            "empty",
            span_start=span_start,
            span_end=line_end,
            value_start=start,
            value_end=end,
            key_line=fm_text[span_start:line_end],
            eol=eol,
        )
    items: list[_Item] = []
    blank = loaded is None or (isinstance(loaded, str) and not loaded.strip())
    if not blank:
        src = fm_text[start:end]
        items.append(_Item(loaded, _display(loaded, value), src, start, end))
    return _Entry(
        "scalar",
        items,
        span_start,
        _line_end(fm_text, _last_char(value)),
        start,
        end,
        quote='"' if value.style == '"' else "'",
        eol=eol,
    )


def _sequence_entry(
    fm_text: str, key: yaml.Node, value: yaml.SequenceNode, loaded: Any, field_name: str
) -> _Entry:
    if not isinstance(loaded, list) or len(loaded) != len(value.value):
        raise UnsafeEditError(f"`{field_name}` does not load as the list it looks like")
    for node in value.value:
        if not isinstance(node, yaml.ScalarNode):
            raise UnsafeEditError(f"`{field_name}` holds a nested list or mapping; refusing")
    items = [
        _Item(
            item,
            _display(item, node),
            fm_text[node.start_mark.index : node.end_mark.index],
            node.start_mark.index,
            node.end_mark.index,
        )
        for item, node in zip(loaded, value.value, strict=True)
    ]
    quotes = [node.style for node in value.value if node.style in ("'", '"')]
    entry = _Entry(
        "flow" if value.flow_style else "block",
        items,
        span_start=_line_start(fm_text, key.start_mark.index),
        value_start=value.start_mark.index,
        value_end=value.end_mark.index,
        quote=quotes[0] if quotes else "'",
        eol=_eol_at(fm_text, key.start_mark.index),
    )
    if value.flow_style:
        _describe_flow(fm_text, entry, value)
    else:
        _describe_block(fm_text, entry, key, value)
    return entry


def _describe_flow(fm_text: str, entry: _Entry, value: yaml.SequenceNode) -> None:
    entry.span_end = _line_end(fm_text, _last_char(value))
    open_at = fm_text.index("[", entry.value_start)
    close_at = entry.value_end - 1
    items = entry.items
    if items:
        left = fm_text[open_at + 1 : items[0].start]
        right = fm_text[items[-1].end : close_at]
        if "\n" not in left and "\n" not in right and not left.strip() and not right.strip():
            entry.pad = (left, right)
    if len(items) > 1:
        between = fm_text[items[0].end : items[1].start]
        if re.fullmatch(r"[ \t]*,[ \t]*", between):
            entry.sep = between


def _describe_block(fm_text: str, entry: _Entry, key: yaml.Node, value: yaml.SequenceNode) -> None:
    key_line_end = _line_end(fm_text, key.end_mark.index)
    entry.key_line = fm_text[entry.span_start : key_line_end]
    dashes = [fm_text.rfind("-", 0, item.start) for item in entry.items]
    first_dash_line = _line_start(fm_text, dashes[0])
    entry.header = fm_text[key_line_end:first_dash_line]
    chunk_start = first_dash_line
    for item, node in zip(entry.items, value.value, strict=True):
        chunk_end = _line_end(fm_text, _last_char(node))
        item.chunk = fm_text[chunk_start:chunk_end]
        chunk_start = chunk_end
    entry.span_end = chunk_start
    dash = dashes[0]
    entry.indent = fm_text[_line_start(fm_text, dash) : dash]
    for item, dash in zip(entry.items, dashes, strict=True):
        after = fm_text[dash + 1 : item.start]
        if after and not after.strip() and "\n" not in after:
            entry.dash = "-" + after
            break
    entry.eol = _eol_at(fm_text, dashes[0])


# --------------------------------------------------------------------------- quoting


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _round_trips(text: str, value: Any, flow: bool) -> bool:
    source = f"[{text}]" if flow else f"- {text}\n"
    try:
        loaded = yaml.safe_load(source)
    except yaml.YAMLError:
        return False
    return isinstance(loaded, list) and len(loaded) == 1 and _same(loaded[0], value)


def _plain_ok(value: str, flow: bool) -> bool:
    if not value or value != value.strip() or _NEEDS_ESCAPE.search(value):
        return False
    if _NON_PRINTABLE.search(value):
        return False
    return _round_trips(value, value, flow)


_NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x00": "\\0"}


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _double_quoted(value: str) -> str:
    """Double-quoted YAML on one line: every break, control or BOM character escaped."""
    body = value.replace("\\", "\\\\").replace('"', '\\"')
    body = _NEEDS_ESCAPE.sub(_escape_char, _NON_PRINTABLE.sub(_escape_char, body))
    return '"' + body + '"'


def quote_scalar(value: str, *, flow: bool = False, prefer: str = "'") -> str:
    """YAML text for ``value``: plain when YAML reads it back unchanged, else quoted."""
    if _plain_ok(value, flow):
        return value
    if prefer == "'" and not _NEEDS_ESCAPE.search(value) and not _NON_PRINTABLE.search(value):
        return "'" + value.replace("'", "''") + "'"
    return _double_quoted(value)


def _quote_key(name: str) -> str:
    try:
        if name == name.strip() and yaml.safe_load(f"{name}: x\n") == {name: "x"}:
            return name
    except yaml.YAMLError:
        pass
    return _double_quoted(name)


# --------------------------------------------------------------------------- rewriting


NewItem = _Item | str


def _flow_text(item: NewItem, entry: _Entry) -> str:
    if isinstance(item, str):
        return quote_scalar(item, flow=True, prefer=entry.quote)
    if "\n" not in item.src and (
        entry.kind == "flow" or _round_trips(item.src, item.value, flow=True)
    ):
        return item.src
    if isinstance(item.value, str):
        return quote_scalar(item.value, flow=True, prefer=entry.quote)
    if isinstance(item.value, int) and not isinstance(item.value, bool):
        return str(item.value)
    raise UnsafeEditError(f"cannot carry the item {item.src!r} into a list; refusing to edit")


def _flow_list(items: Sequence[NewItem], entry: _Entry) -> str:
    if not items:
        return "[]"
    left, right = entry.pad
    return "[" + left + entry.sep.join(_flow_text(item, entry) for item in items) + right + "]"


def _block_line(item: str, entry: _Entry) -> str:
    return entry.indent + entry.dash + quote_scalar(item, prefer=entry.quote) + entry.eol


def _rewrite_inline(fm_text: str, entry: _Entry, items: Sequence[NewItem]) -> str:
    """Replace the value (flow list or scalar) in place, keeping the key and any comment."""
    prefix = fm_text[entry.span_start : entry.value_start]
    if not prefix.endswith((" ", "\t", "\n")):
        prefix += " "
    suffix = fm_text[entry.value_end : entry.span_end]
    if fm_text[entry.value_end - 1 : entry.value_end] == "\n":
        suffix = entry.eol  # block scalars end after their line break
    return prefix + _flow_list(items, entry) + suffix


def _key_line_with_empty_list(entry: _Entry, fm_text: str) -> str:
    offset = fm_text.index(":", entry.key_end) - entry.span_start
    return entry.key_line[: offset + 1] + " []" + entry.key_line[offset + 1 :]


def _rewrite_block(fm_text: str, entry: _Entry, items: Sequence[NewItem]) -> str:
    if not items:
        return _key_line_with_empty_list(entry, fm_text) + entry.header
    lines = [item.chunk if isinstance(item, _Item) else _block_line(item, entry) for item in items]
    return entry.key_line + entry.header + "".join(lines)


def _new_entry_text(fm: _Frontmatter, items: Sequence[str], eol: str, field_name: str) -> str:
    column, indent, dash = _layout_for_new_entry(fm)
    if column:
        raise UnsafeEditError(
            "frontmatter keys are indented; ReMe strips the first line's indentation, "
            "so an added key would break it; refusing to edit"
        )
    entry = _Entry("block", indent=indent, dash=dash, eol=eol)
    lines = "".join(_block_line(item, entry) for item in items)
    return " " * column + _quote_key(field_name) + ":" + eol + lines


def _layout_for_new_entry(fm: _Frontmatter) -> tuple[int, str, str]:
    """Key column, item indentation and dash style for an added entry, copied from the file."""
    if not fm.pairs:
        return 0, "  ", "- "
    column = fm.pairs[0][0].start_mark.column
    for key, value in fm.pairs:
        if isinstance(value, yaml.SequenceNode) and not value.flow_style and value.value:
            dash = fm.text.rfind("-", 0, value.value[0].start_mark.index)
            dash_column = dash - _line_start(fm.text, dash)
            relative = max(dash_column - key.start_mark.column, 0)
            after = fm.text[dash + 1 : value.value[0].start_mark.index]
            style = "-" + after if after and not after.strip() and "\n" not in after else "- "
            return column, " " * (column + relative), style
    return column, " " * (column + 2), "- "


def _replace_entry(fm: _Frontmatter, items: Sequence[NewItem], eol: str, field_name: str) -> str:
    entry, text = fm.entry, fm.text
    if entry.kind == "absent":
        new = _new_entry_text(fm, [str(item) for item in items], eol, field_name)
    elif entry.kind == "empty":
        lines = "".join(_block_line(item, _with_layout(fm, entry)) for item in items)
        new = entry.key_line + lines
    elif entry.kind == "block":
        new = _rewrite_block(text, entry, items)
    else:
        new = _rewrite_inline(text, entry, items)
    return text[: entry.span_start] + new + text[entry.span_end :]


def _with_layout(fm: _Frontmatter, entry: _Entry) -> _Entry:
    """Layout for items under an existing empty key (a root key: same column as the others)."""
    _, indent, dash = _layout_for_new_entry(fm)
    return _Entry("block", indent=indent, dash=dash, eol=entry.eol)


def _values_of(items: Sequence[NewItem]) -> list[Any]:
    return [item.value if isinstance(item, _Item) else item for item in items]


def _equal_data(a: Any, b: Any) -> bool:
    return a == b or repr(a) == repr(b)


def _verify(
    old_split: _Split,
    old_fm: _Frontmatter,
    new_text: str,
    items: Sequence[NewItem],
    field_name: str,
) -> None:
    """Re-parse the result; refuse unless it has exactly the intended tags, nothing else moved."""
    new_split = _split(new_text)
    if not new_split.has_frontmatter or new_split.bom != old_split.bom:
        raise UnsafeEditError("internal check failed: frontmatter lost in rewrite")
    assert new_split.close_line is not None
    old_body = old_split.lines
    if old_split.close_line is not None:
        old_body = old_split.lines[old_split.close_line + 1 :]
    new_body = new_split.lines[new_split.close_line + 1 :]
    if new_body != old_body:
        raise UnsafeEditError("internal check failed: body changed in rewrite")
    # Read the result the way the reference does (CR/LF normalized, splitlines, stripped YAML).
    ref_yaml, ref_body, _ = split_frontmatter(new_text[len(new_split.bom) :])
    if ref_yaml is None or ref_body != normalize_newlines("".join(old_body)):
        raise UnsafeEditError("internal check failed: the reference would split the file otherwise")
    try:
        data = yaml.safe_load(ref_yaml)
    except yaml.YAMLError as exc:
        raise UnsafeEditError(f"internal check failed: result is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get(field_name), list):
        raise UnsafeEditError("internal check failed: tag list not found after rewrite")
    got, want = data[field_name], _values_of(items)
    if len(got) != len(want) or not all(map(_same, got, want)):
        raise UnsafeEditError(f"internal check failed: wrote {got!r}, meant {want!r}")
    rest_old = {k: v for k, v in old_fm.data.items() if k != field_name}  # as ReMe read it
    rest_new = {k: v for k, v in data.items() if k != field_name}
    if not _equal_data(rest_old, rest_new):
        raise UnsafeEditError("internal check failed: other frontmatter fields changed")


def _parse(text: str, field_name: str) -> tuple[_Split, _Frontmatter]:
    split = _split(text)
    fm_text = split.fm_text() if split.has_frontmatter else ""
    mine = normalize_newlines(fm_text).strip() if split.has_frontmatter else None
    if split_frontmatter(text[len(split.bom) :])[0] != mine:
        raise UnsafeEditError(
            "the file's line breaks (lone CR, form feed or Unicode separators) make its "
            "frontmatter ambiguous; refusing to edit"
        )
    return split, _load_frontmatter(fm_text, field_name)


def _render(split: _Split, fm: _Frontmatter, items: Sequence[NewItem], field_name: str) -> str:
    eol = split.eol()
    if split.has_frontmatter:
        assert split.open_line is not None and split.close_line is not None
        head = "".join(split.lines[: split.open_line + 1])
        new_fm = _replace_entry(fm, items, eol, field_name)
        tail = "".join(split.lines[split.close_line :])
        return split.bom + head + new_fm + tail
    new_fm = _new_entry_text(fm, [str(item) for item in items], eol, field_name)
    return split.bom + "---" + eol + new_fm + "---" + eol + "".join(split.lines)


def _apply_items(
    text: str,
    split: _Split,
    fm: _Frontmatter,
    items: Sequence[NewItem],
    field_name: str,
    *,
    make_list: bool = True,
) -> str:
    """Render ``items`` into the entry and check the result; ``text`` itself when unchanged.

    With ``make_list`` a scalar entry holding the same value is still rewritten as a list,
    because ReMe reads no tags from a scalar.
    """
    old_values = _values_of(fm.entry.items)
    new_values = _values_of(items)
    unchanged = len(old_values) == len(new_values) and all(map(_same, old_values, new_values))
    reused = all(isinstance(item, _Item) for item in items)
    keeps_scalar = fm.entry.kind == "scalar" and bool(items) and make_list
    if unchanged and reused and not keeps_scalar:
        return text
    if not items and fm.entry.kind in ("absent", "empty"):
        return text
    for item in items:
        if isinstance(item, str):
            _check_encodable(item)
    new_text = _render(split, fm, items, field_name)
    _verify(split, fm, new_text, items, field_name)
    return new_text


def _faithful(item: _Item, tag: str) -> bool:
    if isinstance(item.value, str):
        return item.value == tag
    return type(item.value) is int and str(item.value) == tag


def _match_items(old: Sequence[_Item], tags: Sequence[str]) -> list[NewItem]:
    """Reuse an existing item's source text wherever it already says exactly this tag."""
    unused = list(old)
    out: list[NewItem] = []
    for tag in tags:
        match = next((item for item in unused if _faithful(item, tag)), None)
        if match is None:
            out.append(tag)
        else:
            unused.remove(match)
            out.append(match)
    return out


def read_tags(text: str, field: str = DEFAULT_TAG_FIELD) -> list[str]:
    """The entry's raw items as written (strings; ints as their digits), for the editor.

    A scalar value counts as one item (ReMe ignores it; the editor shows it so it can be
    fixed). Raises UnsafeEditError when the file could not be edited safely.
    """
    _, fm = _parse(text, field)
    return [item.display for item in fm.entry.items]


def rewrite_tags(text: str, tags: Sequence[str], field: str = DEFAULT_TAG_FIELD) -> str:
    """``text`` with the tag entry replaced by ``tags``; every other byte is kept.

    Items that already say exactly one of ``tags`` keep their source text (quoting,
    comments before them). Raises UnsafeEditError rather than guess.
    """
    split, fm = _parse(text, field)
    return _apply_items(text, split, fm, _match_items(fm.entry.items, list(tags)), field)


def _check_encodable(tag: str) -> None:
    try:
        tag.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidTag(f"tag {tag!r} is not valid Unicode text") from exc


def validate_tag(tag: str) -> str:
    """The canonical form of a tag the user asked for; InvalidTag when ReMe would drop it."""
    if not isinstance(tag, str):
        raise InvalidTag(f"tag {tag!r} is not text")
    _check_encodable(tag)
    verdict = judge_tag(tag)
    if verdict.reason == "too-long":
        raise InvalidTag(f"tag {tag!r} is longer than {MAX_TAG_LENGTH} characters")
    if verdict.canonical is None:
        raise InvalidTag(f"tag {tag!r} normalizes to nothing")
    return verdict.canonical


def _op_items(old: Sequence[_Item], op: TagOp) -> list[NewItem]:
    if isinstance(op, AddTag):
        wanted = validate_tag(op.tag)
        if any(normalize_tag(item.value) == wanted for item in old):
            return list(old)
        return [*old, op.tag]
    if isinstance(op, RemoveTag):
        unwanted = validate_tag(op.tag)
        return [item for item in old if normalize_tag(item.value) != unwanted]
    if isinstance(op, SetTags):
        for tag in op.tags:
            validate_tag(tag)
        return _match_items(old, list(op.tags))
    raise TypeError(f"unknown tag operation {op!r}")


def apply_op(
    text: str, op: TagOp, field: str = DEFAULT_TAG_FIELD
) -> tuple[str, list[str], list[str]]:
    """Pure form of ``edit_tags``: (new text, old raw tags, new raw tags)."""
    split, fm = _parse(text, field)
    items = _op_items(fm.entry.items, op)
    make_list = not isinstance(op, RemoveTag)  # removing nothing never rewrites
    new_text = _apply_items(text, split, fm, items, field, make_list=make_list)
    old_tags = [item.display for item in fm.entry.items]
    new_tags = [item.display if isinstance(item, _Item) else item for item in items]
    if new_text == text:
        new_tags = old_tags
    return new_text, old_tags, new_tags


# --------------------------------------------------------------------------- editor warnings


def _near_key(tag: str) -> str:
    return _NEAR_KEY_STRIP.sub("", tag.casefold())


def _near_duplicate(canonical: str, existing: Sequence[tuple[str, int]]) -> str | None:
    key = _near_key(canonical)
    candidates = [
        (count, name)
        for name, count in existing
        if _near_key(name) == key and normalize_tag(name) != canonical
    ]
    if not candidates or any(normalize_tag(name) == canonical for name, _ in existing):
        return None
    candidates.sort(key=lambda pair: (-pair[0], pair[1]))
    return candidates[0][1]


def warnings_for(
    tags: Sequence[str], existing_tags_with_counts: Iterable[tuple[str, int]] = ()
) -> list[TagWarning]:
    """What to tell the user about ``tags`` before saving them, in input order."""
    existing = list(existing_tags_with_counts)
    out: list[TagWarning] = []
    first_index: dict[str, int] = {}
    for index, tag in enumerate(tags):
        verdict = judge_tag(tag)
        if verdict.canonical is None:
            kind: WarningKind = "too-long" if verdict.reason == "too-long" else "invalid"
            reason = (
                f"is longer than {MAX_TAG_LENGTH} characters"
                if kind == "too-long"
                else "normalizes to nothing"
            )
            out.append(TagWarning(kind, index, tag, f"{tag!r} {reason}; ReMe drops it"))
            continue
        canonical = verdict.canonical
        if canonical in first_index:
            earlier = tags[first_index[canonical]]
            out.append(
                TagWarning(
                    "duplicate",
                    index,
                    tag,
                    f"{tag!r} is the same tag as {earlier!r} ({canonical})",
                    earlier,
                )
            )
            continue
        first_index[canonical] = index
        if len(first_index) > MAX_TAGS_PER_FILE:
            out.append(
                TagWarning(
                    "overflow",
                    index,
                    tag,
                    f"ReMe indexes only the first {MAX_TAGS_PER_FILE} tags; {tag!r} falls off",
                )
            )
        suggestion = _near_duplicate(canonical, existing)
        if suggestion is not None:
            out.append(
                TagWarning(
                    "near-duplicate",
                    index,
                    tag,
                    f"{tag!r} looks like the existing tag {suggestion!r}",
                    suggestion,
                )
            )
    return out


# --------------------------------------------------------------------------- files


def _stamp_of(data: bytes, st: os.stat_result) -> FileStamp:
    return FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


def _read_bytes_with_stamp(path: Path) -> tuple[bytes, FileStamp]:
    """Read a file and stamp it, retrying if it changes while being read."""
    for _ in range(3):
        with open(path, "rb") as handle:
            before = os.fstat(handle.fileno())
            data = handle.read()
            after = os.fstat(handle.fileno())
        if (before.st_mtime_ns, before.st_size) == (after.st_mtime_ns, after.st_size):
            return data, _stamp_of(data, after)
    return data, _stamp_of(data, after)


def stamp_file(path: Path) -> FileStamp:
    """mtime, size and SHA-256 of a file as it is now."""
    return _read_bytes_with_stamp(Path(path))[1]


def read_with_stamp(path: Path) -> tuple[str, FileStamp]:
    """Text (BOM kept as U+FEFF, line endings untouched) and the stamp of those bytes.

    Raises UnsafeEditError when the file is not valid UTF-8.
    """
    data, stamp = _read_bytes_with_stamp(Path(path))
    try:
        return data.decode("utf-8"), stamp
    except UnicodeDecodeError as exc:
        raise UnsafeEditError(
            f"{path} is not valid UTF-8 (byte {exc.start}); refusing to edit it"
        ) from exc


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # the rename already happened; some filesystems cannot sync a directory
    finally:
        os.close(fd)


def _check_unchanged(path: Path, expected: FileStamp | None) -> None:
    if expected is None:
        return
    try:
        current = stamp_file(path)
    except FileNotFoundError:
        raise ConflictError(f"{path} was deleted since it was read", None) from None
    if not expected.matches(current):
        raise ConflictError(f"{path} changed on disk since it was read", current)


def _prepare_temp(fd: int, data: bytes, target: Path) -> os.stat_result:
    """Write, fsync and give the temp file the target's permissions; returns its stat."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    try:
        original = os.stat(target)
    except FileNotFoundError:
        os.fchmod(fd, 0o644)
    else:
        os.fchmod(fd, stat.S_IMODE(original.st_mode))
        with contextlib.suppress(OSError):
            os.fchown(fd, original.st_uid, original.st_gid)
    os.fsync(fd)
    return os.fstat(fd)


def atomic_write(path: Path, data: bytes, *, expected: FileStamp | None) -> FileStamp:
    """Replace ``path`` with ``data`` atomically; returns the new stamp.

    Writes a hidden temporary file in the same directory, fsyncs it, copies the
    original's mode, checks the original still matches ``expected`` (ConflictError
    otherwise), renames over it and fsyncs the directory. On any failure the
    temporary file is removed and the original is untouched. A symlink is followed:
    its target is replaced, the link stays.
    """
    target = Path(os.path.realpath(path))
    fd, temp_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".reme-tmp", dir=target.parent
    )
    temp = Path(temp_name)
    try:
        try:
            st = _prepare_temp(fd, data, target)
        finally:
            os.close(fd)
        _check_unchanged(target, expected)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_dir(target.parent)
    return FileStamp(st.st_mtime_ns, len(data), hashlib.sha256(data).hexdigest())


def _is_memory_rel(parts: Sequence[str]) -> bool:
    return (
        len(parts) >= 2
        and parts[0] in MEMORY_ROOTS
        and PurePosixPath(parts[-1]).suffix.lower() == ".md"
    )


def resolve_in_workspace(root: Path, rel: str) -> Path:
    """The real path of memory ``rel`` under ``root``; PathRefused when it is not one.

    Refused: empty, absolute, backslashes, NUL, any ``..``, anything not under
    ``daily/`` or ``digest/`` ending in ``.md`` (case-insensitive), and symlinks
    whose target is outside the root or is not itself a memory location.
    """
    if not rel or "\x00" in rel or "\\" in rel:
        raise PathRefused(f"refusing path {rel!r}: not a workspace-relative POSIX path")
    pure = PurePosixPath(rel)
    if pure.is_absolute() or re.match(r"^[A-Za-z]:", rel):
        raise PathRefused(f"refusing absolute path {rel!r}")
    if ".." in pure.parts:
        raise PathRefused(f"refusing path {rel!r}: it contains '..'")
    if not _is_memory_rel(pure.parts):
        raise PathRefused(f"refusing {rel!r}: memories are .md files under daily/ or digest/")
    real_root = Path(root).resolve()
    real = (real_root / pure).resolve()
    try:
        inside = real.relative_to(real_root)
    except ValueError:
        raise PathRefused(f"refusing {rel!r}: it resolves outside the workspace") from None
    if not _is_memory_rel(inside.parts):
        raise PathRefused(f"refusing {rel!r}: it resolves to {inside.as_posix()}, not a memory")
    return real


def edit_tags(
    root: Path,
    rel_path: str,
    op: TagOp,
    expected: FileStamp | None = None,
    field: str = DEFAULT_TAG_FIELD,
) -> EditResult:
    """Apply ``op`` to the tag entry of memory ``rel_path`` under ``root`` and save it.

    ``expected`` is the stamp the caller read; when the file no longer matches it the
    save is refused with ConflictError (carrying the fresh stamp). Without it, the
    file is still protected against changes between this read and the rename.
    """
    path = resolve_in_workspace(root, rel_path)
    if not path.is_file():
        raise PathRefused(f"no such memory file: {rel_path}")
    text, stamp = read_with_stamp(path)
    if expected is not None and not expected.matches(stamp):
        raise ConflictError(f"{rel_path} changed on disk since it was read", stamp)
    new_text, old_tags, new_tags = apply_op(text, op, field)
    notes = (BOM_NOTE,) if text.startswith(_BOM) else ()
    if new_text == text:
        return EditResult(rel_path, False, tuple(old_tags), tuple(old_tags), stamp, stamp, notes)
    if os.stat(path).st_nlink > 1:
        raise UnsafeEditError(f"{rel_path} has other hard links; a rename would split them")
    new_stamp = atomic_write(path, new_text.encode("utf-8"), expected=stamp)
    return EditResult(rel_path, True, tuple(old_tags), tuple(new_tags), stamp, new_stamp, notes)
