"""The one wikilink parser: anchors, aliases and embeds as data, the same links in bytes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine.parse.wikilinks import (
    Wikilink,
    find_wikilinks,
    parse_links,
    wikilink_byte_spans,
)
from reme_tui.engine.records import Link


def test_targets_anchors_aliases_and_embeds_are_fields() -> None:
    text = "see [[a.md]], ![[img.md#top|Picture]] and [[ b.md # Part 2 | the b ]]"
    assert list(find_wikilinks(text)) == [
        Wikilink("a.md", None, None, False, 4, 12),
        Wikilink("img.md", "top", "Picture", True, 14, 37),
        Wikilink("b.md", "Part 2", "the b", False, 42, 69),
    ]


def test_what_is_not_a_link() -> None:
    for text in ("[[ ]]", "[[a#]]", "[[a|]]", "[[a\nb]]", "[[a]b]]", "[x](a.md)", "[[#top]]"):
        assert list(find_wikilinks(text)) == [], text


def test_parse_links_dedupes_by_target_and_anchor_and_keeps_the_embed_flag() -> None:
    body = "![[a.md]]\n[[a.md]]\n[[a.md#x]]\n"
    assert parse_links(body, first_line=5) == [
        Link("a.md", None, None, 5, embed=True),
        Link("a.md", "x", None, 7),
    ]


@given(st.text(alphabet="ab #|[]!\n é中", max_size=30))
def test_byte_spans_are_the_character_spans(text: str) -> None:
    data = text.encode("utf-8")
    expected = [
        (len(text[: w.start].encode("utf-8")), len(text[: w.end].encode("utf-8")))
        for w in find_wikilinks(text)
    ]
    assert wikilink_byte_spans(data) == expected
