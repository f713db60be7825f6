"""Tag edits: only the tag entry's lines change; writes are atomic and conflict-safe."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reme_tui.engine.errors import EditError, InvalidTag, UnsafeEditError
from reme_tui.engine.files import fileio
from reme_tui.engine.files.fileio import (
    ConflictError,
    FileStamp,
    PathRefused,
    atomic_write,
    read_with_stamp,
    stamp_file,
)
from reme_tui.engine.files.fileio import resolve_memory as resolve_in_workspace
from reme_tui.engine.parse.frontmatter import (
    AddTag,
    RemoveTag,
    SetTags,
    apply_op,
    quote_scalar,
    read_tags,
    rewrite_tags,
)
from reme_tui.engine.tags.checks import warnings_for
from reme_tui.engine.tags.normalize import normalize_tag
from reme_tui.engine.write.tag_edits import edit_tags

FIELD = "memory_tags"

# --------------------------------------------------------------------------- helpers


def lines_of(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def frontmatter_of(text: str) -> dict[str, Any] | None:
    """An independent reading of the spec: first line '---', next line '---'."""
    lines = lines_of(text.removeprefix("\ufeff"))
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            data = yaml.safe_load("".join(lines[1:index]))
            return data if data is not None else {}
    return None


def values_in(data: dict[str, Any], field: str = FIELD) -> list[Any]:
    """Tag items the way the editor sees them: a list, or a non-blank scalar as one item."""
    value = data.get(field)
    if isinstance(value, list):
        return value
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    return [value]


def tag_values(text: str, field: str = FIELD) -> list[Any]:
    return values_in(frontmatter_of(text) or {}, field)


def same_values(got: list[Any], want: list[Any]) -> bool:
    return len(got) == len(want) and all(
        type(a) is type(b) and a == b for a, b in zip(got, want, strict=True)
    )


def canonical(items: list[Any]) -> list[str | None]:
    return [normalize_tag(item) for item in items]


# --------------------------------------------------------------------------- document strategy

PLAIN_WORDS = [
    "alpha",
    "Project_A",
    "project-a",
    "中文",
    "日本語タグ",
    "2026",
    "true",
    "null",
    "1.5",
    "Straße",
    "émoji🎉",
    "a b",
    "x.y",
    "~",
    "0x1F",
    "2026-01-01",
]
QUOTABLE = [
    "alpha",
    "a: b",
    "#x",
    "- x",
    " lead",
    "trail ",
    "it's",
    'say "hi"',
    "x, y",
    "[x]",
    "true",
    "123",
    "中文 标签",
    "Project A",
    "a #b",
    "{a}",
    "---",
]
NEW_TAGS = [
    "true",
    "null",
    "123",
    "2026-01-01",
    "a: b",
    "#x",
    "- x",
    " lead",
    "trail ",
    "it's",
    'say "hi"',
    "中文标签",
    "Project A",
    "project_a",
    "PROJECT-A",
    "x,y",
    "[x]",
    "{a}",
    "a #b",
    "~x",
    "0x1F",
    "1e3",
    "yes",
    "NO",
    "*star",
    "&amp",
    "!bang",
    "%pct",
    "@at",
    "`tick",
    "|pipe",
    ">gt",
    "?q",
    "--- x",
    "...a",
    "tab\there",
    "émoji 🎉",
    "Straße",
    "new\nline",
    "x\u2028y",
    "back\\slash",
    "alpha",
    "2026",
    "a" * 64,
]
OTHER_KEYS = [
    ["name: Some name"],
    ["description: 'quoted: yes'  # a comment"],
    ["# a comment line"],
    [""],
    ['title: "double"'],
    ["meta:", "  nested: 1", "  other: [1, 2]"],
    ["aliases:", "  - one", "  - two"],
    ["date: 2026-03-10"],
    ["text: |", "  block scalar", "  lines"],
    ["tags_other: [x, y]"],
]
BODY_LINES = ["# Heading", "", "Some text 中文", "---", "- a list", "memory_tags: [not, fm]"]


def render_item(word: str, style: str) -> str:
    if style == "single":
        return "'" + word.replace("'", "''") + "'"
    if style == "double":
        return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return word


@st.composite
def item_sources(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(PLAIN_WORDS))
    word = draw(st.sampled_from(QUOTABLE))
    return render_item(word, draw(st.sampled_from(["single", "double"])))


@dataclass
class Doc:
    text: str
    prefix: list[str]  # lines before the tag entry (BOM stripped)
    suffix: list[str]  # lines after the tag entry
    eol: str
    bom: str
    style: str


def entry_lines(draw: st.DrawFn, style: str, eol: str) -> list[str]:
    items = draw(st.lists(item_sources(), min_size=0 if style == "flow" else 1, max_size=5))
    if style == "flow":
        return [f"{FIELD}: [{', '.join(items)}]" + draw(st.sampled_from(["", "  # c"]))]
    if style == "flow-multiline":
        inner = ("," + eol + "    ").join(items)
        return [f"{FIELD}: [", *f"    {inner}".split(eol), "  ]"]
    if style == "scalar":
        return [f"{FIELD}: {items[0]}"]
    if style == "empty":
        return [f"{FIELD}:" + draw(st.sampled_from(["", "  # none yet"]))]
    indent = "" if style == "block-flush" else draw(st.sampled_from(["  ", "    "]))
    dash = draw(st.sampled_from(["- ", "-   "]))
    out = [FIELD + ":" + draw(st.sampled_from(["", "  # tags"]))]
    for index, item in enumerate(items):
        if index and draw(st.booleans()):
            out.append(draw(st.sampled_from([f"{indent}# between", "", f"  {indent}# deeper"])))
        out.append(indent + dash + item + draw(st.sampled_from(["", "  # note"])))
    return out


STYLES = [
    "none-fm",
    "absent",
    "flow",
    "flow-multiline",
    "block",
    "block-flush",
    "scalar",
    "empty",
]


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    style = draw(st.sampled_from(STYLES))
    body = draw(st.lists(st.sampled_from(BODY_LINES), max_size=4))
    if style == "none-fm":
        if body and body[0] == "---":
            body.insert(0, "intro")  # otherwise the body could open a frontmatter
        head: list[str] = []
        entry: list[str] = []
        tail = list(body)
    else:
        before = [
            ln for group in draw(st.lists(st.sampled_from(OTHER_KEYS), max_size=3)) for ln in group
        ]
        after = [
            ln for group in draw(st.lists(st.sampled_from(OTHER_KEYS), max_size=3)) for ln in group
        ]
        entry = [] if style == "absent" else entry_lines(draw, style, eol)
        if style == "absent":
            before, after = before + after, []
        head = ["---", *before]
        tail = [*after, "---", *body]
    all_lines = [*head, *entry, *tail]
    final_newline = draw(st.booleans()) or not all_lines
    text = eol.join(all_lines) + (eol if final_newline and all_lines else "")
    lines = lines_of(text)
    prefix = lines[: len(head)]
    suffix = lines[len(head) + len(entry) :]  # head and entry lines all end with eol
    return Doc(bom + text, prefix, suffix, eol, bom, style)


def ops_for(existing: list[str]) -> st.SearchStrategy[Any]:
    tags = st.one_of(
        st.sampled_from(NEW_TAGS),
        st.text(min_size=1, max_size=12).filter(lambda t: normalize_tag(t) is not None),
    )
    removable = st.sampled_from(existing) if existing else tags
    valid_removable = removable.filter(lambda t: normalize_tag(t) is not None)
    return st.one_of(
        st.builds(AddTag, tags),
        st.builds(RemoveTag, st.one_of(valid_removable, tags)),
        st.builds(SetTags, st.lists(tags, max_size=5)),
    )


def intended(old: list[Any], op: Any) -> list[Any]:
    """The model: what the tag list must load as after the edit."""
    if isinstance(op, AddTag):
        wanted = normalize_tag(op.tag)
        return old if any(normalize_tag(v) == wanted for v in old) else [*old, op.tag]
    if isinstance(op, RemoveTag):
        return [v for v in old if normalize_tag(v) != normalize_tag(op.tag)]
    return list(op.tags)


def assert_one_block_inserted(old: list[str], new: list[str]) -> None:
    """``new`` is ``old`` with one contiguous run of tag-entry lines inserted (or nothing)."""
    if new == old:
        return
    start = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), len(old))
    added = len(new) - len(old)
    assert added > 0 and new[:start] == old[:start] and new[start + added :] == old[start:]
    block = new[start : start + added]
    # the block may start one line early when an identical line sits just before it
    assert any(line.startswith(f"{FIELD}:") for line in block + new[max(start - 1, 0) : start])


def assert_surgical(doc: Doc, new_text: str) -> None:
    """Every line outside the tag entry is byte-identical; BOM, endings, final newline kept."""
    assert new_text.startswith("\ufeff") == bool(doc.bom)
    body = new_text.removeprefix(doc.bom)
    new_lines = lines_of(body)
    if doc.style in ("absent", "none-fm"):
        assert_one_block_inserted(lines_of(doc.text.removeprefix(doc.bom)), new_lines)
    else:
        assert len(new_lines) >= len(doc.prefix) + len(doc.suffix)
        assert new_lines[: len(doc.prefix)] == doc.prefix
        if doc.suffix:
            assert new_lines[len(new_lines) - len(doc.suffix) :] == doc.suffix
    old_body = doc.text.removeprefix(doc.bom)
    if old_body:
        assert body.endswith(doc.eol) == old_body.endswith(doc.eol)
    if doc.eol == "\r\n" and "\n" in old_body:
        assert "\n" not in body.replace("\r\n", "")
    else:
        assert "\r" not in body


FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- properties


@FAST
@given(doc=documents(), data=st.data())
def test_edit_changes_only_the_tag_entry(doc: Doc, data: st.DataObject) -> None:
    text = doc.text
    fm = frontmatter_of(text) or {}
    display = read_tags(text)
    assert len(display) == len(values_in(fm))
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(ops_for(display))
        before = values_in(fm)
        new_text, old_tags, new_tags = apply_op(text, op)
        assert old_tags == display
        new_fm = frontmatter_of(new_text) or {}
        want, got = intended(before, op), values_in(new_fm)
        if isinstance(op, SetTags):
            assert [str(v) if type(v) is int else v for v in got] == want
            assert all(type(v) in (str, int) for v in got)
        else:
            assert same_values(got, want), (got, want)
        assert canonical(got) == canonical(want)
        was_list = isinstance(fm.get(FIELD), list)
        no_op = same_values(got, before) and not isinstance(op, SetTags)
        if no_op and (was_list or not want or isinstance(op, RemoveTag)):
            assert new_text == text
        elif want:
            assert isinstance(new_fm.get(FIELD), list)  # ReMe reads only lists
        assert_surgical(doc, new_text)
        text, fm, display = new_text, new_fm, new_tags
    assert display == read_tags(text)


@FAST
@given(doc=documents(), tags=st.lists(st.sampled_from(NEW_TAGS), max_size=4))
def test_rewrite_tags_loads_back_exactly(doc: Doc, tags: list[str]) -> None:
    new_text = rewrite_tags(doc.text, tags)
    got = tag_values(new_text)
    assert [str(v) if type(v) is int else v for v in got] == tags
    assert_surgical(doc, new_text)
    assert rewrite_tags(new_text, tags) == new_text


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.sampled_from(NEW_TAGS), st.text(max_size=10)), flow=st.booleans())
@example(value="0?", flow=True)  # libyaml reads [0?, z]; ReMe's parser does not
def test_quote_scalar_round_trips(value: str, flow: bool) -> None:
    text = quote_scalar(value, flow=flow)
    assert "\n" not in text and "\r" not in text
    source = f"[{text}, z]" if flow else f"- {text}\n- z\n"
    assert yaml.safe_load(source) == [value, "z"]


# --------------------------------------------------------------------------- examples


@pytest.mark.parametrize(
    "value",
    ["true", "null", "123", "2026-01-01", "a: b", "#x", "- x", " lead", "trail ", "'", '"', "~"],
)
def test_values_yaml_would_misread_are_quoted(value: str) -> None:
    assert quote_scalar(value) != value
    assert quote_scalar("plain-tag") == "plain-tag"
    assert quote_scalar("中文") == "中文"


def test_flow_style_and_comment_kept() -> None:
    text = "---\nname: x\nmemory_tags: [ a,  b ]  # mine\nz: 1\n---\nbody\n"
    new, _, _ = apply_op(text, AddTag("Project A"))
    assert new == "---\nname: x\nmemory_tags: [ a,  b,  Project A ]  # mine\nz: 1\n---\nbody\n"


def test_block_style_keeps_quoting_and_comments_of_kept_items() -> None:
    text = (
        "---\nmemory_tags:  # ours\n    # first\n    -   'alpha'  # a\n"
        '    # second\n    -   "beta"\n---\n'
    )
    new, _, _ = apply_op(text, AddTag("gamma"))
    assert new == (
        "---\nmemory_tags:  # ours\n    # first\n    -   'alpha'  # a\n"
        '    # second\n    -   "beta"\n    -   gamma\n---\n'
    )
    removed, _, _ = apply_op(text, RemoveTag("BETA"))
    assert removed == "---\nmemory_tags:  # ours\n    # first\n    -   'alpha'  # a\n---\n"


def test_items_at_key_indentation() -> None:
    text = "---\nmemory_tags:\n- a\n- b\nz: 1\n---\n"
    assert apply_op(text, AddTag("c"))[0] == "---\nmemory_tags:\n- a\n- b\n- c\nz: 1\n---\n"


def test_emptied_block_list_becomes_flow_empty() -> None:
    text = "---\nmemory_tags:  # c\n  - a\nz: 1\n---\n"
    assert apply_op(text, RemoveTag("a"))[0] == "---\nmemory_tags: []  # c\nz: 1\n---\n"


def test_multiline_flow_list_collapses_to_one_line() -> None:
    text = "---\nmemory_tags: [a,\n   b,\n   c]\nz: 1\n---\n"
    assert apply_op(text, RemoveTag("b"))[0] == "---\nmemory_tags: [a, c]\nz: 1\n---\n"


def test_scalar_becomes_flow_list() -> None:
    text = "---\nmemory_tags: solo  # c\n---\n"
    assert read_tags(text) == ["solo"]
    assert apply_op(text, AddTag("b"))[0] == "---\nmemory_tags: [solo, b]  # c\n---\n"
    # ReMe reads no tags from a scalar: adding the same tag makes it a list ...
    assert apply_op(text, AddTag("SOLO"))[0] == "---\nmemory_tags: [solo]  # c\n---\n"
    # ... but removing an absent tag never rewrites.
    assert apply_op(text, RemoveTag("other"))[0] == text
    folded = "---\nmemory_tags: >\n  two\n  lines\nz: 1\n---\n"
    assert apply_op(folded, AddTag("b"))[0] == '---\nmemory_tags: ["two lines\\n", b]\nz: 1\n---\n'


def test_missing_key_is_added_matching_other_lists() -> None:
    text = "---\nname: x\nlinks:\n    - one\n---\nbody"
    new, _, _ = apply_op(text, AddTag("t"))
    assert new == "---\nname: x\nlinks:\n    - one\nmemory_tags:\n    - t\n---\nbody"


def test_no_frontmatter_gets_one_crlf_bom() -> None:
    text = "\ufeffhello\r\nworld"
    new, _, _ = apply_op(text, AddTag("t"))
    assert new == "\ufeff---\r\nmemory_tags:\r\n  - t\r\n---\r\nhello\r\nworld"
    assert apply_op(text, RemoveTag("t"))[0] == text


def test_indented_root_quoted_key_and_value_on_next_line() -> None:
    indented = "---\n  name: x\n---\n"  # ReMe strips the YAML: only a lone key may be indented
    with pytest.raises(UnsafeEditError, match="indented"):
        apply_op(indented, AddTag("t"))
    lone = "---\n  memory_tags: [a]\n---\n"
    assert apply_op(lone, AddTag("t"))[0] == "---\n  memory_tags: [a, t]\n---\n"
    quoted = '---\n"memory_tags": [a]\n---\n'
    assert apply_op(quoted, AddTag("b"))[0] == '---\n"memory_tags": [a, b]\n---\n'
    next_line = "---\nmemory_tags:\n  [a, b]\nz: 1\n---\n"
    assert apply_op(next_line, RemoveTag("a"))[0] == "---\nmemory_tags:\n  [b]\nz: 1\n---\n"


def test_new_key_goes_before_a_closing_block_scalar() -> None:
    # ReMe strips the YAML text, so a key after `t` would change t's value as ReMe reads it.
    text = "---\nname: x\nt: |\n  keep\n---\n"
    new = "---\nname: x\nmemory_tags:\n  - a\nt: |\n  keep\n---\n"
    assert apply_op(text, AddTag("a"))[0] == new


def test_configurable_field() -> None:
    text = "---\ntags: [a]\nmemory_tags: [b]\n---\n"
    new, old, now = apply_op(text, AddTag("c"), field="tags")
    assert (old, now) == (["a"], ["a", "c"])
    assert new == "---\ntags: [a, c]\nmemory_tags: [b]\n---\n"


def test_int_and_bool_items_are_kept_as_written() -> None:
    text = "---\nmemory_tags: [2026, true, 0x1F]\n---\n"
    assert read_tags(text) == ["2026", "true", "31"]
    assert apply_op(text, AddTag("x"))[0] == "---\nmemory_tags: [2026, true, 0x1F, x]\n---\n"
    assert rewrite_tags(text, ["2026", "true"]) == "---\nmemory_tags: [2026, 'true']\n---\n"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("---\nmemory_tags: [a\n---\n", "invalid"),
        ("---\nmemory_tags: &t [a]\nz: *t\n---\n", "anchor"),
        ("---\nbase: &t [a]\nmemory_tags: *t\n---\n", "alias"),
        ("---\nmemory_tags:\n  a: 1\n---\n", "mapping"),
        ("---\nmemory_tags:\n  - [a, b]\n---\n", "nested"),
        ("---\nmemory_tags: [a]\nmemory_tags: [b]\n---\n", "more than once"),
        ("---\n{memory_tags: [a]}\n---\n", "flow mapping"),
        ("---\n- a\n---\n", "not a YAML mapping"),
        ("---\nmemory_tags: [a]\rz: 1\n---\n", "lone CR"),
        ("---\nbase: &b {memory_tags: [a]}\n<<: *b\n---\n", "merge"),
        ("---\n  name: x\n  memory_tags: [a]\n---\n", "as ReMe reads it"),
        ("---\rmemory_tags: [a]\r---\r", "ambiguous"),
    ],
)
def test_unsafe_entries_are_refused(text: str, why: str) -> None:
    with pytest.raises(UnsafeEditError, match=why):
        apply_op(text, AddTag("x"))


def test_invalid_tags_are_usage_errors() -> None:
    for bad in ["", "   ", "---", "a" * 65]:
        with pytest.raises(InvalidTag) as info:
            apply_op("---\n---\n", AddTag(bad))
        assert info.value.exit_code == 2
    with pytest.raises(InvalidTag):
        apply_op("---\n---\n", SetTags(["ok", "!!!"]))


def test_warnings_for_editor() -> None:
    existing = [("project_a", 5), ("projecta", 1), ("ml", 3)]
    warns = warnings_for(["Project-A", "ok", "OK", "", "x" * 70, "b", "c", "d"], existing)
    kinds = [(w.kind, w.index) for w in warns]
    assert ("near-duplicate", 0) in kinds
    near = next(w for w in warns if w.kind == "near-duplicate")
    assert near.suggestion == "project_a"
    assert ("duplicate", 2) in kinds
    assert ("invalid", 3) in kinds
    assert ("too-long", 4) in kinds
    assert [w.tag for w in warns if w.kind == "overflow"] == ["c", "d"]
    assert warnings_for(["project_a", "ML"], existing) == []


# --------------------------------------------------------------------------- files


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "daily" / "2026-03-10").mkdir(parents=True)
    (root / "digest").mkdir()
    (root / "notes").mkdir()
    return root


def write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8"))


def test_edit_tags_writes_bytes_and_stamps(workspace: Path) -> None:
    path = workspace / "daily" / "2026-03-10" / "a.md"
    original = "\ufeff---\r\nname: x\r\nmemory_tags: [a]\r\n---\r\nbody"
    write(path, original)
    text, stamp = read_with_stamp(path)
    assert text == original
    result = edit_tags(workspace, "daily/2026-03-10/a.md", AddTag("b"), expected=stamp)
    assert result.changed and result.old_tags == ("a",) and result.new_tags == ("a", "b")
    assert path.read_bytes() == original.replace("[a]", "[a, b]").encode("utf-8")
    assert result.new_stamp == stamp_file(path)
    assert result.new_canonical == ("a", "b")
    again = edit_tags(workspace, "daily/2026-03-10/a.md", AddTag("B"))
    assert not again.changed and again.new_stamp == result.new_stamp
    assert [p.name for p in path.parent.iterdir()] == ["a.md"]


def test_non_utf8_is_refused(workspace: Path) -> None:
    path = workspace / "digest" / "latin1.md"
    path.write_bytes("---\nname: caf\xe9\n---\n".encode("latin-1"))
    with pytest.raises(UnsafeEditError, match="UTF-8"):
        edit_tags(workspace, "digest/latin1.md", AddTag("x"))
    assert path.read_bytes() == "---\nname: caf\xe9\n---\n".encode("latin-1")


def test_permissions_are_preserved(workspace: Path) -> None:
    path = workspace / "digest" / "p.md"
    write(path, "---\nmemory_tags: [a]\n---\n")
    path.chmod(0o640)
    edit_tags(workspace, "digest/p.md", AddTag("b"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def _temp_files(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.startswith(".")]


def test_failed_rename_leaves_original_and_no_temp(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = workspace / "digest" / "r.md"
    write(path, "---\nmemory_tags: [a]\n---\n")
    seen: list[str] = []

    def boom(src: str | Path, dst: str | Path) -> None:
        seen.append(Path(src).name)
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk on fire"):
        edit_tags(workspace, "digest/r.md", AddTag("b"))
    assert path.read_text() == "---\nmemory_tags: [a]\n---\n"
    assert _temp_files(path.parent) == []
    assert seen and seen[0].startswith(".") and not seen[0].lower().endswith(".md")


def test_failed_fsync_leaves_original_and_no_temp(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = workspace / "digest" / "f.md"
    write(path, "---\nmemory_tags: [a]\n---\n")

    def boom(fd: int) -> None:
        raise OSError("fsync failed")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError, match="fsync failed"):
        atomic_write(path, b"new", expected=stamp_file(path))
    assert path.read_text() == "---\nmemory_tags: [a]\n---\n"
    assert _temp_files(path.parent) == []


def test_same_size_change_behind_the_back_is_a_conflict(workspace: Path) -> None:
    path = workspace / "digest" / "c.md"
    write(path, "---\nmemory_tags: [a]\n---\n")
    _, stamp = read_with_stamp(path)
    write(path, "---\nmemory_tags: [z]\n---\n")
    os.utime(path, ns=(stamp.mtime_ns, stamp.mtime_ns))
    with pytest.raises(ConflictError) as info:
        edit_tags(workspace, "digest/c.md", AddTag("b"), expected=stamp)
    assert info.value.current is not None
    assert info.value.current.sha256 != stamp.sha256
    assert path.read_text() == "---\nmemory_tags: [z]\n---\n"
    with pytest.raises(ConflictError):
        atomic_write(path, b"x", expected=stamp)
    assert path.read_text() == "---\nmemory_tags: [z]\n---\n"
    assert _temp_files(path.parent) == []


def test_touched_mtime_is_a_conflict(workspace: Path) -> None:
    path = workspace / "digest" / "t.md"
    write(path, "---\nmemory_tags: [a]\n---\n")
    stamp = stamp_file(path)
    os.utime(path, ns=(stamp.mtime_ns + 5_000_000_000, stamp.mtime_ns + 5_000_000_000))
    with pytest.raises(ConflictError):
        edit_tags(workspace, "digest/t.md", AddTag("b"), expected=stamp)


def test_change_between_read_and_rename_is_a_conflict(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = workspace / "digest" / "race.md"
    write(path, "---\nmemory_tags: [a]\n---\n")
    real_prepare = fileio._prepare_temp

    def sneaky(fd: int, data: bytes, original: os.stat_result | None) -> os.stat_result:
        write(path, "---\nmemory_tags: [someone-else]\n---\n")
        return real_prepare(fd, data, original)

    monkeypatch.setattr(fileio, "_prepare_temp", sneaky)
    with pytest.raises(ConflictError):
        edit_tags(workspace, "digest/race.md", AddTag("b"))
    assert "someone-else" in path.read_text()
    assert _temp_files(path.parent) == []


def test_deleted_file_is_a_conflict(workspace: Path) -> None:
    path = workspace / "digest" / "gone.md"
    write(path, "x")
    stamp = stamp_file(path)
    path.unlink()
    with pytest.raises(ConflictError):
        atomic_write(path, b"y", expected=stamp)
    assert not path.exists()


@pytest.mark.parametrize(
    "rel",
    [
        "../outside.md",
        "daily/../../outside.md",
        "/etc/passwd.md",
        "daily\\x.md",
        "",
        "notes/a.md",
        "daily/a.txt",
        "a.md",
        "daily",
        "daily/.md",
        "resource/x.md",
    ],
)
def test_paths_refused(workspace: Path, rel: str) -> None:
    with pytest.raises(PathRefused) as info:
        resolve_in_workspace(workspace, rel)
    assert info.value.exit_code == 2


def test_symlinks(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    write(outside, "---\n---\n")
    (workspace / "daily" / "escape.md").symlink_to(outside)
    (workspace / "digest" / "linkdir").symlink_to(tmp_path, target_is_directory=True)
    for rel in ["daily/escape.md", "digest/linkdir/outside.md"]:
        with pytest.raises(PathRefused, match="outside"):
            edit_tags(workspace, rel, AddTag("x"))
    assert outside.read_text() == "---\n---\n"
    note = workspace / "notes" / "n.md"
    write(note, "x")
    (workspace / "daily" / "to-note.md").symlink_to(note)
    with pytest.raises(PathRefused):
        resolve_in_workspace(workspace, "daily/to-note.md")
    real = workspace / "digest" / "real.md"
    write(real, "---\n---\n")
    link = workspace / "daily" / "link.md"
    link.symlink_to(real)
    edit_tags(workspace, "daily/link.md", AddTag("x"))
    assert link.is_symlink() and "memory_tags" in real.read_text()


def test_uppercase_suffix_and_nested_dirs_accepted(workspace: Path) -> None:
    path = workspace / "daily" / "2026-03-10" / "NOTE.MD"
    write(path, "body\n")
    assert resolve_in_workspace(workspace, "daily/2026-03-10/NOTE.MD") == path.resolve()
    assert edit_tags(workspace, "daily/2026-03-10/NOTE.MD", SetTags(["a"])).changed
    assert path.read_text() == "---\nmemory_tags:\n  - a\n---\nbody\n"


def test_missing_file_and_hard_links_refused(workspace: Path) -> None:
    with pytest.raises(PathRefused):
        edit_tags(workspace, "digest/none.md", AddTag("x"))
    path = workspace / "digest" / "h.md"
    write(path, "---\n---\n")
    os.link(path, workspace / "digest" / "h2.md")
    with pytest.raises(UnsafeEditError, match="hard links"):
        edit_tags(workspace, "digest/h.md", AddTag("x"))


def test_error_hierarchy() -> None:
    for cls in (UnsafeEditError, ConflictError, PathRefused, InvalidTag):
        assert issubclass(cls, EditError)
    assert ConflictError("x", FileStamp(1, 2, "h")).current == FileStamp(1, 2, "h")
