"""The frontmatter fast path answers only what PyYAML's safe_load answers (differential)."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.parse.frontmatter.simple import load_simple
from reme_tui.engine.parse.frontmatter.split import split_frontmatter

REPO = Path(__file__).resolve().parents[2]

# Words PyYAML resolves to something other than a string, and characters that mean
# something to YAML somewhere in a line.
SPECIAL_WORDS = [
    "yes",
    "No",
    "on",
    "OFF",
    "true",
    "False",
    "null",
    "~",
    "Null",
    "1",
    "-2",
    "0x1F",
    "0o17",
    "1.5",
    "1e3",
    ".inf",
    "-.Inf",
    ".nan",
    "2026-03-01",
    "2026-03-01 10:00:00",
    "=",
    "<<",
    "1_000",
    "12:30",
    "0b101",
    "+1",
    "y",
    "n",
    "0?",
    "a?b",
    "?x",
]
CHARS = st.sampled_from(
    [*list("abcXYZ09 _-:#,[]{}'\"?!&*|>%@`~.=<\\/()"), "\t", "é", "项", "\xa0", "\u2028", "\x85"]
)
# Mostly what memories hold (so the fast path is taken often), now and then YAML's edges.
PROSE = st.sampled_from(list("abcdefXYZ0129 ,.()/_-'!?é项:#"))
scalar = st.one_of(
    st.sampled_from(SPECIAL_WORDS),
    st.text(CHARS, min_size=0, max_size=12),
    st.text(PROSE, min_size=1, max_size=16),
    st.text(PROSE, min_size=1, max_size=16),
)
key = st.one_of(
    st.sampled_from(["name", "description", "memory_tags", "a-b", "_x", "yes", "1"]),
    st.text(CHARS, min_size=1, max_size=6),
)
quoted = st.one_of(
    st.text(CHARS, max_size=8).map(lambda t: "'" + t + "'"),
    st.text(CHARS, max_size=8).map(lambda t: '"' + t + '"'),
)
value = st.one_of(
    scalar,
    quoted,
    st.lists(scalar, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(scalar, max_size=3).map(lambda items: "[" + ",".join(items) + "]"),
)
line = st.builds(
    lambda k, sep, v: f"{k}{sep}{v}", key, st.sampled_from([": ", ":", ":  ", " : "]), value
)
item_lines = st.builds(
    lambda indent, items: "\n".join(f"{indent}- {item}" for item in items),
    st.sampled_from(["", "  ", " "]),
    st.lists(st.one_of(scalar, quoted), min_size=1, max_size=3),
)
sequence = st.builds(lambda k, items: f"{k}:\n{items}", key, item_lines)
comment = st.text(CHARS, max_size=8).map(lambda t: "#" + t)
block = st.lists(st.one_of(line, line, sequence, comment), min_size=1, max_size=5).map("\n".join)


def same_as_pyyaml(text: str) -> bool:
    fast = load_simple(text)
    if fast is None:
        return True
    try:
        reference = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    return fast == reference and _types(fast) == _types(reference)


def _types(value: object) -> object:
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value)


@settings(max_examples=3000, deadline=None)
@given(block)
def test_the_fast_path_never_differs_from_pyyaml(text: str) -> None:
    assert same_as_pyyaml(text)


def test_the_common_block_takes_the_fast_path() -> None:
    text = "name: Kickoff\ndescription: Atlas kickoff, budget\nmemory_tags: [alice, project_atlas]"
    assert load_simple(text) == yaml.safe_load(text)
    assert load_simple(text) is not None


def test_every_frontmatter_in_the_repository_agrees() -> None:
    fast = 0
    seen = 0
    for path in REPO.glob("**/*.md"):
        if ".venv" in path.parts or "benchmarks" in path.parts:
            continue
        yaml_text = split_frontmatter(path.read_text(encoding="utf-8", errors="replace"))[0]
        if yaml_text is None:
            continue
        seen += 1
        assert same_as_pyyaml(yaml_text), path
        fast += load_simple(yaml_text) is not None
    assert seen > 50 and fast > seen // 3  # the path is taken for most real memories
