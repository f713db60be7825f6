"""The exact fast path renders every body it accepts as mistletoe does (issue 19, part 4).

Differential: the fast path's blocks (kind, line, rendered text, level, code parts, list
items) and the chunks built from them are compared with mistletoe's on generated Markdown
and on every Markdown file in the repository's workspaces and fixtures. A body the fast
path refuses is not compared (mistletoe handles it), so the tests also check that the
path really is taken for the common blocks it exists for.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mistletoe.block_token import Document
from mistletoe.markdown_renderer import MarkdownRenderer

from reme_tui.engine.parse import chunking, mistletoe_speedup
from reme_tui.engine.parse.blocks import Block
from reme_tui.engine.parse.chunking import chunk_body
from reme_tui.engine.parse.fast_blocks import fast_blocks
from reme_tui.engine.parse.frontmatter.split import normalize_newlines, split_frontmatter
from tests.conformance.workspaces import WORKSPACES
from tests.markdown_atoms import INLINE_ATOMS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not mistletoe_speedup.is_supported(), reason="the fast path is off on this mistletoe"
)


def comparable(blocks: list[Block]) -> list[tuple[Any, ...]]:
    return [
        (b.kind, b.line, b.text, b.level, b.code, b.units() if b.units else None) for b in blocks
    ]


def mistletoe_view(body: str) -> list[tuple[Any, ...]]:
    with chunking._MISTLETOE_LOCK, MarkdownRenderer() as renderer:
        blocks = list(chunking._mistletoe_blocks(Document(body), renderer.render))
        return comparable(blocks)


def mistletoe_chunks(body: str, first_line: int, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    with monkeypatch.context() as patch:
        patch.setattr(chunking, "fast_blocks", lambda _body: None)
        return chunks(body, first_line)


def chunks(body: str, first_line: int) -> list[tuple[int, int, str]]:
    return [(c.start_line, c.end_line, c.text) for c in chunk_body("x.md", body, first_line)]


def assert_same(body: str, first_line: int, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Compare when the fast path accepts ``body``; True when it did."""
    body = normalize_newlines(body)
    fast = fast_blocks(body)
    if fast is None:
        return False
    assert comparable(fast) == mistletoe_view(body)
    assert chunks(body, first_line) == mistletoe_chunks(body, first_line, monkeypatch)
    return True


# -- generated Markdown -----------------------------------------------------------------

INLINE = [
    *INLINE_ATOMS,
    "  ",
    "[[daily/x.md]]",
    "<",
    ">",
    "&",
    "&#35;",
    "&x",
    "](y)",
    "]:",
    "1.",
    "\u3000",
    "\xa0",
]
inline_text = st.lists(st.sampled_from(INLINE), min_size=1, max_size=8).map("".join)

LINE_SHAPES = [
    "",
    " ",
    "{t}",
    " {t}",
    "   {t}",
    "    {t}",
    "{t} ",
    "{t}  ",
    "# {t}",
    "## {t}",
    "###### {t}",
    "####### {t}",
    "#{t}",
    "# {t} #",
    "- {t}",
    "* {t}",
    "+ {t}",
    "-  {t}",
    "1. {t}",
    "2. {t}",
    "1) {t}",
    "10. {t}",
    "  - {t}",
    "  {t}",
    "   {t}",
    "```",
    "```py",
    "``` py ",
    "````",
    "~~~",
    "~~~ `x`",
    "```{t}",
    "   ```",
    "---",
    "***",
    "===",
    "> {t}",
    "<div>",
    "[ref]: /url",
    "| a | b |",
    "|---|---|",
    "\t{t}",
]


@st.composite
def markdown(draw: st.DrawFn) -> str:
    shapes = draw(st.lists(st.sampled_from(LINE_SHAPES), max_size=25))
    lines = [shape.replace("{t}", draw(inline_text)) for shape in shapes]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


# Mostly the common blocks, so most examples take the fast path.
COMMON_SHAPES = ["", "{t}", "{t}", "# {t}", "## {t}", "- {t}", "1. {t}", "  {t}", "```", "code"]
COMMON_INLINE = ["word ", "**bold** ", "_x_ ", "`c` ", "[[a.md]] ", "项目", "x*y ", "a_b "]


