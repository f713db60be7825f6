"""The text model: a file cut into lines and frontmatter, and the tag entry located in it.

Nothing here writes or reads files; every refusal is an ``UnsafeEditError``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from ...errors import UnsafeEditError
from .bounded import BoundedSafeLoader, load_yaml
from .split import BOM, closing_fence

# Characters YAML treats as line breaks that a plain "\n" split does not see.
_HIDDEN_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")


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
    bom = BOM if text.startswith(BOM) else ""
    lines = _split_lines(text[len(bom) :])
    close = closing_fence(lines)
    if close is None:
        return _Split(bom, lines, None, None)
    return _Split(bom, lines, 0, close)


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
    try:
        # The reader checks every character on construction (C0/C1 controls raise here).
        loader = _MarkingLoader(fm_text)
    except yaml.YAMLError as exc:
        raise UnsafeEditError(_invalid_yaml(exc)) from exc
    try:
        root = loader.get_single_node()
        # Construction flattens merge keys into the node in place: keep the written pairs.
        pairs = list(root.value) if isinstance(root, yaml.MappingNode) else []
        data = None if root is None else loader.construct_document(root)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        raise UnsafeEditError(_invalid_yaml(exc)) from exc
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


FRONTMATTER_FIRST_LINE = 2  # the line after the opening `---`: where the YAML text starts


def _invalid_yaml(exc: BaseException, how: str = ", refusing to edit") -> str:
    """One human line: what is wrong and on which line of the file (YAML's own message
    spans several lines and quotes "<unicode string>" positions)."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem:
        where = exc.context_mark or exc.problem_mark
        line = f"line {where.line + FRONTMATTER_FIRST_LINE}: " if where else ""
        problem = " ".join(exc.problem.split())
        if exc.context and exc.problem_mark and exc.context_mark:
            found = exc.problem_mark.line + FRONTMATTER_FIRST_LINE
            problem = f"{' '.join(exc.context.split())}, {problem} (line {found})"
        return f"frontmatter YAML is invalid{how}: {line}{problem}"[:300]
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return f"frontmatter YAML is invalid{how}: {reason}"[:300]


def _as_reference_reads(fm_text: str, data: dict[Any, Any], field_name: str) -> dict[Any, Any]:
    """The mapping as ReMe loads it (from the stripped text); refuse if it differs from ours.

    Stripping matters for an indented first key or a block scalar at the very end.
    """
    stripped = fm_text.strip()
    unindented = fm_text.lstrip("\r\n") == fm_text.lstrip()
    if unindented and "|" not in fm_text and ">" not in fm_text:
        return data  # nothing that stripping can change
    try:
        ref = load_yaml(stripped)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        raise UnsafeEditError(_invalid_yaml(exc, " as ReMe reads it")) from exc
    ref = {} if ref is None else ref
    if not isinstance(ref, dict) or list(ref) != list(data):
        raise UnsafeEditError("ReMe reads this frontmatter differently (indentation); refusing")
    if not _equal_data(ref.get(field_name), data.get(field_name)):
        raise UnsafeEditError(f"ReMe reads `{field_name}` differently; refusing to edit")
    return ref


class _MarkingLoader(BoundedSafeLoader):
    """The safe loader within the budget, also noting where anchors and aliases occur (one
    parse for all)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.anchor_marks: list[int] = []

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
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
        assert isinstance(value, yaml.ScalarNode)  # the only other kind of node
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
    return str(node.value)


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


def _equal_data(a: Any, b: Any) -> bool:
    return a == b or repr(a) == repr(b)
