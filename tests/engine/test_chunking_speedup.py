"""The faster mistletoe scanner produces exactly what mistletoe's own scanner does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import mistletoe
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mistletoe import core_tokens, span_tokenizer

from reme_tui.engine.parse import chunking, mistletoe_speedup
from reme_tui.engine.parse.chunking import chunk_body
from tests.markdown_atoms import INLINE_ATOMS

PIECES = [
    *INLINE_ATOMS,
    "\n",
    "\n\n",
    "(http://x.y)",
    "[ref]: /url",
    "# ",
    "- ",
    "1. ",
    "> ",
    "---",
    "<http://a.b>",
    "a@b.co>",
    "  \n",
    "\\\n",
    "    ",
    '"t"',
]
markdown = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


@contextmanager
def original_scanner() -> Iterator[None]:
    """Chunk as on a mistletoe version the speed-up does not know: mistletoe's own scanner."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mistletoe, "__version__", "0.0-unknown")
        yield


def chunks(text: str) -> list[tuple[int, int, str]]:
    return [(c.start_line, c.end_line, c.text) for c in chunk_body("x.md", text, 1)]


@settings(max_examples=300, deadline=None)
@given(markdown)
@example("\\\\<http://a.b>")  # found by this test: the fast path kept an escaped backslash
@example("**word*\\")  # found by this test: mistletoe renders it "**word**"
def test_chunks_are_identical_with_and_without_the_speedup(text: str) -> None:
    fast = chunks(text)
    with original_scanner():
        slow = chunks(text)
    assert fast == slow


def _scanners_seen_while_chunking(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    render = chunking.MarkdownRenderer.render

    def spy(self: object, token: object) -> str:
        seen.append(core_tokens.find_core_tokens)
        seen.append(span_tokenizer.find_tokens)
        return render(self, token)  # type: ignore[arg-type]

    monkeypatch.setattr(chunking.MarkdownRenderer, "render", spy)
    chunk_body("x.md", "# Title\n\nSome *text* with `code` and [a](b).\n", 1)
    return seen


@pytest.mark.skipif(
    not mistletoe_speedup.is_supported(), reason="this mistletoe uses its own scanner"
)
def test_speedup_is_used_only_inside_the_chunkers_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    originals = (core_tokens.find_core_tokens, span_tokenizer.find_tokens)
    assert mistletoe_speedup.find_core_tokens not in originals
    seen = _scanners_seen_while_chunking(monkeypatch)
    assert seen and set(seen) == {mistletoe_speedup.find_core_tokens, mistletoe_speedup.find_tokens}
    assert (core_tokens.find_core_tokens, span_tokenizer.find_tokens) == originals


def test_other_mistletoe_versions_keep_mistletoes_own_scanner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    originals = {core_tokens.find_core_tokens, span_tokenizer.find_tokens}
    monkeypatch.setattr(mistletoe, "__version__", "1.7.0")
    assert not mistletoe_speedup.is_supported()
    assert set(_scanners_seen_while_chunking(monkeypatch)) == originals
