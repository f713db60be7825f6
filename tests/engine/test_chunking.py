"""Frontmatter split and chunking: golden outputs from reme-ai 0.4.2.0 plus invariants."""

from __future__ import annotations

import hashlib
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reme_tui.engine.parse.chunking import (
    CHUNK_BYTE_LIMIT,
    MAX_AST_SECTIONS,
    chunk_body,
    count_headings,
)
from reme_tui.engine.parse.frontmatter.split import normalize_newlines, split_frontmatter
from reme_tui.engine.records import Chunk

FIXTURE = Path(__file__).parent / "fixtures" / "chunking_cases.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
IDS = [case["name"] for case in CASES]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _as_record(chunk: Chunk, like: dict[str, Any]) -> dict[str, Any]:
    """Our chunk in the fixture's shape (digest + ends when the golden text was long)."""
    record: dict[str, Any] = {"start": chunk.start_line, "end": chunk.end_line}
    if "text" in like:
        record["text"] = chunk.text
    else:
        record["sha256"] = _digest(chunk.text)
        record["bytes"] = len(chunk.text.encode("utf-8"))
        record["head"] = chunk.text[: len(like["head"])]
        record["tail"] = chunk.text[-len(like["tail"]) :]
    return record


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_split_matches_reference(case: dict[str, Any]) -> None:
    yaml_text, body, first_line = split_frontmatter(case["file"])
    assert yaml_text == case["yaml"]
    assert first_line == case["body_first_line"]
    if "body" in case:
        assert body == case["body"]
    else:
        assert (len(body), _digest(body)) == (case["body_len"], case["body_sha256"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chunks_match_reference(case: dict[str, Any]) -> None:
    _yaml, body, first_line = split_frontmatter(case["file"])
    chunks = chunk_body("daily/2026-03-10/case.md", body, first_line)
    assert all(c.path == "daily/2026-03-10/case.md" for c in chunks)
    expected = case["chunks"]
    got = [_as_record(c, e) for c, e in zip(chunks, expected, strict=False)]
    assert got == expected[: len(got)]
    assert len(chunks) == len(expected)


def test_fixture_covers_the_interesting_paths() -> None:
    by_name = {case["name"]: case for case in CASES}
    first, second = by_name["many_headings_plain"]["chunks"][:2]
    assert first["end"] >= second["start"]  # plain windows overlap
    assert any(c.get("bytes") == CHUNK_BYTE_LIMIT for c in by_name["exact_limit_flush"]["chunks"])
    assert "[Part 1/3]" in by_name["huge_table"]["chunks"][2]["head"]
    assert by_name["bom_frontmatter"]["yaml"] is None


def test_empty_and_blank_bodies_have_no_chunks() -> None:
    assert chunk_body("a.md", "", 1) == []
    assert chunk_body("a.md", " \n\t\n", 4) == []


def test_whole_body_chunk_starts_at_the_body_first_line() -> None:
    # Reference quirk: the root node's range starts at the body's first line, blank or not.
    assert chunk_body("a.md", "\n\n# T\n\ntext\n\n", 5) == [Chunk.of("a.md", 5, 9, "# T\n\ntext")]


def test_raw_crlf_body_is_normalized() -> None:
    crlf = chunk_body("a.md", "# T\r\n\r\nline\r\n", 3)
    assert crlf == chunk_body("a.md", "# T\n\nline\n", 3)


def test_split_without_frontmatter() -> None:
    assert split_frontmatter("# x\n") == (None, "# x\n", 1)
    assert split_frontmatter("") == (None, "", 1)
    assert split_frontmatter("---\nname: x\n") == (None, "---\nname: x\n", 1)


def test_count_headings_ignores_fences() -> None:
    body = "# a\n```\n# b\n~~~\n```\ntext\n---\n## c\n~~~~\n# d\n~~~ x\n~~~~\n"
    assert count_headings(body) == 3  # "# a", setext "text/---", "## c"
    assert count_headings("# a\n" * 500, stop_after=MAX_AST_SECTIONS) == MAX_AST_SECTIONS + 1


# -- Properties -------------------------------------------------------------------

_WORDS = ["memory", "agent", "记忆", "index", "search", "ünï", "chunk", "token", "[[x.md#a|b]]"]


def _line(seed: int, n_words: int) -> str:
    return " ".join(_WORDS[(seed * 7 + i) % len(_WORDS)] for i in range(n_words))


def _block(kind: str, seed: int, size: int) -> str:
    if kind == "heading":
        return "#" * (seed % 6 + 1) + " " + _line(seed, seed % 5 + 1)
    if kind == "table":
        rows = "\n".join(f"| {i} | {_line(seed + i, 6)} |" for i in range(size))
        return f"| n | text |\n|---|---|\n{rows}"
    if kind == "code":
        return "```txt\n" + "\n".join(_line(seed + i, 8) for i in range(size)) + "\n```"
    if kind == "list":
        return "\n".join(f"- {_line(seed + i, 8)}" for i in range(size))
    return "\n".join(_line(seed + i, 10) for i in range(size))


_BLOCKS = st.lists(
    st.tuples(
        st.sampled_from(["heading", "heading", "table", "code", "list", "para"]),
        st.integers(0, 50),
        st.integers(1, 12) | st.integers(60, 150),
    ),
    max_size=12,
)


def _body(blocks: list[tuple[str, int, int]], blank_lines: int) -> str:
    return ("\n" * (blank_lines + 1)).join(_block(*b) for b in blocks) + "\n"


@settings(max_examples=15, deadline=None)
@given(_BLOCKS, st.integers(1, 2), st.integers(1, 40))
def test_chunk_invariants(blocks: list[tuple[str, int, int]], blank_lines: int, first: int) -> None:
    body = _body(blocks, blank_lines)
    last_line = first + body.count("\n") - 1
    chunks = chunk_body("p.md", body, first)
    ast_path = count_headings(body) <= MAX_AST_SECTIONS
    for chunk in chunks:
        assert first <= chunk.start_line <= chunk.end_line <= last_line
        assert chunk.text
        # Every line and list item here is far below the limit, so nothing overflows.
        assert len(chunk.text.encode("utf-8")) <= CHUNK_BYTE_LIMIT
    for before, after in pairwise(chunks):
        if ast_path:
            assert before.end_line < after.start_line
        else:
            assert before.start_line <= after.start_line


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 60), st.integers(1, 5))
def test_plain_windows(seed: int, first: int) -> None:
    body = "\n\n".join(f"## h{i}\n\n{_line(seed + i, 30)}" for i in range(MAX_AST_SECTIONS + seed))
    chunks = chunk_body("p.md", body, first)
    assert len(chunks) > 1
    for chunk in chunks:
        assert len(chunk.text.encode("utf-8")) <= CHUNK_BYTE_LIMIT
        assert chunk.text in body  # raw slices, never re-rendered
    for before, after in pairwise(chunks):
        assert before.start_line <= after.start_line <= before.end_line  # overlap


def test_single_oversized_line_is_kept_whole() -> None:
    line = _line(3, 1600)
    chunks = chunk_body("p.md", f"# t\n\n{line}\n", 1)
    assert [c.text for c in chunks] == ["# t", line]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(["---", " --- ", "name: x", "", "text", "\r\n", "\r", "\x0c", "----"]),
        max_size=12,
    ).map("\n".join)
)
def test_split_frontmatter_invariants(text: str) -> None:
    yaml_text, body, first_line = split_frontmatter(text)
    normalized = normalize_newlines(text)
    assert normalized.endswith(body)
    head = normalized[: len(normalized) - len(body)]
    assert len(head.splitlines()) == first_line - 1
    if yaml_text is None:
        assert (body, first_line) == (normalized, 1)
    else:
        assert head.splitlines()[0].strip() == "---" == head.splitlines()[-1].strip()