@st.composite
def common_markdown(draw: st.DrawFn) -> str:
    shapes = draw(st.lists(st.sampled_from(COMMON_SHAPES), max_size=30))
    texts = st.lists(st.sampled_from(COMMON_INLINE), min_size=1, max_size=6).map(
        lambda parts: "".join(parts).strip()
    )
    return "\n".join(s.replace("{t}", draw(texts)) for s in shapes) + "\n"


@settings(max_examples=600, deadline=None)
@given(markdown())
def test_generated_markdown_renders_as_mistletoe_does(text: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        assert_same(text, 1, patch)


@settings(max_examples=300, deadline=None)
@given(common_markdown(), st.integers(min_value=1, max_value=40))
def test_common_blocks_render_as_mistletoe_does(text: str, first_line: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        assert_same(text, first_line, patch)


def test_oversized_blocks_split_as_mistletoe_splits_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Long lists, code and paragraphs go through the splitters with the fast blocks."""
    words = " ".join(f"w{i}" for i in range(30))
    bodies = [
        "# Top\n\n" + "\n".join(f"- {words} {i}" for i in range(400)) + "\n",
        "## Code\n\n```sh\n" + "\n".join(f"echo {words} {i}" for i in range(400)) + "\n```\n",
        "# P\n\n" + "\n".join(f"{words} line {i}" for i in range(400)) + "\n",
        "".join(f"## S{i}\n\n{words} {i}\n\n- {words}\n\n" for i in range(90)),
    ]
    for body in bodies:
        assert assert_same(body, 5, monkeypatch), body[:40]
        assert len(chunks(body, 5)) > 1


def test_the_fast_path_is_taken_for_the_common_blocks() -> None:
    body = (
        "\n# Title\n\nA paragraph with **bold**, _snake_case_ and `code`,\n"
        "over two lines with [[daily/2026-03-10.md]].\n\n## List\n\n- one\n- two\n  more\n"
        "\n- three\n\n1. first\n2. second\n\n```python\nprint('x')\n\n```\n"
    )
    blocks = fast_blocks(body)
    assert blocks is not None
    assert [b.kind for b in blocks] == [
        "heading",
        "other",
        "heading",
        "list",
        "list",
        "code",
    ]


@pytest.mark.parametrize(
    "body",
    [
        "| a | b |\n|---|---|\n| 1 | 2 |\n",
        "> quote\n",
        "see [x](y.md)\n",
        "[ref]: /url\n",
        "a &amp; b\n",
        "- a\n  - nested\n",
        "trailing  \nspace\n",
        "<div>\nhtml\n</div>\n",
        "setext\n---\n",
        "a `code\nspan` b\n",
        "\\\\<http://a.b>\n",  # mistletoe drops the escaped backslash before an autolink
        "a \\\\`c`\n",  # and before a code span
        "**word*\\\n",  # mistletoe counts a block's last backslash into the "*" run
        "x _y_\\\nmore\n",
    ],
)
def test_bodies_with_other_blocks_go_to_mistletoe(body: str) -> None:
    assert fast_blocks(body) is None


# -- every workspace in the repository --------------------------------------------------


def repository_files() -> Iterator[tuple[str, str]]:
    for folder in ("sample_workspace", "sample_reme_project", "tests", "docs"):
        for path in sorted((ROOT / folder).rglob("*.md")):
            yield str(path.relative_to(ROOT)), path.read_bytes().decode("utf-8", "replace")
    for name, workspace in WORKSPACES.items():
        for rel, content in sorted(workspace.items()):
            text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
            yield f"conformance:{name}/{rel}", text
    cases = json.loads((ROOT / "tests/engine/fixtures/chunking_cases.json").read_text())
    for case in cases["cases"]:
        yield f"fixture:{case['name']}", case["file"]


def test_every_repository_memory_renders_as_mistletoe_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = 0
    files = list(repository_files())
    for _name, text in files:
        _yaml, body, first_line = split_frontmatter(text)
        if body.strip() and chunking.count_headings(body) <= chunking.MAX_AST_SECTIONS:
            taken += assert_same(body, first_line, monkeypatch)
    assert len(files) > 100
    assert taken > len(files) // 4
