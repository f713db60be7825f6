"""The one wikilink parser: anchors, aliases and embeds as data, the same links in bytes."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from reme_tui.engine.parse.wikilinks import (
    WIKILINK_PATTERN,
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


# Pieces of wikilinks, so that most texts hold some (single characters seldom make one).
_PIECES = ["[[", "]]", "!", "![[", "[", "]", "a", "b.md", " ", "#", "|", "\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_the_links_are_those_of_the_whole_pattern(text: str) -> None:
    """The search starts at `[[` and reads a `!` before it: the same links, spans and
    embeds as the whole pattern (the one ReMe's syntax is written as) finds."""
    whole = re.compile(WIKILINK_PATTERN)
    expected = [
        (m.group("target").strip(), m.group("embed") is not None, m.start(), m.end())
        for m in whole.finditer(text)
        if m.group("target").strip()
    ]
    assert [(w.target, w.embed, w.start, w.end) for w in find_wikilinks(text)] == expected
    assert wikilink_byte_spans(text.encode()) == [(start, end) for *_, start, end in expected]
