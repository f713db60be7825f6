"""Rewriting the tag entry in a frontmatter's text, and the check of every result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from ...errors import UnsafeEditError
from .bounded import load_yaml
from .locate import _Entry, _equal_data, _Frontmatter, _Item, _line_start, _Split, _split
from .quoting import _quote_key, _round_trips, _same, quote_scalar
from .split import normalize_newlines, split_frontmatter

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
        layout = _with_layout(fm, entry)
        lines = "".join(
            _block_line(item if isinstance(item, str) else item.display, layout) for item in items
        )
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
        data = load_yaml(ref_yaml)
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
