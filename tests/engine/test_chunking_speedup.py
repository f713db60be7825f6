"""The faster mistletoe scanner produces exactly what mistletoe's own scanner does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st
from mistletoe import core_tokens, span_tokenizer

from reme_tui.engine import mistletoe_speedup
from reme_tui.engine.chunking import chunk_body

PIECES = [
    "word",
    " ",
    "\n",
    "\n\n",
    "*",
    "**",
    "_",
    "__",
    "[",
    "]",
    "[[",
    "]]",
    "!",
    "![",
    "\\",
    "`",
    "``",
    "(",
    ")",
    "(http://x.y)",
    "[ref]: /url",
    "# ",
    "- ",
    "1. ",
    "> ",
    "|",
    "---",
    "项目",
    "é",
    "<b>",
    "&amp;",
    "~~",
    "~",
    "<http://a.b>",
    "a@b.co>",
    "  \n",
    "\\\n",
    "    ",
    "\t",
    ":",
    "#",
    '"t"',
]
markdown = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


@contextmanager
def original_scanner() -> Iterator[None]:
    mistletoe_speedup.uninstall()
    try:
        yield
    finally:
        mistletoe_speedup.install()


def chunks(text: str) -> list[tuple[int, int, str]]:
    return [(c.start_line, c.end_line, c.text) for c in chunk_body("x.md", text, 1)]


@settings(max_examples=300, deadline=None)
@given(markdown)
def test_chunks_are_identical_with_and_without_the_speedup(text: str) -> None:
    fast = chunks(text)
    with original_scanner():
        slow = chunks(text)
    assert fast == slow


def test_speedup_is_installed() -> None:
    assert core_tokens.find_core_tokens is mistletoe_speedup.find_core_tokens
    assert span_tokenizer.find_tokens is mistletoe_speedup.find_tokens
