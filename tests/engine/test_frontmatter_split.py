"""One fence rule: ReMe's split, the editor's split and the merge reader find the same block."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine.parse.frontmatter.locate import _split
from reme_tui.engine.parse.frontmatter.split import (
    closing_fence,
    loaded_tag_items,
    split_frontmatter,
)

LINES = st.lists(
    st.sampled_from(["---", " --- ", "----", "memory_tags: [a, b]", "name: x", "", "body", "..."]),
    max_size=6,
)


def test_closing_fence() -> None:
    assert closing_fence(["---\n", "a: 1\n", " ---\n", "---\n"]) == 2
    assert closing_fence(["---\n", "a: 1\n"]) is None
    assert closing_fence(["----\n", "---\n"]) is None
    assert closing_fence([]) is None


@given(LINES)
def test_every_reader_finds_the_same_frontmatter(lines: list[str]) -> None:
    text = "\n".join(lines)
    yaml_text, _body, _first = split_frontmatter(text)
    editor = _split(text)
    assert editor.has_frontmatter == (yaml_text is not None)
    if editor.has_frontmatter:
        assert editor.fm_text().strip() == yaml_text


def test_loaded_tag_items_reads_the_list_the_editor_rewrites() -> None:
    assert loaded_tag_items("---\nmemory_tags: [a, 2]\n---\nbody", "memory_tags") == ["a", 2]
    assert loaded_tag_items("\ufeff---\nmemory_tags: [a]\n---\n", "memory_tags") == ["a"]
    assert loaded_tag_items("---\nmemory_tags: a\n---\n", "memory_tags") is None
    assert loaded_tag_items("memory_tags: [a]\n", "memory_tags") is None
