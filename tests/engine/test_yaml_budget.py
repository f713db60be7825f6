"""Hostile frontmatter (issue 23): a block over the YAML budget is ignored like invalid YAML,
with its own diagnostic, and nothing big is ever built, walked, saved or diffed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.engine import Engine
from reme_tui.engine.errors import UnsafeEditError
from reme_tui.engine.history.diff import _load_frontmatter as history_frontmatter
from reme_tui.engine.index.store import IndexStore
from reme_tui.engine.parse import (
    AddTag,
    FrontmatterTooComplex,
    YamlBudget,
    apply_op,
    load_yaml,
    loaded_tag_items,
)
from reme_tui.engine.parse.frontmatter.quoting import quote_scalar
from reme_tui.engine.search.types import SearchQuery
from tests.helpers import memory, write_workspace
from tests.yaml_bombs import (
    alias_bomb,
    deep_block_map,
    deep_flow_list,
    deep_flow_map,
    memory_with,
    merge_bomb,
    tag_item_bomb,
)

OK = {"digest/ok.md": memory("hello from a healthy memory\n", tags=["good"])}
BAD = "digest/bad.md"

# The shapes from the issue, full size: the budget stops each after a few thousand nodes.
TOO_COMPLEX = {
    "name 9x9": alias_bomb("name"),
    "description 40x2": alias_bomb("description", 40, 2),
    "memory_tags 9x9": alias_bomb("memory_tags"),
    "memory_tags 40x2": alias_bomb("memory_tags", 40, 2),
    "a tag item": tag_item_bomb(),
    "side key 40x2": alias_bomb("people", 40, 2),
    "provenance key": alias_bomb("source_conversation"),
    "links": alias_bomb("links", 9, 9, leaf="'[[digest/ok.md]]'"),
    "merge key": merge_bomb(),
    "flow list 100,000 deep": deep_flow_list(100_000),
    "flow maps 5,000 deep": deep_flow_map(5_000),
    "block maps 2,000 deep": deep_block_map(2_000),
    "recursive alias": "x: &a [*a]\nmemory_tags: [b]",
}


def _open(root: Path, files: dict[str, str]) -> Engine:
    return Engine.open(write_workspace(root, {**OK, **files}), store=IndexStore(root))


def _found(engine: Engine, text: str) -> set[str]:
    return {hit.path for hit in engine.search(SearchQuery(text=text, limit=50)).hits}


@pytest.mark.parametrize("yaml_text", TOO_COMPLEX.values(), ids=TOO_COMPLEX.keys())
def test_a_block_over_the_budget_is_ignored_and_the_rest_indexed(
    tmp_path: Path, yaml_text: str
) -> None:
    engine = _open(tmp_path, {BAD: memory_with(f"memory_tags: [bad]\n{yaml_text}")})
    bad = engine.memory(BAD)
    assert bad is not None and bad.frontmatter == {} and bad.tags == ()
    assert bad.name is None and bad.field_links == ()
    (diagnostic,) = [d for d in bad.diagnostics if d.code == "frontmatter-too-complex"]
    assert diagnostic.severity == "warning" and diagnostic.line is not None
    assert diagnostic.line >= 2 and len(diagnostic.message) < 300
    assert _found(engine, "hostile") == {BAD}  # the body is still indexed
    assert engine.list_tags() == [("good", 1)]
    assert engine.save()
    warm = Engine.open(tmp_path, store=IndexStore(tmp_path))
    assert warm.fingerprint() == engine.fingerprint()


def test_the_line_names_where_the_budget_ran_out(tmp_path: Path) -> None:
    yaml_text = "name: fine\nmemory_tags: [bad]\n" + alias_bomb("people")
    engine = _open(tmp_path, {BAD: memory_with(yaml_text)})
    (diagnostic,) = [d for d in engine.diagnostics() if d.code == "frontmatter-too-complex"]
    lines = memory_with(yaml_text).splitlines()
    assert lines[diagnostic.line - 1].startswith("a")  # type: ignore[operator]
    assert "over 100,000 values" in diagnostic.message


def test_at_the_depth_limit_everything_still_works_and_is_saved(tmp_path: Path) -> None:
    at_limit = deep_flow_list(99)  # the top mapping is level 1
    engine = _open(tmp_path, {BAD: memory_with(f"{at_limit}\nmemory_tags: [deep]")})
    bad = engine.memory(BAD)
    assert bad is not None and bad.tags == ("deep",)
    assert engine.save()
    warm = Engine.open(tmp_path, store=IndexStore(tmp_path))
    assert warm.fingerprint() == engine.fingerprint()
    over = _open(tmp_path / "over", {BAD: memory_with(f"{deep_flow_list(100)}\nmemory_tags: [d]")})
    assert "frontmatter-too-complex" in {d.code for d in over.diagnostics()}


@pytest.mark.parametrize(
    "value",
    ["2026-13-45", "2026-02-30", "9" * 5_000, "!!float nope", "!!timestamp 2026-02-30"],
)
def test_a_value_python_refuses_is_invalid_yaml_not_a_crash(tmp_path: Path, value: str) -> None:
    engine = _open(tmp_path, {BAD: memory_with(f"when: {value}\nmemory_tags: [bad]")})
    bad = engine.memory(BAD)
    assert bad is not None and bad.tags == ()
    (diagnostic,) = [d for d in bad.diagnostics if d.code == "yaml-invalid"]
    assert diagnostic.line == 2
    assert _found(engine, "hostile") == {BAD}


def test_a_lone_surrogate_is_replaced_so_it_can_be_saved(tmp_path: Path) -> None:
    text = memory_with('name: "bad \\ud800 name"\nmemory_tags: ["ali\\udc00ce"]')
    engine = _open(tmp_path, {BAD: text})
    bad = engine.memory(BAD)
    assert bad is not None and bad.name == "bad \ufffd name" and bad.tags == ("ali\ufffdce",)
    assert engine.save()
    assert Engine.open(tmp_path, store=IndexStore(tmp_path)).fingerprint() == engine.fingerprint()


def test_the_editor_the_history_and_the_tag_reader_refuse_a_bomb() -> None:
    text = memory_with("memory_tags: [a]\n" + alias_bomb("people"))
    with pytest.raises(UnsafeEditError, match="over 100,000 values"):
        apply_op(text, AddTag("b"))
    with pytest.raises(yaml.YAMLError):
        loaded_tag_items(text, "memory_tags")
    assert history_frontmatter(text) == ({}, "hello from a hostile memory\n")


# -- the budget itself -----------------------------------------------------------------


def test_each_limit_is_exact() -> None:
    three = "[a, b]"  # a list and two scalars
    assert load_yaml(three, YamlBudget(nodes=3)) == ["a", "b"]
    with pytest.raises(FrontmatterTooComplex, match="over 2 values"):
        load_yaml(three, YamlBudget(nodes=2))
    aliased = "a: &x [1, 2]\nb: *x"  # 1 + (1 + 3) + (1 + 3 again, through the alias)
    assert load_yaml(aliased, YamlBudget(nodes=9)) == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(FrontmatterTooComplex):
        load_yaml(aliased, YamlBudget(nodes=8))
    nested = "a: &x [[[q]]]\nb: [*x]"  # b's alias reaches depth 1 + 1 + 3 + 1
    assert load_yaml(nested, YamlBudget(depth=6))["b"] == [[[["q"]]]]
    with pytest.raises(FrontmatterTooComplex, match="deeper than 5"):
        load_yaml(nested, YamlBudget(depth=5))
    words = "a: &x abcdef\nb: *x\nc: *x"
    assert load_yaml(words, YamlBudget(alias_chars=12))["c"] == "abcdef"
    with pytest.raises(FrontmatterTooComplex, match="over 11 characters"):
        load_yaml(words, YamlBudget(alias_chars=11))


def test_a_merge_key_counts_what_it_merges() -> None:
    text = "base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  z: 3"
    assert load_yaml(text)["item"] == {"x": 1, "y": 2, "z": 3}
    # 1 + (1 + 5) + (1 + 1 + 1 + 5 through the alias + 2)
    with pytest.raises(FrontmatterTooComplex):
        load_yaml(text, YamlBudget(nodes=16))
    assert load_yaml(text, YamlBudget(nodes=17))["item"]["z"] == 3


_scalars = st.one_of(
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.none(),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=8),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(_values, st.sampled_from([None, "flow", "block"]))
def test_within_the_budget_the_value_is_safe_loads_own(value: Any, style: str | None) -> None:
    text = yaml.safe_dump(value, default_flow_style={"flow": True, "block": False}.get(style or ""))
    assert load_yaml(text) == yaml.safe_load(text)


def test_quoting_a_hostile_tag_for_writing_is_bounded_too() -> None:
    """The writer checks how YAML reads a value back; a tag typed as 100,000 brackets
    must come back quoted, not raise RecursionError from the check."""
    value = "[" * 100_000 + "]" * 100_000
    quoted = quote_scalar(value)
    assert quoted != value
    assert load_yaml(f"- {quoted}\n") == [value]


def test_frontmatter_is_read_by_reme_s_parser_not_libyaml(tmp_path: Path) -> None:
    """libyaml reads `[0?, z]` as a list; PyYAML's parser (ReMe's) refuses it, so ReMe
    ignores the frontmatter and the memory has no tags."""
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load("memory_tags: [0?, z]\n")
    root = write_workspace(tmp_path, {"digest/a.md": "---\nmemory_tags: [0?, z]\n---\nbody\n"})
    engine = Engine.open(root)
    assert engine.memory("digest/a.md").tags == ()  # type: ignore[union-attr]
    assert "yaml-invalid" in {d.code for d in engine.diagnostics()}
